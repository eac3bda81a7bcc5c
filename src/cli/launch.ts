// The first file a qbridge process runs (built to dist/qbridge.cjs; bin/qbridge.cjs calls it).
// It runs one of two bundles with V8's code cache: most of a short command's start-up is
// compiling JavaScript, and node 20 has no compile cache of its own (module.enableCompileCache
// arrived in node 22). The short command lines agents run most (`show`, `wait`, `list`:
// short-args.ts) run from a lean bundle (dist/short.cjs) without the command-line parser and
// the other commands' code; every other one from the full CLI (dist/cli.cjs). `--version` is
// answered here.
//
// Each bundle has two caches, tried in order:
// - the one the build wrote beside the bundle, after running the commands agents run most;
//   it serves the node it was built with;
// - otherwise (another node, or other V8 flags: V8 rejects a cache made under either) one of
//   the user's own under $XDG_CACHE_HOME/question-bridge, written once when no cache served.
//   The folder is the user's only (0700): compiled code read from a folder others can write
//   would be theirs to choose. Its name carries the bundle's build id, so a new bundle never
//   meets an old cache (V8 itself compares only the source's length).
// Process settings are read here, before the CLI's own settings exist: only where to cache.

import {
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import Module from "node:module";
import { dirname, join } from "node:path";
import { Script } from "node:vm";
import { writeOut } from "./output.ts";
import { shortCommand } from "./short-args.ts";

/** The package version, set by the build (scripts/build.mjs), which alone runs this file. */
declare const QBRIDGE_BUILT_VERSION: string;

/** The build writes this line first in the bundle, with a hash of the rest. */
export const BUILD_ID_PREFIX = "// qbridge build ";

export interface LaunchOptions {
  /** The command line after `qbridge` (default: this process's). */
  args?: readonly string[];
  /** The build only: (re)write the shipped code cache once the command has run, with every
   * function this and the earlier recorded runs compiled. */
  record?: boolean;
  /** Run the command line through the full CLI even when the lean bundle serves it (the test
   * that holds both to the same output). */
  full?: boolean;
}

/**
 * Runs the command line: the lean bundle (dist/short.cjs) when it is one of the short command
 * lines agents run most (short-args.ts), else the full CLI (dist/cli.cjs).
 */
export function launch(options: LaunchOptions = {}): void {
  const args = options.args ?? process.argv.slice(2);
  const short = options.full ? undefined : shortCommand(args);
  // The version is the build's, written into this file: no bundle to load for it.
  if (short?.name === "version") writeOut(`${QBRIDGE_BUILT_VERSION}\n`);
  // The lean bundle's cache is one per command: each deserializes only what it runs.
  else if (short?.name === "ask") runBundle("ask", "ask", args, options.record ?? false);
  else if (short) runBundle(`short-${short.name}`, "short", args, options.record ?? false);
  else runBundle("cli", "cli", args, options.record ?? false);
}

function runBundle(
  cacheName: string,
  name: "cli" | "short" | "ask",
  args: readonly string[],
  record: boolean,
): void {
  const bundle = join(__dirname, `${name}.cjs`);
  // ASCII (the build checks it): latin1 is a copy where UTF-8 would be decoded.
  const source = readFileSync(bundle, "latin1");
  const buildId = source.startsWith(BUILD_ID_PREFIX)
    ? source.slice(BUILD_ID_PREFIX.length, source.indexOf("\n"))
    : "unbuilt";
  // One compile only: V8 keeps the first compile of a source in the process and would take a
  // second one from there, without looking at its cache. So the cache is chosen by name.
  const runtime = `${process.versions.v8}-${process.arch}-${shortHash(v8Flags())}`;
  const shipped = join(__dirname, `${cacheName}-${runtime}.cache`);
  let cachedData = readOrNothing(shipped);
  // The user's own cache is looked for only when the build's is missing or V8 refuses it: a
  // served command pays no stat of the home folder.
  let own: ReturnType<typeof ownCacheFile>;
  if (cachedData === undefined) {
    own = ownCacheFile(buildId, runtime, args);
    if (own?.folder === "ours") cachedData = readOrNothing(own.file);
  }
  // The build wrote the CommonJS wrapper into the file (scripts/build.mjs): compiled as read.
  const script = new Script(source, { filename: bundle, cachedData });
  const served = cachedData !== undefined && !script.cachedDataRejected;
  if (record) {
    process.once("exit", () => writeCache(shipped, false, () => script.createCachedData()));
  } else if (!served) {
    own ??= ownCacheFile(buildId, runtime, args);
    if (own !== undefined && own.folder !== "foreign") {
      const { file } = own;
      process.once("exit", () => {
        writeCache(file, true, () => script.createCachedData());
        pruneOwnCaches(dirname(file), buildId);
      });
    }
  }
  const cli = new Module(bundle, module);
  cli.filename = bundle;
  process.argv = [process.argv[0] ?? process.execPath, bundle, ...args];
  const wrapper = script.runInThisContext() as (
    exports: unknown,
    require: NodeJS.Require,
    module: Module,
    filename: string,
    dirname: string,
  ) => void;
  wrapper.call(cli.exports, cli.exports, Module.createRequire(bundle), cli, bundle, __dirname);
}

/** The V8 flags this process runs with (V8 rejects a cache made under others). */
function v8Flags(): string {
  const given = process.execArgv.filter((arg) => arg.startsWith("--") && arg !== "--");
  return `${given.join(" ")} ${process.env.NODE_OPTIONS ?? ""}`.trim();
}

/** The user's cache of this bundle, for this node and flags and this command (each command
 * compiles its own functions); undefined without a home. */
function ownCacheFile(
  buildId: string,
  runtime: string,
  args: readonly string[],
): { file: string; folder: "ours" | "absent" | "foreign" } | undefined {
  let home: string;
  try {
    // node:os only here: a served command never looks for a home.
    const { homedir } = require("node:os") as typeof import("node:os");
    home = process.env.XDG_CACHE_HOME || join(homedir(), ".cache");
  } catch {
    return undefined;
  }
  const named = args.find((arg) => !arg.startsWith("-")) ?? "";
  const command = /^[a-z]{1,20}$/.test(named) ? named : "other";
  const folder = join(home, "question-bridge");
  return {
    file: join(folder, `${buildId}-${runtime}-${command}.cache`),
    folder: folderState(folder),
  };
}

/** "ours": the folder is this user's and nobody else may write to it; "absent": it can be
 * made so; "foreign": anything else, and then it is neither read nor written. */
function folderState(folder: string): "ours" | "absent" | "foreign" {
  if (process.getuid === undefined) return "foreign";
  try {
    const info = statSync(folder);
    return info.isDirectory() && info.uid === process.getuid() && (info.mode & 0o022) === 0
      ? "ours"
      : "foreign";
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ENOENT" ? "absent" : "foreign";
  }
}

function readOrNothing(file: string | undefined): Buffer | undefined {
  if (file === undefined) return undefined;
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
}

/** Written whole or not at all: a torn cache would be read by the next process. A cache
 * that cannot be written (a read-only home) only costs the next start-up its speed. The
 * user's own (`mine`) goes only into a folder that is theirs alone; the build's is readable
 * by every user of the installed package. */
function writeCache(file: string, mine: boolean, data: () => Buffer): void {
  try {
    mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
    // Made by someone else meanwhile: not a folder to leave compiled code in.
    if (mine && folderState(dirname(file)) !== "ours") return;
    const partial = `${file}.${process.pid}.partial`;
    writeFileSync(partial, data(), { mode: mine ? 0o600 : 0o644 });
    renameSync(partial, file);
  } catch {
    // no cache this time
  }
}

/** How long another build's cache is kept unwritten before a build that writes its own takes
 * it away. Every build (each upgrade) leaves a cache per command in the user's folder; one
 * still in use was written when it was first missed, so a month is time enough to tell. */
const OTHER_BUILDS_KEPT_MS = 30 * 24 * 60 * 60 * 1000;

/** Takes away the caches of other builds, and the partial writes of killed processes, once
 * they are a month old. Runs only when a cache of this build was written, which is rare. */
function pruneOwnCaches(folder: string, buildId: string): void {
  try {
    if (folderState(folder) !== "ours") return;
    const before = Date.now() - OTHER_BUILDS_KEPT_MS;
    for (const name of readdirSync(folder)) {
      if (name.startsWith(`${buildId}-`) && name.endsWith(".cache")) continue;
      if (!/\.cache(\.\d+\.partial)?$/.test(name)) continue;
      const path = join(folder, name);
      if (statSync(path).mtimeMs < before) unlinkSync(path);
    }
  } catch {
    // a cache left behind costs only disk space
  }
}

/** FNV-1a: a file name for a set of flags, not a security measure. */
function shortHash(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16);
}

if (require.main === module) launch();
