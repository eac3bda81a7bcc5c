// Story: an agent runs `qbridge --version`, `qbridge ask` and `qbridge show` many times a day;
// each process loads only what its command needs (start-up is most of a short command), and
// every command the CLI has is in the table that decides what to load.

import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Command } from "commander";
import { afterAll, describe, expect, it } from "vitest";
import { FAMILIES, familiesFor } from "../../src/cli/families.ts";
import { loadConfig } from "../../src/config.ts";
import { CLI, questionRel, ROOT } from "../support/box.ts";
import { sourcesRun } from "../support/bundle-coverage.ts";

const work = mkdtempSync(join(tmpdir(), "qbridge-loading-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** What a `qbridge ARGS` process loaded: the packages (by name under node_modules) it
 * requires from node_modules or from their own file in dist/, or whose code bundled into the
 * CLI ran, and node's own modules. */
function loadsOf(
  args: string[],
  input = "",
  env: Record<string, string> = {},
  exitCodes: readonly number[] = [0],
): { packages: Set<string>; builtins: Set<string>; stderr: string } {
  const log = join(work, `modules-${Math.random().toString(36).slice(2)}.log`);
  const coverage = mkdtempSync(join(work, "coverage-"));
  const run = spawnSync(
    process.execPath,
    ["--import", join(ROOT, "test/support/record-modules.mjs"), CLI, ...args],
    {
      cwd: work,
      input,
      env: {
        PATH: process.env.PATH ?? "",
        HOME: work,
        QBRIDGE_TEST_MODULE_LOG: log,
        NODE_V8_COVERAGE: coverage,
        ...env,
      },
    },
  );
  if (!exitCodes.includes(run.status ?? -1))
    throw new Error(`qbridge ${args.join(" ")} failed: ${run.stderr}`);
  const lines = readFileSync(log, "utf8").split("\n");
  const packages = [
    ...lines,
    ...sourcesRun(coverage, join(ROOT, "dist/cli.cjs")),
    ...sourcesRun(coverage, join(ROOT, "dist/short.cjs")),
    ...sourcesRun(coverage, join(ROOT, "dist/ask.cjs")),
  ]
    // A package from node_modules, or one the lean bundle loads from its own file in dist/.
    .map(
      (url) =>
        /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url)?.[1] ??
        /\/dist\/(simple-git|yaml)\.cjs$/.exec(url)?.[1],
    )
    .filter((name): name is string => name !== undefined);
  const builtins = lines.filter((line) => line.startsWith("node:")).map((line) => line.slice(5));
  return { packages: new Set(packages), builtins: new Set(builtins), stderr: String(run.stderr) };
}

function packagesLoaded(args: string[], input = ""): Set<string> {
  return loadsOf(args, input).packages;
}

/** A new box under the test's folder, and a card for it as an agent pipes one to `ask`. */
function boxAndCard(name: string, id: string): { box: string; card: string } {
  const box = join(work, name);
  execFileSync(process.execPath, [CLI, "init", "--box", box], { cwd: work });
  const card = JSON.stringify({
    id,
    prompt: `Keep ${id}?`,
    memo: "The disk is 90% full.",
    input: { type: "confirm" },
    directive: "Delete it or keep it.",
  });
  return { box, card };
}

const SERVICE_ONLY = ["grammy", "hono", "@hono/node-server", "pino", "pino-pretty"];
const BOX_LIBRARIES = ["zod", "yaml", "simple-git", "better-sqlite3", "proper-lockfile"];

describe("what a command loads", () => {
  it("qbridge --version loads none of the libraries a box or the service needs", () => {
    const loaded = packagesLoaded(["--version"]);
    for (const name of [...BOX_LIBRARIES, ...SERVICE_ONLY]) expect(loaded).not.toContain(name);
  });

  it("qbridge ask and qbridge show load neither the bot, the web server nor the logger", () => {
    const { box, card } = boxAndCard("box", "keep-logs");
    const asked = packagesLoaded(["ask", "--box", box], card);
    const shown = packagesLoaded(["show", "keep-logs", "--box", box]);
    for (const loaded of [asked, shown])
      for (const name of SERVICE_ONLY) expect(loaded).not.toContain(name);
  });

  it("qbridge show and qbridge wait run no git and do not load it, nor yaml for a card in the usual shape, and take no lock; show opens no ledger either", () => {
    const { box, card } = boxAndCard("read-box", "keep-cache");
    const asked = packagesLoaded(["ask", "--box", box], card);
    expect(asked).toContain("simple-git");
    expect(asked).toContain("proper-lockfile");
    execFileSync(process.execPath, [CLI, "answer", "keep-cache", "yes", "--box", box]);
    const shown = packagesLoaded(["show", "keep-cache", "--json", "--box", box]);
    const waited = packagesLoaded(["wait", "keep-cache", "--box", box]);
    for (const loaded of [shown, waited]) {
      // The card is as qbridge wrote it: read without the yaml package (src/card/usual-front.ts).
      expect(loaded).toContain("zod");
      expect(loaded).not.toContain("yaml");
      expect(loaded).not.toContain("simple-git");
    }
    // With no write of the question in flight (no journal), the card read is committed: no
    // lock is needed to report it (a journal sends both to the lock: writeInFlight).
    expect(shown).not.toContain("proper-lockfile");
    expect(waited).not.toContain("proper-lockfile");
    // show of a closed question reads one card: the ledger (SQLite, native) is never opened.
    expect(asked).toContain("better-sqlite3");
    expect(shown).not.toContain("better-sqlite3");
  });

  it("the agent's short commands build none of node's streams, crypto, tty or assert; a list over a current card index loads no YAML parser", () => {
    const { box, card } = boxAndCard("lean-box", "keep-tmp");
    // ask reads its card from a pipe and spawns git: child_process brings node's streams, but
    // nothing needs crypto, tty or assert.
    const asked = loadsOf(["ask", "--json", "--box", box], card).builtins;
    expect(asked).toContain("child_process"); // the record is there: the preload saw the exit
    for (const name of ["crypto", "tty", "assert"]) expect(asked).not.toContain(name);
    // Nor one that leaves the id to qbridge: its random part comes from the kernel's source.
    const { id: _named, ...unnamed } = JSON.parse(card) as Record<string, unknown>;
    const drawn = loadsOf(
      ["ask", "--json", "--box", box],
      JSON.stringify({ ...unnamed, prompt: "Keep the tmp folder too?" }),
    );
    expect(drawn.builtins).toContain("child_process");
    expect(drawn.builtins).not.toContain("crypto");
    execFileSync(process.execPath, [CLI, "answer", "keep-tmp", "yes", "--box", box]);
    const shown = loadsOf(["show", "keep-tmp", "--json", "--box", box]).builtins;
    const waited = loadsOf(["wait", "keep-tmp", "--json", "--box", box]).builtins;
    // The first list reads the card the answer changed into the card index (with a comment
    // added by hand, a card only yaml reads); the next finds the index current: it reads no
    // card and does not load the YAML parser.
    const cardFile = join(box, questionRel("keep-tmp"));
    writeFileSync(cardFile, readFileSync(cardFile, "utf8").replace("---\n", "---\n# by hand\n"));
    expect(loadsOf(["list", "--json", "--box", box]).packages).toContain("yaml");
    const listing = loadsOf(["list", "--json", "--box", box]);
    expect(listing.packages).not.toContain("yaml");
    const listed = listing.builtins;
    const version = loadsOf(["--version"]).builtins;
    for (const loaded of [shown, waited, listed, version]) {
      expect(loaded).toContain("vm"); // the record is there: the launcher's own module
      for (const name of ["stream", "net", "crypto", "tty", "assert", "child_process"])
        expect(loaded).not.toContain(name);
    }
  });

  it("DEBUG=simple-git* still shows the git commands a command runs", () => {
    const { box, card } = boxAndCard("debug-box", "keep-debug");
    const { stderr } = loadsOf(["ask", "--json", "--box", box], card, { DEBUG: "simple-git*" });
    expect(stderr).toMatch(/simple-git.*commit/);
  });

  it("the bot's Bot API calls use node's own URL and AbortController, not the packages grammy brings for other runtimes", () => {
    const box = join(work, "bot-box");
    execFileSync(process.execPath, [CLI, "init", "--box", box], { cwd: work });
    // doctor calls getMe through grammy; the Bot API here is a closed loopback port, a problem
    // doctor reports (exit 1) after the call has gone through node-fetch.
    const bot = {
      TELEGRAM_BOT_TOKEN: "123456:AAExampleTokenFromBotFather000000000",
      TELEGRAM_API_ROOT: "http://127.0.0.1:9",
    };
    const { packages, stderr } = loadsOf(["doctor", "--box", box], "", bot, [0, 1]);
    expect(packages).toContain("grammy");
    expect(packages).toContain("node-fetch");
    // whatwg-url parsed tr46's table of Unicode mappings into 1.6 MB a service kept for good.
    for (const name of ["whatwg-url", "tr46", "webidl-conversions", "abort-controller"])
      expect(packages).not.toContain(name);
    expect(stderr).not.toMatch(/unexpected failure/);
  });

  it("DEBUG=grammy* still shows the bot's Bot API calls", () => {
    const box = join(work, "bot-debug-box");
    execFileSync(process.execPath, [CLI, "init", "--box", box], { cwd: work });
    const { stderr } = loadsOf(
      ["doctor", "--box", box],
      "",
      {
        DEBUG: "grammy*",
        TELEGRAM_BOT_TOKEN: "123456:AAExampleTokenFromBotFather000000000",
        TELEGRAM_API_ROOT: "http://127.0.0.1:9",
      },
      [0, 1],
    );
    expect(stderr).toMatch(/grammy:core Calling getMe/);
  });

  it("the settings ask Intl for the system's time zone only when a command uses it", () => {
    const asked: string[] = [];
    const original = Intl.DateTimeFormat;
    Intl.DateTimeFormat = new Proxy(original, {
      apply(target, self, args: Parameters<typeof Intl.DateTimeFormat>) {
        asked.push("called");
        return Reflect.apply(target, self, args);
      },
      construct(target, args: ConstructorParameters<typeof Intl.DateTimeFormat>) {
        asked.push("made");
        return new target(...args);
      },
    });
    try {
      const config = loadConfig({}, { box: work });
      expect(asked).toEqual([]);
      expect(config.timeZone).toBe(new original().resolvedOptions().timeZone);
      expect(asked).toHaveLength(1);
      expect(config.timeZone).toBe(config.timeZone);
      expect(asked).toHaveLength(1);
      expect(loadConfig({ QBRIDGE_TIMEZONE: "Europe/Berlin" }).timeZone).toBe("Europe/Berlin");
    } finally {
      Intl.DateTimeFormat = original;
    }
  });

  it("every command the CLI registers is in the table of command families", async () => {
    for (const family of FAMILIES) {
      const program = new Command("qbridge");
      (await family.register())(program);
      expect(program.commands.map((c) => c.name()).sort()).toEqual([...family.commands].sort());
    }
    expect(familiesFor(["--version"])).toEqual([]);
    expect(familiesFor(["show", "x", "--json"])).toHaveLength(1);
    expect(familiesFor(["help"])).toBe(FAMILIES);
  });
});
