#!/usr/bin/env -S node --
// Launcher for the qbridge command: runs the compiled CLI in dist/ (dist/qbridge.cjs, which
// runs the bundle through V8's code cache). Only in a clone (src/ sits next to bin/) and only
// when a TypeScript source is newer than the build does it run the sources through tsx
// instead, so a stale build never runs edited code. The published package has no src/ and
// never reaches tsx (a devDependency).
// CommonJS, not an ES module: node sets up its ES module loader only for one, which costs
// every short command a few milliseconds.
// The shebang's `node --`: Node 20 itself takes an `--env-file` anywhere on its command line,
// even after the script, and reads or rejects the file before qbridge runs (`qbridge doctor
// --env-file`); `--` ends node's own options.
"use strict";
const { existsSync, readdirSync, statSync } = require("node:fs");
const { join } = require("node:path");

const root = join(__dirname, "..");
const built = join(root, "dist", "cli.cjs");

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
  require("../dist/qbridge.cjs").launch();
} else {
  import("tsx/esm/api").then(({ register }) => {
    register();
    return import("../src/cli/main.ts");
  });
}
