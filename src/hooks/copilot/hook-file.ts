// The hook file `qbridge hook install --copilot` writes for GitHub Copilot CLI, in the format
// its hooks reference documents: {"version": 1, "hooks": {"permissionRequest": [{"type":
// "command", "bash": <command>, "timeoutSec": <seconds>}]}}. Copilot reads every `*.json` in
// the repository's `.github/hooks/` and in the user's hooks folder (`~/.copilot/hooks/`, or
// `$COPILOT_HOME/hooks/`), so qbridge owns one file of its own there and never edits another's.
// A command hook's timeout defaults to 30 s, too short for a person to answer on a phone: the
// file always names one. Pure.

import { join } from "node:path";
import { InvalidInput } from "../../errors.ts";
import type { Scope } from "../settings-file.ts";

/** The file qbridge's hook lives in, in each place Copilot reads hooks from. */
export const HOOK_FILE_NAME = "qbridge.json";

/** Copilot's documented default, which qbridge never relies on. */
export const COPILOT_DEFAULT_TIMEOUT_SECONDS = 30;

/**
 * Where the file goes: the repository's `.github/hooks/` (the working directory is the
 * repository's root) or the user's hooks folder.
 */
export function copilotHookPath(
  scope: Scope,
  home: string,
  cwd: string,
  copilotHome?: string | undefined,
): string {
  if (scope === "project") return join(cwd, ".github", "hooks", HOOK_FILE_NAME);
  return join(copilotHome ?? join(home, ".copilot"), "hooks", HOOK_FILE_NAME);
}

/** The whole file, for a command line that runs `qbridge hook permission --agent copilot`. */
export function copilotHookFile(command: string, timeoutSeconds: number): Record<string, unknown> {
  if (!Number.isInteger(timeoutSeconds) || timeoutSeconds <= COPILOT_DEFAULT_TIMEOUT_SECONDS) {
    throw new InvalidInput(
      `a Copilot hook needs a timeout in whole seconds above Copilot's ${COPILOT_DEFAULT_TIMEOUT_SECONDS} s default so a person can answer, not ${timeoutSeconds}: give --timeout in seconds`,
    );
  }
  return {
    version: 1,
    hooks: {
      permissionRequest: [{ type: "command", bash: command, timeoutSec: timeoutSeconds }],
    },
  };
}
