// Where each agent keeps the hooks a person installs, and the install itself: read the
// settings (none yet is an empty object), merge qbridge's entries, and when that changes
// anything keep a copy of the old file beside it, write the new one whole, and say what
// changed. A file that is not a JSON object is refused and left untouched. Nothing here
// follows a symbolic link: a settings file, its folder or its backup that is a link is refused
// with a sentence and left as it is (a repository could ship one pointing anywhere), and the
// backup and the new settings are each a new file renamed into place, with the old file's mode
// and owner.

import { lstatSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { refuseLink, writeAtomic } from "../box/atomic.ts";
import { InvalidInput } from "../errors.ts";
import type { Agent } from "./agent-input.ts";
import { type HookEntry, mergeHooks } from "./install.ts";
import { lineDiff } from "./line-diff.ts";

export type Scope = "user" | "project";

/** The settings file of an agent for a scope (the project is the working directory). */
export function settingsPath(agent: Agent, scope: Scope, home: string, cwd: string): string {
  const base = scope === "user" ? home : cwd;
  return agent === "claude"
    ? join(base, ".claude", "settings.json")
    : join(base, ".codex", "hooks.json");
}

/** The settings as JSON; {} when there is no file. Refuses a file that is not an object. */
export function readSettings(path: string): { settings: Record<string, unknown>; text: string } {
  refuseLink(dirname(path));
  const stats = lstatOrUndefined(path);
  if (!stats) return { settings: {}, text: "" };
  refuseLink(path, stats);
  const text = readFileSync(path, "utf8");
  let value: unknown;
  try {
    value = text.trim() === "" ? {} : JSON.parse(text);
  } catch (error) {
    throw new InvalidInput(
      `${path} is not valid JSON (${(error as Error).message}): fix it by hand, then install again; nothing was changed`,
    );
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new InvalidInput(`${path} must hold one JSON object; nothing was changed`);
  }
  return { settings: value as Record<string, unknown>, text };
}

function lstatOrUndefined(path: string) {
  try {
    return lstatSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}

export interface InstallResult {
  path: string;
  changed: boolean;
  backup: string | undefined;
  diff: string[];
}

export function installInto(
  path: string,
  entries: HookEntry[],
  timeoutSeconds: number,
): InstallResult {
  const { settings, text } = readSettings(path);
  const merged = mergeHooks(settings, entries, timeoutSeconds);
  if (!merged.changed) return { path, changed: false, backup: undefined, diff: [] };
  const next = `${JSON.stringify(merged.settings, null, 2)}\n`;
  let backup: string | undefined;
  if (text !== "") {
    backup = `${path}.qbridge-backup`;
    // Refused before anything is written: a linked backup stops the install whole.
    refuseLink(backup);
    writeAtomic(backup, text, { sameAs: path });
  }
  writeAtomic(path, next);
  return {
    path,
    changed: true,
    backup,
    diff: lineDiff(text.replace(/\n$/, ""), next.replace(/\n$/, "")),
  };
}
