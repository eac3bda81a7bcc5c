// Story: an agent that holds a shell pipes keys into `qbridge chat` to approve its own permission
// request. Piped input proves no person: the chat answers ordinary questions for it (as it does
// for any asker) and approves nothing an agent's hook asked. The same keys typed at a terminal
// (here a pseudo-terminal from util-linux's `script`) come from a person, and approve.

import { spawn } from "node:child_process";
import { afterEach, describe, expect, it } from "vitest";
import { askQuestion } from "../../src/questions/ask.ts";
import { askPermission } from "../../src/questions/ask-permission.ts";
import { loadQuestion } from "../../src/questions/store.ts";
import { CLI, cleanupBoxes, makeBox, T0, type TestBox } from "../support/box.ts";
import { qbridge } from "../support/child.ts";

afterEach(cleanupBoxes);

const REQUEST = {
  agent: "claude",
  sessionId: "s-1",
  tool: "Bash",
  input: { command: "git push --force" },
};

/** A permission request as the hook files it: Allow once is option a. */
async function permissionIn(box: TestBox): Promise<string> {
  const card = {
    prompt: "Allow Bash: git push --force?",
    memo: "Claude Code asks to run a command in ~/work.",
    input: {
      type: "select",
      options: [
        { id: "allow-once", label: "Allow once" },
        { id: "deny", label: "Deny" },
      ],
    },
    directive: "Tell the agent.",
  };
  return (await askPermission(box, card, REQUEST, "hook")).id;
}

const ENV = { QBRIDGE_TIME: T0, QBRIDGE_LOG_LEVEL: "silent" };

describe("what qbridge chat proves", () => {
  it("piped keys approve no permission request, and say where it is answered", async () => {
    const box = await makeBox();
    const id = await permissionIn(box);
    const chat = qbridge(["chat", "--box", box.dir], { cwd: box.dir, env: ENV });
    await chat.waitFor("Allow Bash: git push --force?");
    chat.type("a");
    chat.type("yes");
    chat.endInput();
    expect(await chat.exited).toBe(0);
    expect(chat.stdout()).toContain("answered only by the boxholder");
    expect(loadQuestion(box, id).card.status).toBe("pending");
    const refused = box.ledger.auditFor(id).filter((row) => row.surface === "terminal");
    expect(refused.map((row) => row.outcome)).toContain("refused:not-own-surface");
  });

  it("piped keys still answer an ordinary question, as an asker's", async () => {
    const box = await makeBox();
    const { id } = await askQuestion(box, {
      prompt: "Keep the old backups?",
      memo: "The disk is half full.",
      input: { type: "confirm" },
      directive: "Keep or delete them.",
    });
    const chat = qbridge(["chat", "--box", box.dir], { cwd: box.dir, env: ENV });
    await chat.waitFor("Keep the old backups?");
    chat.type("yes");
    chat.endInput();
    expect(await chat.exited).toBe(0);
    expect(loadQuestion(box, id).card).toMatchObject({
      status: "answered",
      "answered-via": "terminal",
    });
  });

  it("the same keys typed at a terminal approve it", async () => {
    const box = await makeBox();
    const id = await permissionIn(box);
    const command = `${process.execPath} ${CLI} chat --box ${box.dir}`;
    // `script` gives chat a pseudo-terminal for its input and output; its own input is ours.
    const child = spawn("script", ["-qfec", command, "/dev/null"], {
      cwd: box.dir,
      env: { PATH: process.env.PATH ?? "", HOME: box.dir, TERM: "dumb", ...ENV },
    });
    let screen = "";
    child.stdout.on("data", (d) => {
      screen += d;
    });
    const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
    const until = Date.now() + 20_000;
    while (!screen.includes("Allow Bash: git push --force?") && Date.now() < until) {
      await new Promise((r) => setTimeout(r, 50));
    }
    child.stdin.write("a\n");
    while (!screen.includes("Recorded") && Date.now() < until) {
      await new Promise((r) => setTimeout(r, 50));
    }
    child.stdin.end("quit\n");
    expect(await exited).toBe(0);
    expect(screen).toContain("Recorded: Allow once");
    expect(loadQuestion(box, id).card).toMatchObject({
      status: "answered",
      "answered-via": "terminal",
      answer: { selected: "allow-once" },
    });
  });
});
