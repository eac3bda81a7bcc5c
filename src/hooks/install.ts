// The hook entries `qbridge hook install` merges into an agent's settings, in the shape both
// agents document: {"hooks": {"<Event>": [{"matcher"?, "hooks": [{"type": "command",
// "command", "timeout"}]}]}} (Claude Code: ~/.claude/settings.json or .claude/settings.json;
// Codex: ~/.codex/hooks.json or .codex/hooks.json). Codex has no Elicitation hook. Pure.
// Merging never drops another hook: only qbridge's own handlers are replaced, and settings
// that already hold exactly these entries are left as they are.

import type { Agent } from "./agent-input.ts";

export interface HookEntry {
  event: "PermissionRequest" | "Elicitation";
  command: string;
}

type Handler = Record<string, unknown>;
type Group = { hooks?: Handler[] } & Record<string, unknown>;

/** A handler qbridge installed: its command runs `qbridge hook <kind>`. */
export function isQbridgeHandler(handler: Handler, event: string): boolean {
  const command = handler.command;
  if (typeof command !== "string") return false;
  const kind = event === "Elicitation" ? "elicitation" : "permission";
  return new RegExp(`qbridge(\\.cjs)?'?\\s+hook\\s+${kind}\\b`).test(command);
}

function quoted(text: string): string {
  return /^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}

/** The entries for one agent: the hook command line with its box and timeout written in. */
export function hookEntries(
  agent: Agent,
  launcher: string,
  box: string,
  timeoutSeconds: number,
): HookEntry[] {
  const base = `${quoted(launcher)} hook`;
  const tail = `--box ${quoted(box)} --timeout ${timeoutSeconds}`;
  const entries: HookEntry[] = [
    { event: "PermissionRequest", command: `${base} permission --agent ${agent} ${tail}` },
  ];
  if (agent === "claude") {
    entries.push({ event: "Elicitation", command: `${base} elicitation ${tail}` });
  }
  return entries;
}

function groupsOf(hooks: Record<string, unknown>, event: string): Group[] {
  const groups = hooks[event];
  return Array.isArray(groups) ? (groups as Group[]) : [];
}

/** The qbridge commands the settings run per event (the doctor reads these). */
export function installedCommands(settings: Record<string, unknown>): Map<string, string[]> {
  const found = new Map<string, string[]>();
  const hooks = (settings.hooks ?? {}) as Record<string, unknown>;
  for (const event of ["PermissionRequest", "Elicitation"]) {
    const commands = groupsOf(hooks, event)
      .flatMap((group) => group.hooks ?? [])
      .filter((handler) => isQbridgeHandler(handler, event))
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
      .filter((h) => isQbridgeHandler(h, entry.event));
    const same =
      ours.length === 1 &&
      ours[0]?.command === entry.command &&
      ours[0]?.timeout === timeoutSeconds;
    if (same) continue;
    changed = true;
    const kept = groups
      .map((group) => ({
        ...group,
        hooks: (group.hooks ?? []).filter((h) => !isQbridgeHandler(h, entry.event)),
      }))
      .filter((group) => group.hooks.length > 0);
    const handler = { type: "command", command: entry.command, timeout: timeoutSeconds };
    hooks[entry.event] = [...kept, { hooks: [handler] }];
  }
  return { settings: changed ? { ...settings, hooks } : settings, changed };
}
