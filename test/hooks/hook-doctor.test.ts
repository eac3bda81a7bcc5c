// Story: `qbridge hook doctor` runs each installed hook command with a probe (nothing is filed)
// and is green only when each one runs and asks in the box the running service serves, where
// somebody can be reached. A hook whose command no longer exists (a moved install: exit 127)
// and a hook that asks in another box than the service's are named, each with the fix.

import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config.ts";
import { hookEntries } from "../../src/hooks/install.ts";
import { pendingQuestions } from "../../src/questions/state.ts";
import { type RunningWeb, startWeb } from "../../src/web/server.ts";
import { CLI, cleanupBoxes, makeBox, runCli, scratchDir } from "../support/box.ts";
import { standIn } from "./hook-support.ts";

const running: RunningWeb[] = [];
afterEach(async () => {
  for (const web of running.splice(0)) await web.close();
  cleanupBoxes();
});

/** A home whose Claude Code settings run these PermissionRequest commands. */
function homeWith(user: string[], project: string[] = []): { home: string; cwd: string } {
  const home = scratchDir("qbridge-home-");
  const cwd = join(home, "project");
  const write = (dir: string, commands: string[]) => {
    if (commands.length === 0) return;
    mkdirSync(join(dir, ".claude"), { recursive: true });
    const hooks = commands.map((command) => ({ type: "command", command, timeout: 600 }));
    const settings = { hooks: { PermissionRequest: [{ hooks }] } };
    writeFileSync(join(dir, ".claude", "settings.json"), JSON.stringify(settings));
  };
  mkdirSync(cwd, { recursive: true });
  write(home, user);
  write(cwd, project);
  return { home, cwd };
}

function permissionCommand(launcher: string, box: string): string {
  const [entry] = hookEntries("claude", launcher, box, 600);
  return entry?.command as string;
}

async function serviceFor(dir: string, box: Parameters<typeof startWeb>[0]["core"]) {
  const config = loadConfig({ QBRIDGE_WEB_PORT: "0" }, { box: dir });
  const web = await startWeb({ core: box, config, onTransition: () => undefined });
  running.push(web);
  return new URL(web.url).port;
}

describe("qbridge hook doctor runs each installed command", () => {
  it("fails a hook whose command no longer exists (exit 127), saying to install again", async () => {
    const box = await makeBox();
    const port = await serviceFor(box.dir, box);
    await standIn(box.dir);
    const moved = permissionCommand("/opt/gone/bin/qbridge.cjs", box.dir);
    const { home, cwd } = homeWith([moved]);
    const result = await runCli(["hook", "doctor"], {
      env: { HOME: home, QBRIDGE_BOX: box.dir, QBRIDGE_WEB_PORT: port },
      cwd,
    });
    expect(result.stdout).toContain(
      '  ✗ PermissionRequest: its command is not found (exit 127): run "qbridge hook install" again',
    );
    expect(result.code).toBe(1);
  });

  it("fails a hook that asks in another box than the service's; passes the one that asks in its box", async () => {
    const served = await makeBox();
    const other = await makeBox();
    const port = await serviceFor(served.dir, served);
    await standIn(served.dir);
    const { home, cwd } = homeWith(
      [permissionCommand(CLI, other.dir)],
      [permissionCommand(CLI, served.dir)],
    );
    const result = await runCli(["hook", "doctor"], {
      env: { HOME: home, QBRIDGE_BOX: served.dir, QBRIDGE_WEB_PORT: port },
      cwd,
    });
    expect(result.stdout).toContain(
      `  ✗ PermissionRequest: it asks in the box ${other.dir}, not in the box the service at http://127.0.0.1:${port} serves`,
    );
    expect(result.stdout).toContain(
      `  ✓ PermissionRequest: runs and asks in ${served.dir}; reaches the boxholder on test stand-in`,
    );
    expect(result.code).toBe(1);
    // The probe filed nothing in either box.
    expect(pendingQuestions(served).pending).toEqual([]);
    expect(pendingQuestions(other).pending).toEqual([]);
  });
});
