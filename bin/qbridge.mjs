#!/usr/bin/env node
// Launcher for the qbridge command. Runs the bundle in dist/ when it is newer than every
// source file (made by `npm run build`, which `npm ci` runs); otherwise the TypeScript
// sources through tsx, so a stale bundle can never run edited code.
import { readdirSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const bundle = join(root, "dist", "qbridge.mjs");

function newestSource(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(path));
    else if (entry.name.endsWith(".ts")) newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

function bundleIsFresh() {
  try {
    const built = statSync(bundle).mtimeMs;
    return ["src", "bridges"].every((dir) => {
      try {
        return newestSource(join(root, dir)) <= built;
      } catch {
        return true;
      }
    });
  } catch {
    return false;
  }
}

if (bundleIsFresh()) {
  await import(bundle);
} else {
  const { register } = await import("tsx/esm/api");
  register();
  await import("../src/cli/main.ts");
}
