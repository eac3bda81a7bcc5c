// The hook entries `qbridge hook install` merges into an agent's settings, in the shape Claude
// Code and Codex document: {"hooks": {"<Event>": [{"matcher"?, "hooks": [{"type": "command",
// "command", "timeout"}]}]}}. Which events, and where the file is, each agent's room declares
// (src/hooks/agents/, `install`). Pure.
// Merging never drops another hook: only qbridge's own handlers are replaced, and settings
// that already hold exactly these entries are left as they are.

import { roomNamed } from "./agents/list.ts";
import type { AgentInstall } from "./agents/room.ts";

export interface HookEntry {
  event: string;
  command: string;
  /** The `qbridge hook` subcommand it runs ("permission", "elicitation"). */
  kind: string;
  /** Its own timeout, where the agent caps the event's (Codex's Interrupt: 3 s). */
  timeoutSeconds?: number | undefined;
}

type Handler = Record<string, unknown>;
type Group = { hooks?: Handler[] } & Record<string, unknown>;

/** A handler qbridge installed: its command runs `qbridge hook <kind>`. */
export function isQbridgeHandler(handler: Handler, kind: string): boolean {
  const command = handler.command;
  if (typeof command !== "string") return false;
  return new RegExp(`qbridge(\\.cjs)?'?\\s+hook\\s+${kind}\\b`).test(command);
}

function quoted(text: string): string {
  return /^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}

/** The subcommand word of a hook's run ("permission --agent claude" runs "permission"). */
function kindOf(run: string): string {
  return run.split(" ")[0] ?? run;
}

/** The entries for one agent: the hook command line with its box and timeout written in. */
export function hookEntries(
  agent: string,
  launcher: string,
  box: string,
  timeoutSeconds: number,
): HookEntry[] {
  const install = roomNamed(agent).install;
  const base = `${quoted(launcher)} hook`;
  return (install?.hooks ?? []).map(({ event, run, timeoutSeconds: own }) => ({
    event,
    command: `${base} ${run} --box ${quoted(box)} --timeout ${own ?? timeoutSeconds}`,
    kind: kindOf(run),
    timeoutSeconds: own,
  }));
}

function groupsOf(hooks: Record<string, unknown>, event: string): Group[] {
  const groups = hooks[event];
  return Array.isArray(groups) ? (groups as Group[]) : [];
}

/** The qbridge commands the settings run per event of the agent's install (the doctor). */
export function installedCommands(
  settings: Record<string, unknown>,
  install: AgentInstall,
): Map<string, string[]> {
  const found = new Map<string, string[]>();
  const hooks = (settings.hooks ?? {}) as Record<string, unknown>;
  for (const { event, run } of install.hooks) {
    const commands = groupsOf(hooks, event)
      .flatMap((group) => group.hooks ?? [])
      .filter((handler) => isQbridgeHandler(handler, kindOf(run)))
      .map((handler) => String(handler.command));
    if (commands.length) found.set(event, commands);
  }
  return found;
}

/** The settings with the entries merged in, and whether anything changed. */
export function mergeHooks(
  settings: Record<string, unknown>,
  entries: HookEntry[],
  timeoutSeconds: number,
): { settings: Record<string, unknown>; changed: boolean } {
  const hooks = { ...((settings.hooks ?? {}) as Record<string, unknown>) };
  let changed = false;
  for (const entry of entries) {
    const groups = groupsOf(hooks, entry.event);
    const ours = groups
      .flatMap((g) => g.hooks ?? [])
      .filter((h) => isQbridgeHandler(h, entry.kind));
    const timeout = entry.timeoutSeconds ?? timeoutSeconds;
    const same =
      ours.length === 1 && ours[0]?.command === entry.command && ours[0]?.timeout === timeout;
    if (same) continue;
    changed = true;
    const kept = groups
      .map((group) => ({
        ...group,
        hooks: (group.hooks ?? []).filter((h) => !isQbridgeHandler(h, entry.kind)),
      }))
      .filter((group) => group.hooks.length > 0);
    const handler = { type: "command", command: entry.command, timeout };
    hooks[entry.event] = [...kept, { hooks: [handler] }];
  }
  return { settings: changed ? { ...settings, hooks } : settings, changed };
}
