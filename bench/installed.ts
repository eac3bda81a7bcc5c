// The qbridge command as an installed package lays it out (package.json, bin/, dist/ and the
// dependencies, no src/), so the bench runs what a user runs: bin/qbridge.cjs as a program,
// through its shebang and node's flags there. A clone's bin/ first checks that the build is
// newer than every source, which no user pays. Never a copy of node_modules: a link to this
// clone's.

import { cpSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

const ROOT = join(import.meta.dirname, "..");

export interface Installed {
  /** The command, run as a program (its shebang chooses node and node's flags). */
  command: string;
  /** The environment to run it in: `base` with this node first on PATH, so that the
   * shebang's `env node` is the node the floors run. */
  env(base: NodeJS.ProcessEnv): NodeJS.ProcessEnv;
  remove(): void;
}

export function installQbridge(): Installed {
  const dir = mkdtempSync(join(tmpdir(), "qbridge-bench-installed-"));
  for (const part of ["package.json", "bin", "dist"]) {
    cpSync(join(ROOT, part), join(dir, part), { recursive: true });
  }
  symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"));
  return {
    command: join(dir, "bin", "qbridge.cjs"),
    env: (base) => ({ ...base, PATH: `${dirname(process.execPath)}:${base.PATH ?? ""}` }),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
