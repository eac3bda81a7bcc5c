// What "Allow for this session" covers: a pattern drawn from the request, and a later request
// covered when it draws the same one. A simple command's first word (and its subcommand, as in
// `git status` or `npm run`), a file's folder, a URL's host, or else the tool as a whole. A
// command that chains or redirects (`;`, `&&`, `|`, `>`, a backquote, `$(`) draws itself
// exactly, so a grant for `git status` never lets `git status; rm -rf ~` through. Pure.

import { basename, dirname, resolve } from "node:path";

const COMPOUND = /[;&|<>`\n]|\$\(/;
const SUBCOMMAND = /^[a-z][a-z0-9:_-]*$/i;
const FILE_KEYS = ["file_path", "notebook_path", "path"] as const;

function firstWords(command: string): string {
  const [program, second] = command.trim().split(/\s+/);
  if (!program) return "";
  return second !== undefined && SUBCOMMAND.test(second) ? `${program} ${second}` : program;
}

/** The pattern a request draws; `cwd` resolves a relative file path. */
export function grantPattern(tool: string, input: Record<string, unknown>, cwd: string): string {
  const command = input.command;
  if (typeof command === "string" && command.trim() !== "") {
    if (COMPOUND.test(command) || /^\s*\w+=/.test(command)) return `exact:${command.trim()}`;
    return `command:${firstWords(command)}`;
  }
  for (const key of FILE_KEYS) {
    const path = input[key];
    if (typeof path === "string" && path.trim() !== "") {
      return `folder:${dirname(resolve(cwd, path.trim()))}`;
    }
  }
  const url = input.url;
  if (typeof url === "string") {
    try {
      return `host:${new URL(url).host}`;
    } catch {
      // not a URL: the tool as a whole below
    }
  }
  return `tool:${tool}`;
}

/** The pattern as a person reads it: "`npm run …` commands", "files in src/web". */
export function patternWords(pattern: string): string {
  const colon = pattern.indexOf(":");
  const kind = pattern.slice(0, colon);
  const value = pattern.slice(colon + 1);
  switch (kind) {
    case "command":
      return `\`${value} …\` commands`;
    case "exact":
      return "this exact command";
    case "folder":
      return `files in …/${basename(dirname(value))}/${basename(value)}`;
    case "host":
      return `requests to ${value}`;
    default:
      return `every ${value} call`;
  }
}
