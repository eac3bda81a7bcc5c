// An agent sees when its question waits to be shown: during quiet hours the ask response and
// the outcome carry `heldUntil` (their end), a `high` question none; a question put off with
// "Later" carries its time.

import { afterEach, describe, expect, it } from "vitest";
import type { QuestionOutcome } from "../../src/questions/outcome.ts";
import { heldUntilOf } from "../../src/slot/attention/held-until.ts";
import { LaterStore } from "../../src/slot/attention/later.ts";
import { parseQuietHours } from "../../src/slot/attention/quiet-hours.ts";
import { cleanupBoxes, cliEnv, confirmCard, makeBox, runCli } from "../support/box.ts";
import { mcpClientOn } from "../support/mcp-client.ts";
import { callTool } from "./agent-support.ts";

afterEach(cleanupBoxes);

// The frozen clock (T0) is 09:00 UTC: inside these quiet hours, which end at 10:00.
const QUIET = { QBRIDGE_QUIET_HOURS: "08:00-10:00", QBRIDGE_TIMEZONE: "UTC" };

describe("heldUntil", () => {
  it("is in the ask response and the outcome while quiet hours hold the question, never for a high one", async () => {
    const tb = await makeBox();
    const env = cliEnv(tb.dir, QUIET);
    const asked = await runCli(["ask", "--json"], { env, input: JSON.stringify(confirmCard()) });
    expect(asked.stderr).toBe("");
    const printed = JSON.parse(asked.stdout);
    expect(printed.heldUntil).toBe("2026-07-10T10:00:00Z");

    const high = await runCli(["ask", "--json"], {
      env,
      input: JSON.stringify(confirmCard({ prompt: "Urgent?", priority: "high" })),
    });
    expect(JSON.parse(high.stdout).heldUntil).toBeUndefined();

    // Put off to tomorrow 11:00, outside the quiet hours: that time is what the agent reads.
    new LaterStore(tb.ledger.db).put(printed.id, new Date("2026-07-11T11:00:00Z"), "now");
    const shown = await runCli(["show", printed.id, "--json"], { env });
    expect(JSON.parse(shown.stdout)).toMatchObject({
      status: "pending",
      heldUntil: "2026-07-11T11:00:00Z",
    });
  });

  it("is in what the MCP tools answer: ask_human and list_questions", async () => {
    const box = await makeBox();
    const attention = { quietHours: parseQuietHours("08:00-10:00"), timeZone: "UTC" };
    const client = await mcpClientOn({
      core: box,
      timeZone: "UTC",
      heldUntil: heldUntilOf(box, attention),
    });
    const asked = await callTool(client, "ask_human", {
      memo: "Receipts pile up.",
      prompt: "Where do receipts go?",
      type: "text",
      directive: "File them.",
    }).result;
    expect(asked.structuredContent).toMatchObject({
      status: "pending",
      heldUntil: "2026-07-10T10:00:00Z",
    });
    await callTool(client, "ask_human", {
      memo: "The server is down.",
      prompt: "Restart it?",
      type: "confirm",
      directive: "Restart it.",
      priority: "high",
    }).result;
    const listed = await callTool(client, "list_questions", {}).result;
    const questions = listed.structuredContent?.questions as QuestionOutcome[];
    expect(questions.map((q) => q.heldUntil)).toEqual([undefined, "2026-07-10T10:00:00Z"]);
    await client.close();
  });
});
