// Story: someone who never clones the repository installs question-bridge from its npm
// tarball, with nothing else installed, and uses it: `npm install -g` then `qbridge init`,
// `qbridge demo`, `qbridge list`; and `npx ./question-bridge-*.tgz --version`.
//
// The tarball is built from the current sources into its own folder (never into dist/, which
// other tests' children run). Installs use npm's cache (--prefer-offline). better-sqlite3 gets
// its compiled binary as a local prebuild made from the one in node_modules, which is what a
// user's install downloads from its releases; compiling it from source is measured by hand
// (deploy/README.md), not on every test run.

import { execFile, execFileSync } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { homedir, tmpdir } from "node:os";
import { basename, join } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { ROOT } from "../support/box.ts";

const work = mkdtempSync(join(tmpdir(), "qbridge-package-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** The environment of a machine without the clone: no NODE_PATH, none of `npm test`'s npm_*. */
function outsideEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, ...extra };
  for (const key of Object.keys(env))
    if (key.startsWith("npm_") && !(key in extra)) delete env[key];
  delete env.NODE_PATH;
  delete env.NODE_OPTIONS;
  return env;
}

const run = (command: string, args: string[], cwd: string, env: Record<string, string> = {}) =>
  execFileSync(command, args, {
    cwd,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
    env: outsideEnv(env),
    // An unreachable registry makes npm retry for minutes; fail with its output instead.
    timeout: 240_000,
  });

/** Builds and packs the package as `npm pack` in the clone would; returns the tarball path.
 * Packed once for every test here (packed()). */
function pack(): string {
  const stage = join(work, "stage");
  mkdirSync(stage);
  for (const part of ["package.json", "README.md", "bin", "docs", "deploy"])
    cpSync(join(ROOT, part), join(stage, part), { recursive: true });
  run(process.execPath, [join(ROOT, "scripts/build.mjs"), join(stage, "dist")], ROOT);
  const name = run("npm", ["pack", "--ignore-scripts", "--pack-destination", work], stage).trim();
  return join(work, name.split("\n").pop() as string);
}

let tarball: string | undefined;
const packed = () => {
  tarball ??= pack();
  return tarball;
};

/** better-sqlite3's compiled binary as the release asset its installer looks for. */
function localPrebuild(): Record<string, string> {
  const sqlite = join(ROOT, "node_modules/better-sqlite3");
  const { version } = JSON.parse(readFileSync(join(sqlite, "package.json"), "utf8")) as {
    version: string;
  };
  const dir = join(work, "prebuilds");
  mkdirSync(dir, { recursive: true });
  const asset = `better-sqlite3-v${version}-node-v${process.versions.modules}-${process.platform}-${process.arch}.tar.gz`;
  run("tar", ["-czf", join(dir, asset), "-C", sqlite, "build/Release/better_sqlite3.node"], work);
  return { npm_config_better_sqlite3_local_prebuilds: dir };
}

const INSTALL_FLAGS = ["--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error"];

let prefix: string | undefined;
/** The tarball installed with `npm install -g` into its own prefix, once for every test here. */
function installedPrefix(prebuild: Record<string, string>): string {
  if (prefix === undefined) {
    prefix = join(work, "prefix");
    run("npm", ["install", "-g", "--prefix", prefix, packed(), ...INSTALL_FLAGS], work, prebuild);
  }
  return prefix;
}

/**
 * `npx ./TARBALL --version` run in `dir`, as someone who never installed the package runs it;
 * resolves with what it printed. npx keeps what it installs in the cache's _npx folder: this
 * run's entry is removed after.
 */
async function npxVersion(tarball: string, dir: string, env: Record<string, string>) {
  const npxDir = join(process.env.HOME ?? homedir(), ".npm/_npx");
  const before = new Set(existsSync(npxDir) ? readdirSync(npxDir) : []);
  try {
    cpSync(tarball, join(dir, basename(tarball)));
    const args = ["--yes", ...INSTALL_FLAGS, `./${basename(tarball)}`, "--version"];
    const { stdout } = await promisify(execFile)("npx", args, {
      cwd: dir,
      encoding: "utf8",
      env: outsideEnv(env),
      timeout: 240_000,
    });
    return stdout;
  } finally {
    for (const entry of existsSync(npxDir) ? readdirSync(npxDir) : [])
      if (!before.has(entry)) rmSync(join(npxDir, entry), { recursive: true, force: true });
  }
}

/** The tarball installed with `npm install -g` and used from `user`: init, demo, list; and its
 * library entry imported and typechecked by a project that depends on it. */
function installedAndUsed(prebuild: Record<string, string>, user: string): void {
  const prefix = installedPrefix(prebuild);
  const installed = join(prefix, "lib/node_modules/question-bridge");
  expect(existsSync(join(installed, "node_modules/tsx"))).toBe(false);
  expect(existsSync(join(prefix, "lib/node_modules/tsx"))).toBe(false);

  // Only the installed package's bin folder is added; cwd is outside the clone.
  const path = { PATH: `${join(prefix, "bin")}:${process.env.PATH ?? ""}` };
  run("qbridge", ["init", "--box", "b"], user, path);
  const demo = run("qbridge", ["demo", "--box", "b"], user, path);
  const asked = [...demo.matchAll(/^asked (\S+)/gm)].map((m) => m[1]);
  expect(asked.length).toBeGreaterThan(0);
  const list = JSON.parse(run("qbridge", ["list", "--box", "b", "--json"], user, path)) as {
    pending: { id: string }[];
  };
  expect(list.pending.map((q) => q.id).sort()).toEqual(asked.sort());

  // The library entry, as a project that depends on the package imports and typechecks it.
  const consumer = join(work, "consumer");
  mkdirSync(join(consumer, "node_modules"), { recursive: true });
  symlinkSync(installed, join(consumer, "node_modules/question-bridge"));
  const imported = run(
    process.execPath,
    [
      "--input-type=module",
      "-e",
      'const c = await import("question-bridge/client"); console.log(typeof c.QuestionBridge)',
    ],
    consumer,
  );
  expect(imported.trim()).toBe("function");
  writeFileSync(
    join(consumer, "use.ts"),
    'import { QuestionBridge, type QuestionOutcome } from "question-bridge/client";\n' +
      'const bridge = new QuestionBridge({ url: "http://127.0.0.1:8787", token: "t" });\n' +
      'export const outcome: Promise<QuestionOutcome> = bridge.get("x");\n',
  );
  const tsc = join(ROOT, "node_modules/typescript/bin/tsc");
  const typecheck = [tsc, "--noEmit", "--strict", "--module", "nodenext", "--target", "es2022"];
  run(process.execPath, [...typecheck, "--lib", "es2022,dom", "use.ts"], consumer);
}

describe("the npm package", () => {
  it("installs from its tarball with npm install -g and runs init, demo and list; npx runs --version", async () => {
    const tarball = packed();
    const files = run("tar", ["-tzf", tarball], work).split("\n");
    expect(files).toContain("package/bin/qbridge.cjs");
    expect(files).toContain("package/dist/cli.mjs");
    expect(files.some((f) => f.startsWith("package/src/"))).toBe(false);
    const prebuild = localPrebuild();
    const user = join(work, "user");
    mkdirSync(user);
    // npx installs into its own folder, independent of the global install: both run at once.
    const npx = npxVersion(tarball, user, prebuild);
    // Settled before the test ends whatever fails first, so nothing is left running.
    const npxSettled = npx.then(
      () => undefined,
      () => undefined,
    );
    try {
      installedAndUsed(prebuild, user);
    } finally {
      await npxSettled;
    }
    const { version: expected } = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
      version: string;
    };
    expect((await npx).trim()).toBe(expected);
  }, 480_000);

  it("carries the licence and notice of every third-party package its bundles hold", () => {
    const unpacked = join(work, "unpacked");
    mkdirSync(unpacked);
    run("tar", ["-xzf", packed(), "-C", unpacked], work);
    const dist = join(unpacked, "package/dist");
    // What the bundles hold, read from their own source maps, not from the build's list.
    const bundled = new Set<string>();
    for (const map of readdirSync(dist).filter((f) => f.endsWith(".map"))) {
      const { sources } = JSON.parse(readFileSync(join(dist, map), "utf8")) as {
        sources: string[];
      };
      for (const source of sources) {
        const at =
          /(node_modules\/(?:(?:@[^/]+\/)?[^/]+\/node_modules\/)*(?:@[^/]+\/)?[^/]+)\//.exec(
            source,
          );
        if (at) bundled.add(at[1] as string);
      }
    }
    expect(bundled.size).toBeGreaterThan(0);
    const licences = readFileSync(join(dist, "THIRD-PARTY-LICENSES.md"), "utf8");
    const missing = [...bundled].filter((folder) => {
      const at = join(ROOT, folder);
      const { name, version } = JSON.parse(readFileSync(join(at, "package.json"), "utf8")) as {
        name: string;
        version: string;
      };
      const texts = readdirSync(at)
        .filter((f) => /^(licen[cs]e|copying|notice)/i.test(f))
        .map((f) => readFileSync(join(at, f), "utf8").trim());
      return (
        !licences.includes(`## ${name} ${version}\n`) ||
        texts.length === 0 ||
        !texts.every((text) => licences.includes(text))
      );
    });
    expect(missing).toEqual([]);
  }, 240_000);

  it("the installed command starts where env has no -S, as BusyBox's on Alpine", () => {
    const bin = join(installedPrefix(localPrebuild()), "bin", "qbridge");
    // An env that refuses every option, as BusyBox's refuses -S, laid over /usr/bin/env (the
    // path the kernel runs a shebang's env from) in a mount namespace of this test's own.
    const shim = join(work, "busybox-like-env");
    writeFileSync(
      shim,
      '#!/bin/sh\ncase "$1" in -*) echo "env: unrecognized option: $1" >&2; exit 1;; esac\nexec "$@"\n',
      { mode: 0o755 },
    );
    const started = run(
      "unshare",
      [
        "--user",
        "--map-root-user",
        "--mount",
        "sh",
        "-c",
        'mount --bind "$1" /usr/bin/env && exec "$2" --version',
        "sh",
        shim,
        bin,
      ],
      work,
    );
    const { version } = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
      version: string;
    };
    expect(started.trim()).toBe(version);
  }, 240_000);
});
