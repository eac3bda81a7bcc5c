// Adding an agent is its room and one line. A copy of the source tree gets a throw-away agent
// ("pager": its own input, its own output, its own settings file, once/deny/stop only) in a
// room of its own and one export line in the agents' list, and no other edit; through the
// copy's own code the hook then recognizes its input without --agent, files a card offering
// exactly what it takes, prints its own output for Stop, installs its hook where its room
// says, is seen by the doctor, and gets its --pager install flag.

import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT } from "../../support/box.ts";

/** The throw-away agent: its whole room. */
const PAGER = `// Pager: a made-up agent that asks {"pager": 1, "session", "dir", "tool", "args"} and
// reads {"verdict": "yes" | "no", "why"?, "halt"?}.
import { InvalidInput } from "../../errors.ts";
import { type AgentDecision, stops } from "../agent-decision.ts";
import type { AgentRoom } from "./room.ts";

export const pager: AgentRoom = {
  name: "pager",
  label: "Pager",
  recognizes: (raw) => "pager" in raw,
  readPermission(text) {
    const raw = JSON.parse(text);
    if (typeof raw.tool !== "string") throw new InvalidInput("a pager request names its tool");
    const ask = {
      agent: "pager", sessionId: raw.session, cwd: raw.dir, tool: raw.tool, input: raw.args,
      description: undefined, always: [], callId: undefined,
    };
    return { kind: "permission", ask };
  },
  takes: { session: false, always: false, edit: false, stop: true, questions: false, plans: false },
  writePermission(decision: AgentDecision) {
    if (decision.behavior === "allow") return { verdict: "yes" };
    return stops(decision)
      ? { verdict: "no", why: decision.message, halt: true }
      : { verdict: "no", why: decision.message };
  },
  install: {
    folder: ".pager",
    file: "hooks.json",
    hooks: [{ event: "Ask", run: "permission --agent pager" }],
  },
};
`;

/** The one line the agent adds to the list. */
const LINE = 'export { pager } from "./pager.ts";\n';

/** What the copy runs with its own code. */
const SCENARIO = `
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Command } from "commander";
import { registerHookCommand } from "../../src/cli/hook-command.ts";
import { AGENT_ROOMS } from "../../src/hooks/agents/list.ts";
import { hookPlaces } from "../../src/hooks/doctor.ts";
import { hookEntries } from "../../src/hooks/install.ts";
import { hookLifetime } from "../../src/hooks/lifetime.ts";
import { runPermissionHook } from "../../src/hooks/permission-hook.ts";
import { installInto, settingsPath } from "../../src/hooks/settings-file.ts";
import { answerQuestion } from "../../src/questions/answer.ts";
import { pendingQuestions } from "../../src/questions/state.ts";
import { loadQuestion } from "../../src/questions/store.ts";
import { holdPresence } from "../../src/slot/presence.ts";
import { cleanupBoxes, makeBox, removeBoxLayout } from "./box.ts";

const INPUT = { pager: 1, session: "p-1", dir: "/work/site", tool: "deploy", args: { target: "staging" } };

async function asked() {
  const box = await makeBox();
  const presence = holdPresence(box.box.paths.locksDir, () => undefined);
  await presence.update(["test stand-in"]);
  let printed;
  const lifetime = hookLifetime(600);
  const run = runPermissionHook(box, JSON.stringify(INPUT), {
    timeoutSeconds: 600, lifetime, home: "/home/ada", print: (v) => { printed = v; }, tell: () => undefined,
  });
  let pending = [];
  for (let i = 0; i < 200 && pending.length === 0; i++) {
    pending = pendingQuestions(box).pending;
    if (pending.length === 0) await new Promise((r) => setTimeout(r, 25));
  }
  const id = pending[0].id;
  const card = loadQuestion(box, id).card;
  await answerQuestion(box, id, { text: "stop", option: "stop" }, { via: "telegram", by: "1001" });
  await run;
  lifetime.dispose();
  await presence.release();
  return { card, printed };
}

function installed() {
  const home = mkdtempSync(join(tmpdir(), "pager-home-"));
  const entries = hookEntries("pager", "qbridge", "/srv/box", 600);
  const path = settingsPath("pager", "user", home, "/nowhere");
  installInto(path, entries, 600);
  const place = hookPlaces("/nowhere", home).find((p) => p.agent === "pager" && p.scope === "user");
  rmSync(home, { recursive: true, force: true });
  return { entries, path: path.slice(home.length), place: place && place.installed };
}

function flags() {
  const program = new Command();
  registerHookCommand(program);
  const hook = program.commands.find((c) => c.name() === "hook");
  const install = hook.commands.find((c) => c.name() === "install");
  const permission = hook.commands.find((c) => c.name() === "permission");
  return {
    install: install.options.map((o) => o.long),
    agent: permission.options.find((o) => o.long === "--agent").description,
  };
}

export async function run() {
  try {
    return { names: AGENT_ROOMS.map((r) => r.name), ...(await asked()), installed: installed(), flags: flags() };
  } finally {
    // The copy's own box helpers: the setup file removes only the tree's layout.
    cleanupBoxes();
    await removeBoxLayout();
  }
}
`;

type Outcome = {
  names: string[];
  card: { prompt: string; memo: string; input: { type: string; options: { id: string }[] } };
  printed: Record<string, unknown>;
  installed: { entries: unknown[]; path: string; place: Record<string, string[]> | undefined };
  flags: { install: string[]; agent: string };
};

let copy: string;
let outcome: Outcome;
let roomsBefore: string;

beforeAll(async () => {
  mkdirSync(join(ROOT, "test-output"), { recursive: true });
  // Inside the project, so the copy finds the project's node_modules as the tree does.
  copy = mkdtempSync(join(ROOT, "test-output", "agent-room-"));
  for (const part of ["src", "bridges", "test/support"]) {
    cpSync(join(ROOT, part), join(copy, part), { recursive: true });
  }
  const rooms = join(copy, "src/hooks/agents/rooms.ts");
  roomsBefore = readFileSync(rooms, "utf8");
  writeFileSync(join(copy, "src/hooks/agents/pager.ts"), PAGER);
  writeFileSync(rooms, roomsBefore + LINE);
  writeFileSync(join(copy, "test/support/pager-scenario.ts"), SCENARIO);
  const scenario = await import(join(copy, "test/support/pager-scenario.ts"));
  outcome = (await scenario.run()) as Outcome;
}, 120_000);

afterAll(() => {
  if (copy) rmSync(copy, { recursive: true, force: true });
});

describe("an agent added as its room and one line", () => {
  it("takes one line in the agents' list and no other edit", () => {
    expect(readFileSync(join(copy, "src/hooks/agents/rooms.ts"), "utf8")).toBe(roomsBefore + LINE);
    expect(readFileSync(join(ROOT, "src/hooks/agents/rooms.ts"), "utf8")).toBe(roomsBefore);
    expect(outcome.names).toContain("pager");
  });

  it("is recognized without --agent and asked with exactly the answers it takes", () => {
    expect(outcome.card.prompt).toContain("deploy");
    expect(outcome.card.input.type).toBe("select");
    expect(outcome.card.input.options.map((o) => o.id)).toEqual(["allow-once", "deny", "stop"]);
    expect(outcome.card.memo).toContain("Pager gave no words of its own.");
    expect(outcome.card.memo).not.toContain("Allow for this session");
  });

  it("prints Stop in its own output shape", () => {
    expect(outcome.printed).toEqual({
      verdict: "no",
      why: expect.stringContaining("stopped this turn"),
      halt: true,
    });
  });

  it("installs its hook where its room says, and the doctor sees it there", () => {
    expect(outcome.installed.entries).toEqual([
      {
        event: "Ask",
        command: "qbridge hook permission --agent pager --box /srv/box --timeout 600",
        kind: "permission",
      },
    ]);
    expect(outcome.installed.path).toBe("/.pager/hooks.json");
    expect(outcome.installed.place).toEqual({
      Ask: ["qbridge hook permission --agent pager --box /srv/box --timeout 600"],
    });
  });

  it("gets its own install flag and is named in --agent's help", () => {
    expect(outcome.flags.install).toContain("--pager");
    expect(outcome.flags.agent).toContain("pager");
  });
});
