// An ask whose card file would be over a card limit is refused before anything is written, on
// every surface, naming the limit; `--unless-open` files nothing either.

import { afterEach, describe, expect, it } from "vitest";
import { CARD_LIMITS } from "../../src/card/codec.ts";
import { pendingQuestions } from "../../src/questions/state.ts";
import { callTool } from "../agent/agent-support.ts";
import { cleanupBoxes, cliEnv, gitLog, makeBox, runCli, textCard } from "../support/box.ts";
import { mcpClientOn } from "../support/mcp-client.ts";
import { webFixture } from "../web/web-support.ts";

afterEach(cleanupBoxes);

/** Context entries, each valid, that make a card file over the byte limit together. */
function bulkyContext(): { ref: string; text: string }[] {
  const entry = { ref: "notes/receipt.txt", text: "x".repeat(200) };
  const count = Math.ceil(CARD_LIMITS.bytes / 200) + 10;
  return Array.from({ length: count }, (_, i) => ({ ...entry, ref: `${entry.ref}#${i}` }));
}

const LIMIT = `over the ${CARD_LIMITS.bytes}-byte card limit`;

describe("an ask over a card limit", () => {
  it("qbridge ask exits 1 naming the limit and commits nothing, with --unless-open too", async () => {
    const tb = await makeBox();
    const before = await gitLog(tb.dir);
    const card = textCard({ prompt: "Where do the receipts go?", context: bulkyContext() });
    for (const args of [["ask"], ["ask", "--unless-open"]]) {
      const asked = await runCli(args, { env: cliEnv(tb.dir), input: JSON.stringify(card) });
      expect(asked.code).toBe(1);
      expect(asked.stderr).toContain(LIMIT);
    }
    expect(await gitLog(tb.dir)).toEqual(before);
    expect(pendingQuestions(tb).pending).toEqual([]);
  });

  // The API's body limit (64 KiB) is under what any card file over 256 KiB needs as JSON: the
  // API refuses such an ask before it reaches the card check, and files nothing either.
  it("the API refuses a body that would make a card over the limit and files nothing", async () => {
    const web = await webFixture();
    const res = await web.app.request("/api/v1/questions", {
      method: "POST",
      headers: { "content-type": "application/json", ...web.auth() },
      body: JSON.stringify(textCard({ context: bulkyContext() })),
    });
    expect(res.status).toBe(413);
    expect(pendingQuestions(web.box).pending).toEqual([]);
  });

  it("MCP ask_human returns a tool error naming the limit and files nothing", async () => {
    const box = await makeBox();
    const client = await mcpClientOn({ core: box, timeZone: "UTC" });
    const refused = await callTool(client, "ask_human", {
      prompt: "Which folder?",
      memo: "Two folders fit.",
      type: "confirm",
      directive: "File it.",
      context: bulkyContext(),
    }).result;
    expect(refused.isError).toBe(true);
    expect(refused.content[0]?.text).toContain(LIMIT);
    expect(pendingQuestions(box).pending).toEqual([]);
  });

  // /mcp takes a body of 1 MB: some 28,000 options. Checking that no option can be typed as
  // another once took time growing with the square of their number, holding the service (its
  // bridges, its pages) still for minutes before the card limit refused the ask.
  it("MCP ask_human with 12,000 options is refused at the card limit at once", async () => {
    const box = await makeBox();
    const client = await mcpClientOn({ core: box, timeZone: "UTC" });
    const options = Array.from({ length: 12_000 }, (_, i) => ({
      id: `o${i}`,
      label: `Shelf ${i}`,
    }));
    const started = Date.now();
    const refused = await callTool(client, "ask_human", {
      prompt: "Which shelf?",
      memo: "Every shelf fits.",
      type: "select",
      options,
      directive: "File it there.",
    }).result;
    expect(refused.content[0]?.text).toContain(LIMIT);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(pendingQuestions(box).pending).toEqual([]);
  });
});
