// The git a box runs: simple-git, made with the first command, with the box's own settings
// (its hooks only, no signing) and a time limit on every command. Never runs the boxholder's
// hooks or signs with their key: those are for their own commits.

import { join } from "node:path";
import { type SimpleGit, simpleGit } from "simple-git";
import { GIT_HOOKS_DIR } from "./paths.ts";

/** The git a box runs: one command line at a time, its output as text. */
export interface BoxGit {
  raw(args: string[]): Promise<string>;
}

/** Failures that came from git itself (it ran and refused), as opposed to our own writes. */
const gitRefusals = new WeakSet<object>();

/** Whether `error` is git's own refusal of a command (its words are worth showing). */
export function gitRefused(error: unknown): boolean {
  return typeof error === "object" && error !== null && gitRefusals.has(error);
}

/**
 * A git command of the box that prints nothing for this long is stopped (and fails): nothing
 * the box runs waits on a person, so a git this quiet hangs, and every answer would hang on it.
 */
export const GIT_TIME_LIMIT_MS = 60_000;

/**
 * What every git command of the box runs with, whatever the boxholder's git config says: only
 * the box's own hooks (GIT_HOOKS_DIR), no signing (a gpg with no key refuses every commit).
 */
export function ownGitSettings(root: string): string[] {
  return [
    `core.hooksPath=${join(root, GIT_HOOKS_DIR)}`,
    "commit.gpgsign=false",
    "tag.gpgsign=false",
  ];
}

/** The box's git, made with its first command: the commands that only read cards run none. */
export function gitFor(root: string, lasting = false, limitMs = GIT_TIME_LIMIT_MS): BoxGit {
  let git: SimpleGit | undefined;
  return {
    async raw(args) {
      git ??= simpleGit({
        baseDir: root,
        maxConcurrentProcesses: 4,
        trimmed: false,
        config: ownGitSettings(root),
        // The hooks path is the box's own folder, never one taken from a card or a request.
        unsafe: { allowUnsafeHooksPath: true },
        timeout: { block: limitMs },
        // Done when git exits and its output is closed: a short command must not wait on
        // simple-git's exit timer after its last git command; no git run here leaves a
        // process holding its output (a detached gc reopens its output on /dev/null).
        ...(lasting ? {} : { completion: { onClose: true, onExit: false } }),
      });
      try {
        return await git.raw(args);
      } catch (error) {
        if (/block timeout reached/.test(String(error))) {
          throw new Error(
            `git printed nothing for ${limitMs / 1000} s and was stopped (${subcommandOf(args)}: a hook in ${GIT_HOOKS_DIR}/ that waits, or a git that hangs; "qbridge doctor" tries a commit)`,
          );
        }
        if (typeof error === "object" && error !== null) gitRefusals.add(error);
        throw error;
      }
    },
  };
}

/** The git command a command line runs ("commit"), past its `-c` settings. */
function subcommandOf(args: string[]): string {
  for (let i = 0; i < args.length; i++) {
    if (args[i] === "-c") i++;
    else return args[i] as string;
  }
  return "git";
}
