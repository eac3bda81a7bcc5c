// Story: one question asked through each surface in turn, `qbridge ask --json`, the API's
// POST /questions and MCP ask_human, on a box whose stats give advice and whose quiet hours hold
// the question. Every surface answers with the same reply (the ask core's), each in its own
// documented frame: the CLI without the commit, the API with 201/200, the MCP tool beside the
// outcome.

import { afterEach, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config.ts";
import { heldUntilOf } from "../../src/slot/attention/held-until.ts";
import { createWebApp } from "../../src/web/app.ts";
import { loadSecret } from "../../src/web/links.ts";
import { hourElevenAnswers, REPEATED, SPECS, statsBox, ZONE } from "../stats/stats-fixture.ts";
import { cleanupBoxes, runCli, textCard } from "../support/box.ts";
import { mcpClientOn } from "../support/mcp-client.ts";
import { API_TOKEN } from "../web/web-support.ts";
import { callTool } from "./agent-support.ts";

afterEach(cleanupBoxes);

// The frozen clock is 11:00 in Berlin: inside these quiet hours, which end at 12:00 (10:00Z).
const ENV = { QBRIDGE_TIMEZONE: ZONE, QBRIDGE_QUIET_HOURS: "10:00-12:00" };
const REPLY_FIELDS = ["expectedWaitSeconds", "hint", "similar", "heldUntil"] as const;

function replyFields(body: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(REPLY_FIELDS.map((field) => [field, body[field]]));
}

describe("the reply to an ask", () => {
  it("is the same on the CLI, the API and MCP ask_human, each in its documented frame", async () => {
    const box = await statsBox([...SPECS, ...hourElevenAnswers(10)]);
    const card = textCard({ prompt: REPEATED });
    const config = loadConfig({ ...ENV, QBRIDGE_API_TOKEN: API_TOKEN }, { box: box.dir });

    const cli = await runCli(["ask", "--json", "--box", box.dir], {
      env: ENV,
      input: JSON.stringify(card),
    });
    expect(cli.stderr).toBe("");
    const printed = JSON.parse(cli.stdout) as Record<string, unknown>;
    expect(Object.keys(printed)).toEqual([
      "id",
      "deduplicated",
      "card",
      "expectedWaitSeconds",
      "hint",
      "similar",
      "heldUntil",
    ]);
    expect(printed).toMatchObject({
      deduplicated: false,
      expectedWaitSeconds: 300,
      hint: expect.stringContaining("3 similar questions were dismissed or left to expire"),
      similar: [{ id: "r1", answer: "Yes" }],
      heldUntil: "2026-07-10T10:00:00Z",
    });

    const app = createWebApp({ core: box, config, secret: loadSecret(box.box) });
    const res = await app.request("/api/v1/questions?unless_open=true", {
      method: "POST",
      headers: { "content-type": "application/json", Authorization: `Bearer ${API_TOKEN}` },
      body: JSON.stringify(card),
    });
    expect(res.status).toBe(200);
    const api = (await res.json()) as Record<string, unknown>;
    expect(api).toEqual({ ...printed, deduplicated: true });

    const client = await mcpClientOn({
      core: box,
      timeZone: config,
      heldUntil: heldUntilOf(box, config.attention),
    });
    const { memo, directive } = card;
    const mcp = await callTool(client, "ask_human", {
      prompt: REPEATED,
      memo,
      directive,
      type: "text",
    }).result;
    await client.close();
    expect(mcp.isError, JSON.stringify(mcp.content)).toBeFalsy();
    const tool = mcp.structuredContent as Record<string, unknown>;
    expect(tool).toMatchObject({ id: printed.id, status: "pending", deduplicated: true });
    expect(replyFields(tool)).toEqual(replyFields(printed));
    expect(tool.card).toBeUndefined();
  });
});
