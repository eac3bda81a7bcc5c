#!/usr/bin/env node
// The qbridge command: runs the compiled CLI in dist/ (dist/cli.mjs, scripts/build.mjs). Only
// in a clone (src/ sits next to bin/) and only when a TypeScript source is newer than the build
// does it run the sources through tsx instead, so a stale build never runs edited code. The
// published package has no src/ and never reaches tsx (a devDependency).
//
// The shebang is plain, so any `env` starts it (BusyBox's has no -S) and every way of running
// the command is the same program with node's defaults: `qbridge`, `node bin/qbridge.cjs`,
// `npm start`, the systemd unit, the container. Never put node flags or settings here.
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
