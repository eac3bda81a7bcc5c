// Story: a person sets qbridge up for GitHub Copilot CLI with `qbridge hook install --copilot`,
// which writes the repository's .github/hooks/qbridge.json (a file of its own, a timeout a
// person can answer within, written without following a link and keeping its mode); `qbridge
// hook doctor` finds it. Copilot then runs `qbridge hook permission --agent copilot` with the
// input it really sends: a shell command pages the phone and the answer prints as Copilot's
// flat {behavior, message?, interrupt?}; a read-only tool falls through with empty output.

import { chmodSync, mkdirSync, readFileSync, statSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { hookPlaces } from "../../src/hooks/doctor.ts";
import { pendingQuestions } from "../../src/questions/state.ts";
import { loadQuestion } from "../../src/questions/store.ts";
import { cleanupBoxes, makeBox, runCli, scratchDir } from "../support/box.ts";
import { CopilotPermissionOutput } from "./agent-outputs.ts";
import {
  filedQuestion,
  fixture,
  permissionHookInProcess,
  pick,
  printed,
  startHook,
} from "./hook-support.ts";

afterEach(cleanupBoxes);

describe("qbridge hook install --copilot", () => {
  it("writes .github/hooks/qbridge.json with a timeout a person can answer within; another timeout rewrites it keeping its mode; the doctor finds it", async () => {
    const box = await makeBox();
    const project = scratchDir("qbridge-project-");
    const env = { HOME: scratchDir("qbridge-home-"), QBRIDGE_BOX: box.dir };
    const path = join(project, ".github", "hooks", "qbridge.json");

    const first = await runCli(["hook", "install", "--copilot", "--project"], {
      env,
      cwd: project,
    });
    expect(first.code).toBe(0);
    expect(first.stdout).toContain(`Copilot CLI: wrote ${path}`);
    const written = JSON.parse(readFileSync(path, "utf8"));
    expect(written).toMatchObject({ version: 1 });
    const [handler] = written.hooks.permissionRequest;
    expect(handler).toMatchObject({ type: "command", timeoutSec: 600 });
    expect(handler.bash).toMatch(/hook permission --agent copilot --box \S+ --timeout 600$/);

    chmodSync(path, 0o600);
    const again = await runCli(["hook", "install", "--copilot", "--project", "--timeout", "900"], {
      env,
      cwd: project,
    });
    expect(again.code).toBe(0);
    expect(JSON.parse(readFileSync(path, "utf8")).hooks.permissionRequest[0].timeoutSec).toBe(900);
    expect(statSync(path).mode & 0o777).toBe(0o600);

    const place = hookPlaces(project, env.HOME).find(
      (p) => p.agent === "copilot" && p.scope === "project",
    );
    expect(place?.path).toBe(path);
    expect(Object.keys(place?.installed ?? {})).toEqual(["permissionRequest"]);
  });

  it("refuses a hook file that is a link, leaving the link and its target as they are", async () => {
    const box = await makeBox();
    const project = scratchDir("qbridge-project-");
    const target = join(scratchDir("qbridge-elsewhere-"), "target.json");
    mkdirSync(join(project, ".github", "hooks"), { recursive: true });
    symlinkSync(target, join(project, ".github", "hooks", "qbridge.json"));
    const result = await runCli(["hook", "install", "--copilot", "--project"], {
      env: { HOME: scratchDir("qbridge-home-"), QBRIDGE_BOX: box.dir },
      cwd: project,
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("link");
    expect(() => statSync(target)).toThrow();
  });
});

describe("qbridge hook permission --agent copilot", () => {
  it("a shell command as Copilot sends it pages; Allow once prints Copilot's allow", async () => {
    const box = await makeBox();
    const hook = startHook("permission", box.dir, fixture("copilot-permission-bash-seen"), [
      "--agent",
      "copilot",
    ]);
    const { id } = await filedQuestion(box);
    const card = loadQuestion(box, id).card;
    expect(card.prompt).toBe("Allow bash: echo BASH-RAN?");
    expect(card.input.options?.map((o) => o.id)).toEqual([
      "allow-once",
      "allow-session",
      "deny",
      "stop",
    ]);
    await pick(box, "allow-once");
    expect(await hook.exited).toBe(0);
    expect(CopilotPermissionOutput.parse(printed(hook))).toEqual({ behavior: "allow" });
  });

  it("Stop prints a deny with interrupt, Deny a deny with its message, and a read-only tool prints nothing and files nothing", async () => {
    const box = await makeBox();
    const stop = permissionHookInProcess(box, fixture("copilot-permission-bash-seen"));
    await pick(box, "stop");
    expect(CopilotPermissionOutput.parse(await stop.done)).toEqual({
      behavior: "deny",
      message: expect.stringContaining("stopped this turn"),
      interrupt: true,
    });

    const deny = permissionHookInProcess(box, fixture("copilot-permission-edit-seen"));
    await pick(box, "deny");
    expect(CopilotPermissionOutput.parse(await deny.done)).toEqual({
      behavior: "deny",
      message: expect.stringContaining("denied"),
    });

    const view = permissionHookInProcess(box, fixture("copilot-permission-view"));
    expect(await view.done).toBeUndefined();
    expect(pendingQuestions(box).pending).toEqual([]);
  });
});
