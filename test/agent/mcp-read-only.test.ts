// `qbridge mcp` over a read-only box (a bind mount remounted read-only, in a user and mount
// namespace of its own, so it stops root too and needs no privilege): an agent can still read
// what it asked, and an ask is refused with the read-only sentence instead of the server dying
// at start or failing every read "inside the box".

import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { askQuestion } from "../../src/questions/ask.ts";
import { loadSecret } from "../../src/web/links.ts";
import {
  cleanupBoxes,
  confirmCard,
  makeBox,
  pendingCardText,
  T0,
  writeCardFile,
} from "../support/box.ts";
import { initializeAs, jsonLines } from "../support/mcp-raw.ts";
import { runOnReadOnlyBox } from "../support/read-only.ts";

afterEach(cleanupBoxes);

function mcpReadOnly(dir: string, messages: object[], env: Record<string, string> = {}) {
  return runOnReadOnlyBox(dir, ["mcp", "--box", dir], {
    env: { PATH: process.env.PATH ?? "", HOME: dir, QBRIDGE_TIME: T0, ...env },
    input: `${jsonLines(messages)}\n`,
  });
}

const initialize = initializeAs("raw");

const call = (id: number, name: string, args: Record<string, unknown>) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name, arguments: args },
});

describe("qbridge mcp on a read-only box", () => {
  it("lists and reads questions, and refuses an ask with the read-only sentence", async () => {
    const box = await makeBox();
    const asked = await askQuestion(box, confirmCard({ prompt: "Asked before?" }));
    // A card answered by hand: a read catches the ledger's index up with it (in memory here).
    const byHand = {
      ...confirmCard({ prompt: "Answered by hand?" }),
      status: "answered",
      answer: { text: "Yes", selected: "yes" },
      "answered-at": T0,
      "answered-via": "cli",
    };
    writeCardFile(box.dir, "by-hand", pendingCardText(byHand));
    loadSecret(box.box);
    // The ledger stays open here, its latest writes in its WAL file: as a box a service was
    // stopped in the middle of looks when it is mounted read-only.
    const run = await mcpReadOnly(
      box.dir,
      [
        initialize,
        { jsonrpc: "2.0", method: "notifications/initialized" },
        call(2, "list_questions", { status: "all" }),
        call(3, "get_answer", { id: asked.id }),
        call(4, "ask_human", {
          prompt: "May I write?",
          memo: "The box is read-only.",
          type: "confirm",
          directive: "Write.",
        }),
      ],
      { QBRIDGE_PUBLIC_URL: "https://q.example.org" },
    );
    expect(run.stderr).toBe("");
    const replies = new Map(
      run.stdout
        .split("\n")
        .filter((line) => line !== "")
        .map((line) => JSON.parse(line) as { id: number; result: Record<string, unknown> })
        .map((reply) => [reply.id, reply.result]),
    );
    const listed = replies.get(2)?.structuredContent as { questions: { id: string }[] };
    expect(listed.questions.map((q) => q.id).sort()).toEqual([asked.id, "by-hand"].sort());
    expect(replies.get(3)?.structuredContent).toMatchObject({
      id: asked.id,
      status: "pending",
      link: expect.stringContaining("https://q.example.org/q/"),
    });
    expect(replies.get(4)).toMatchObject({
      isError: true,
      content: [{ text: expect.stringContaining(`${box.dir} is read-only`) }],
    });
  });

  it("starts on a read-only box that has no link secret yet when no public URL asks for links", async () => {
    const box = await makeBox();
    const asked = await askQuestion(box, confirmCard({ prompt: "Never served?" }));
    box.ledger.close();
    expect(existsSync(join(box.dir, ".qbridge/secret"))).toBe(false);
    const run = await mcpReadOnly(box.dir, [
      initialize,
      { jsonrpc: "2.0", method: "notifications/initialized" },
      call(2, "get_answer", { id: asked.id }),
    ]);
    expect(run.stderr).toBe("");
    expect(run.stdout).toContain(`"status":"pending"`);
  });
});
