// Story: a person sets the hooks up with `qbridge hook install`, checks them with `qbridge hook
// doctor`, and looks after the grants from the terminal. Installing merges into the agent's
// settings without losing what was there, keeps a copy of the old file, prints what changed,
// and a second install changes nothing.

import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { GrantStore } from "../../src/ledger/grants.ts";
import { cleanupBoxes, makeBox, runCli, scratchDir, T0 } from "../support/box.ts";

afterEach(cleanupBoxes);

function home(): string {
  return scratchDir("qbridge-home-");
}

const CLAUDE_EXISTING = {
  model: "opus",
  hooks: {
    PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "./check.sh" }] }],
  },
};

describe("qbridge hook install", () => {
  it("merges Claude Code's hooks into ~/.claude/settings.json, keeps a backup, prints the diff, and is idempotent", async () => {
    const box = await makeBox();
    const dir = home();
    mkdirSync(join(dir, ".claude"));
    const settings = join(dir, ".claude", "settings.json");
    writeFileSync(settings, JSON.stringify(CLAUDE_EXISTING, null, 2));
    const env = { HOME: dir, QBRIDGE_BOX: box.dir };

    const first = await runCli(["hook", "install", "--claude"], { env, cwd: dir });
    expect(first.code).toBe(0);
    expect(first.stdout).toContain(
      `Claude Code: wrote ${settings} (the old file is kept as ${settings}.qbridge-backup)`,
    );
    expect(first.stdout).toMatch(/^\+ .*"PermissionRequest": \[/m);
    expect(readFileSync(`${settings}.qbridge-backup`, "utf8")).toBe(
      JSON.stringify(CLAUDE_EXISTING, null, 2),
    );
    const written = JSON.parse(readFileSync(settings, "utf8"));
    expect(written.model).toBe("opus");
    expect(written.hooks.PreToolUse).toEqual(CLAUDE_EXISTING.hooks.PreToolUse);
    const [permission] = written.hooks.PermissionRequest[0].hooks;
    expect(permission).toMatchObject({ type: "command", timeout: 600 });
    expect(permission.command).toMatch(
      /bin\/qbridge\.cjs hook permission --agent claude --box \S+ --timeout 600$/,
    );
    expect(written.hooks.Elicitation[0].hooks[0].command).toContain("hook elicitation");

    const again = await runCli(["hook", "install", "--claude"], { env, cwd: dir });
    expect(again.code).toBe(0);
    expect(again.stdout).toBe(
      `Claude Code: the hooks are installed already in ${settings}; nothing changed\n`,
    );
    expect(JSON.parse(readFileSync(settings, "utf8"))).toEqual(written);
  });

  it("writes Codex's PermissionRequest hook (no Elicitation: Codex has none) into the project's .codex/hooks.json", async () => {
    const box = await makeBox();
    const dir = home();
    const env = { HOME: dir, QBRIDGE_BOX: box.dir };
    const result = await runCli(["hook", "install", "--codex", "--project", "--timeout", "300"], {
      env,
      cwd: dir,
    });
    expect(result.code).toBe(0);
    const path = join(dir, ".codex", "hooks.json");
    expect(result.stdout).toContain("trust it: open /hooks in Codex");
    expect(existsSync(`${path}.qbridge-backup`)).toBe(false);
    const written = JSON.parse(readFileSync(path, "utf8"));
    expect(Object.keys(written.hooks)).toEqual(["PermissionRequest", "Interrupt"]);
    expect(written.hooks.PermissionRequest[0].hooks[0]).toMatchObject({
      type: "command",
      timeout: 300,
      command: expect.stringContaining("hook permission --agent codex"),
    });
  });

  it("refuses settings that are not JSON and changes nothing", async () => {
    const box = await makeBox();
    const dir = home();
    mkdirSync(join(dir, ".claude"));
    const settings = join(dir, ".claude", "settings.json");
    writeFileSync(settings, "{ not json");
    const result = await runCli(["hook", "install", "--claude"], {
      env: { HOME: dir, QBRIDGE_BOX: box.dir },
      cwd: dir,
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`${settings} is not valid JSON`);
    expect(result.stderr).toContain("nothing was changed");
    expect(readFileSync(settings, "utf8")).toBe("{ not json");
  });
});

describe("qbridge hook doctor", () => {
  it("says where the hooks are installed and that the service is not running", async () => {
    const box = await makeBox();
    const dir = home();
    const env = { HOME: dir, QBRIDGE_BOX: box.dir, QBRIDGE_WEB_PORT: "9" };
    await runCli(["hook", "install", "--claude"], { env, cwd: dir });
    const result = await runCli(["hook", "doctor"], { env, cwd: dir });
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(
      `✓ Claude Code (user, ${join(dir, ".claude", "settings.json")}): PermissionRequest and Elicitation hook installed`,
    );
    expect(result.stdout).toContain(
      `· Codex (user, ${join(dir, ".codex", "hooks.json")}): not installed`,
    );
    expect(result.stdout).toContain(
      '✗ the service at http://127.0.0.1:9: not running; start it with "qbridge serve"',
    );
  });
});

describe("qbridge hook doctor, with the service up", () => {
  it("says the service is healthy and ends 0 once a hook is installed", async () => {
    const box = await makeBox();
    const dir = home();
    const health = createServer((_req, res) => {
      res.writeHead(200, { "Content-Type": "application/json" });
      res.end(JSON.stringify({ ok: true }));
    });
    await new Promise<void>((resolve) => health.listen(0, "127.0.0.1", resolve));
    const { port } = health.address() as AddressInfo;
    try {
      const env = { HOME: dir, QBRIDGE_BOX: box.dir, QBRIDGE_WEB_PORT: String(port) };
      await runCli(["hook", "install", "--codex"], { env, cwd: dir });
      const result = await runCli(["hook", "doctor"], { env, cwd: dir });
      expect(result.stdout).toContain(`✓ the service at http://127.0.0.1:${port}: healthy`);
      expect(result.stdout).toContain(
        "PermissionRequest and Interrupt hook installed; Codex runs it once you trust it in /hooks",
      );
      expect(result.code).toBe(0);
    } finally {
      await new Promise((resolve) => health.close(resolve));
    }
  });
});

describe("qbridge grants", () => {
  it("lists the grants and revokes one by id; an unknown id is not found", async () => {
    const box = await makeBox();
    const store = new GrantStore(box.ledger);
    store.add({
      id: "a1b2c3",
      agent: "claude",
      sessionId: "abc123",
      tool: "Bash",
      pattern: "command:npm run",
      questionId: undefined,
      createdAt: T0,
      expiresAt: "2026-07-10T21:00:00Z",
    });
    const env = { QBRIDGE_BOX: box.dir };
    const listed = await runCli(["grants"], { env });
    expect(listed.stdout).toBe(
      "a1b2c3  claude abc123  Bash npm run  used 0×  until 2026-07-10 21:00\nrevoke one with: qbridge grants revoke ID\n",
    );
    const json = JSON.parse((await runCli(["grants", "--json"], { env })).stdout);
    expect(json).toEqual([expect.objectContaining({ id: "a1b2c3", live: true, uses: 0 })]);

    const revoked = await runCli(["grants", "revoke", "a1b2c3"], { env });
    expect(revoked).toMatchObject({ code: 0, stdout: "revoked a1b2c3: Bash npm run asks again\n" });
    expect((await runCli(["grants"], { env })).stdout).toContain("revoked 2026-07-10 09:00");
    const unknown = await runCli(["grants", "revoke", "ffffff"], { env });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toBe(
      'qbridge: no grant "ffffff" in this box: run "qbridge grants" to see the ids\n',
    );
  });
});
