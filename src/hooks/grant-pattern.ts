// What "Allow for this session" covers, and whether a later request is covered. A grant never
// widens past what the card said: it is the agent's own suggested rule where it offers one
// (Claude Code's `permission_suggestions`; an exact rule only when it is the command itself),
// else the exact command, so a grant for
// `rm -rf node_modules` never lets `rm -rf ~` through and one for `bash scripts/build.sh` never
// `bash -c '…'`. An agent's prefix rule (`npm run test:*`) is taken only for the families in
// STRETCHES (a program and the subcommand that reads, builds or tests, whose further words
// choose what to run among the project's own) and covers only simple commands: a command that
// chains, substitutes or redirects (`;`, `&&`, `|`, `<`, `>`, a backquote, `$(`), sets a
// variable first, holds what the shell expands or unescapes (`$`, `\`, braces, globs), or names
// a program or code to run, settings from elsewhere or a file to write (`--exec`, `-c`,
// `--eval`, `--script-shell`, `--output`, …, with any dashes or abbreviated) is never covered
// by a prefix, and draws its own exact pattern. Any other
// prefix (`python3:*`, `rm:*`, `find:*`) falls back to the exact command. Which tools are
// command, file or fetch tools is their agent's room's to say (`grantBy`): a file tool's grant
// is its file's folder, a fetch tool's its URL's host, any other tool's (an MCP server's among
// them) its exact input. Pure.

import { createHash } from "node:crypto";
import { basename, dirname, resolve } from "node:path";
import { visibleLine } from "../card/agent-text.ts";

const COMPOUND = /[;&|<>`\n\r]|\$\(/;
const SETS_VARIABLE = /^\s*\w+=/;
/** What the shell reads as written, but for quotes it drops: no `$`, `\`, braces or globs. */
const LITERAL = /^[\w\s\-=./:,@+%^~'"]*$/;
/**
 * Options that hand a program or code to run to the command they follow, take the settings
 * or scripts from elsewhere, or write a file. Matched by any number of dashes and, for names
 * of two letters or more, any abbreviation (npm takes `---script-shell` and `--scr`); a name
 * ends at `=` or `.` (pnpm's `--config.script-shell=…`).
 */
const RUNS_CODE = [
  ...["exec", "execdir", "ok", "delete", "toolexec", "eval", "script-shell", "node-options"],
  ...["require", "import", "config", "userconfig", "globalconfig", "prefix", "cwd", "dir"],
  ...["output", "c", "e"],
];
const FILE_KEYS = ["file_path", "notebook_path", "path"] as const;

/** The families an agent's prefix rule may stretch over: program, then subcommands. */
const STRETCHES: Record<string, readonly string[]> = {
  git: ["status", "diff", "log", "show"],
  npm: ["test", "run"],
  pnpm: ["test", "run"],
  yarn: ["test", "run"],
};

function words(command: string): string[] {
  return command.trim().split(/\s+/);
}

/** A prefix an agent's rule may stretch over: a listed program and subcommand, then words. */
function stretches(prefix: string): boolean {
  const [program, subcommand] = words(prefix);
  return program !== undefined && subcommand !== undefined
    ? (STRETCHES[program]?.includes(subcommand) ?? false)
    : false;
}

/** A command a prefix may cover at all: simple, and handing no program or code to run. */
function plain(command: string): boolean {
  return (
    !COMPOUND.test(command) &&
    !SETS_VARIABLE.test(command) &&
    LITERAL.test(command) &&
    !words(command.replace(/['"]/g, "")).some(runsCode)
  );
}

/** A word that is one of RUNS_CODE's options, however many dashes, or an abbreviation of one. */
function runsCode(word: string): boolean {
  if (!word.startsWith("-")) return false;
  const name = (word.replace(/^-+/, "").split(/[=.]/)[0] ?? "").toLowerCase();
  return RUNS_CODE.some((option) => (name.length < 2 ? name === option : option.startsWith(name)));
}

/**
 * The pattern of an agent's suggested rule for a command tool, when it may stand. An exact rule
 * stands only for the command itself: one for a part of a chained command (`rm -rf build` of
 * `cd /tmp/x && rm -rf build`) would cover that part run anywhere, not "this exact command".
 */
function fromRule(content: string, command: string): string | undefined {
  const prefix = /^(.*?)\s*:\*$/.exec(content.trim())?.[1];
  if (prefix === undefined) {
    return content.trim() === command.trim() ? `exact:${content.trim()}` : undefined;
  }
  return stretches(prefix) && plain(prefix) ? `prefix:${prefix.trim()}` : undefined;
}

function inputDigest(input: Record<string, unknown>): string {
  return createHash("sha256").update(JSON.stringify(input)).digest("hex").slice(0, 16);
}

/** What a tool's grant is drawn from (its agent's room says, by tool): its command, its
 * file's folder, its URL's host, or its exact input. */
export type GrantBy = "command" | "file" | "url" | "input";

/** The folder of the input's file, a relative path resolved from `cwd`. */
function folderOf(input: Record<string, unknown>, cwd: string): string | undefined {
  for (const key of FILE_KEYS) {
    const path = input[key];
    if (typeof path === "string" && path.trim() !== "") return dirname(resolve(cwd, path.trim()));
  }
  return undefined;
}

function hostOf(input: Record<string, unknown>): string | undefined {
  if (typeof input.url !== "string") return undefined;
  try {
    return new URL(input.url).host;
  } catch {
    return undefined;
  }
}

/**
 * The pattern a request's grant would have. `by`: what the tool's grant is drawn from; a
 * command, file or URL the input lacks falls back to its exact input. `rule`: the content of
 * the agent's own suggested rule for this tool (kept by alwaysUpdates); `cwd` resolves a
 * relative file path.
 */
export function grantPattern(
  input: Record<string, unknown>,
  cwd: string,
  by: GrantBy,
  rule?: string | undefined,
): string {
  const command = input.command;
  if (by === "command" && typeof command === "string" && command.trim() !== "") {
    return (rule !== undefined ? fromRule(rule, command) : undefined) ?? `exact:${command.trim()}`;
  }
  const folder = by === "file" ? folderOf(input, cwd) : undefined;
  if (folder !== undefined) return `folder:${folder}`;
  const host = by === "url" ? hostOf(input) : undefined;
  if (host !== undefined) return `host:${host}`;
  return `input:${inputDigest(input)}`;
}

/** True when a grant of `pattern` covers this request. */
export function covers(pattern: string, input: Record<string, unknown>, cwd: string): boolean {
  const colon = pattern.indexOf(":");
  const kind = pattern.slice(0, colon);
  const value = pattern.slice(colon + 1);
  const command = typeof input.command === "string" ? input.command.trim() : undefined;
  switch (kind) {
    case "exact":
      return command === value;
    case "prefix":
      return (
        command !== undefined &&
        (command === value || command.startsWith(`${value} `)) &&
        plain(command)
      );
    case "folder":
      return command === undefined && folderOf(input, cwd) === value;
    case "host":
      return command === undefined && hostOf(input) === value;
    case "input":
      return value === inputDigest(input);
    default:
      // A kind this version does not draw (a first-word `command:` grant of an older one)
      // covers nothing: the request is asked again.
      return false;
  }
}

/** The pattern as a person reads it: "the exact command `…`", "files in …/src/web". */
export function patternWords(pattern: string): string {
  const colon = pattern.indexOf(":");
  const kind = pattern.slice(0, colon);
  const value = pattern.slice(colon + 1);
  switch (kind) {
    case "exact":
      return "only this exact command";
    case "prefix":
      return `\`${visibleLine(value)}\` with other words after it (the agent's own rule; no chaining, redirection or code to run)`;
    case "folder":
      return `files in …/${basename(dirname(value))}/${basename(value)}`;
    case "host":
      return `requests to ${value}`;
    case "input":
      return "only this exact input";
    default:
      return `${value} as granted before`;
  }
}
