#!/usr/bin/env -S MALLOC_ARENA_MAX=1 node --max-semi-space-size=2 --
// The qbridge command: runs the compiled CLI in dist/ (dist/cli.mjs, scripts/build.mjs). Only
// in a clone (src/ sits next to bin/) and only when a TypeScript source is newer than the build
// does it run the sources through tsx instead, so a stale build never runs edited code. The
// published package has no src/ and never reaches tsx (a devDependency).
//
// The shebang's setting and node flags apply to every way the command is run as a program (a
// global install, the systemd unit, the container); `node bin/qbridge.cjs` ignores them, so
// `npm start` passes the same itself.
// - `MALLOC_ARENA_MAX=1`: one malloc arena for node and its threads, not one per thread, so
//   that what the first scan of a big box allocated natively is given back to one heap; the
//   idle-memory budget in bench/README.md holds with it. It is set for node and what it runs.
// - `--max-semi-space-size=2`: a young generation of at most 2 MB, so that `qbridge serve`
//   gives back what a burst (the first scan of a big box) grew; the idle-memory budget in
//   bench/README.md holds with it.
// - `--`: ends node's own options. Node 20 takes an `--env-file` anywhere on its command line,
//   even after the script, and would read or reject the file before qbridge runs (`qbridge
//   doctor --env-file`).
"use strict";
const { existsSync, readdirSync, statSync } = require("node:fs");
const { join } = require("node:path");

// node's own cache of compiled code, where the running node has one (22.1 and later).
require("node:module").enableCompileCache?.();

const root = join(__dirname, "..");
const built = join(root, "dist", "cli.mjs");

function newestSource(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(path));
    else if (entry.name.endsWith(".ts")) newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

function buildIsCurrent() {
  if (!existsSync(join(root, "src"))) return true;
  try {
    const builtAt = statSync(built).mtimeMs;
    return ["src", "bridges"].every(
      (dir) => !existsSync(join(root, dir)) || newestSource(join(root, dir)) <= builtAt,
    );
  } catch {
    return false;
  }
}

if (buildIsCurrent()) {
  import("../dist/cli.mjs");
} else {
  import("tsx/esm/api").then(({ register }) => {
    register();
    return import("../src/cli/main.ts");
  });
}
