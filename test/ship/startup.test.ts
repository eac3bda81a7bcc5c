// Story: an operator starts `qbridge serve` with a setting that is missing or wrong. Start-up
// stops before anything runs, with exit status 1 and one line on stderr that names the setting
// and the fix; no stack trace.

import { execFileSync, spawn } from "node:child_process";
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  writeFileSync,
} from "node:fs";
import { createServer, type Server } from "node:net";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { EXIT } from "../../src/cli/exit.ts";
import { loadConfig } from "../../src/config.ts";
import { askQuestion } from "../../src/questions/ask.ts";
import { loadQuestion } from "../../src/questions/store.ts";
import { CLI, cleanupBoxes, cliEnv, makeBox, ROOT, selectCard, T0 } from "../support/box.ts";
import { pathWhereGitSeesAnotherOwner } from "../support/other-owner.ts";
import { TOKEN } from "../support/telegram.ts";
import { type BotApiStub, startBotApiStub } from "./bot-api-stub.ts";
import { freshDir, qbridgeRun, removeFreshDirs } from "./ship-support.ts";

const cleanups: (() => void | Promise<void>)[] = [];
afterEach(async () => {
  for (const undo of cleanups.splice(0).reverse()) await undo();
  removeFreshDirs();
  cleanupBoxes();
});

async function occupiedPort(): Promise<number> {
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  cleanups.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return (server.address() as { port: number }).port;
}

async function stub(): Promise<BotApiStub> {
  const s = await startBotApiStub({});
  cleanups.push(() => s.stop());
  return s;
}

/** A directory nobody can write to: a read-only bind mount as root (chmod does not stop root). */
function readOnly(dir: string): void {
  if (process.getuid?.() === 0) {
    execFileSync("mount", ["--bind", dir, dir], { stdio: "pipe" });
    cleanups.push(() => void execFileSync("umount", [dir], { stdio: "pipe" }));
    execFileSync("mount", ["-o", "remount,bind,ro", dir], { stdio: "pipe" });
  } else {
    chmodSync(dir, 0o555);
    cleanups.push(() => chmodSync(dir, 0o755));
  }
}

/** Runs serve from a fresh directory; expects exit 1 and exactly one line on stderr. */
async function refusedStart(
  env: Record<string, string>,
  cwd = freshDir(),
  code: number = EXIT.usage,
): Promise<string> {
  const result = await qbridgeRun(["serve"], { cwd, env: { QBRIDGE_WEB_PORT: "0", ...env } });
  expect(result.code).toBe(code);
  expect(result.stderr).not.toMatch(/^\s+at /m);
  const lines = result.stderr.trimEnd().split("\n");
  expect(lines).toHaveLength(1);
  expect(result.stderr).not.toContain("qbridge serve is running");
  return lines[0] as string;
}

describe("settings checked before anything starts", () => {
  const cases: [string, Record<string, string>, string][] = [
    [
      "a malformed bot token",
      { TELEGRAM_BOT_TOKEN: "not-a-token" },
      "qbridge: TELEGRAM_BOT_TOKEN does not look like a bot token (digits, a colon, then 20+ letters): copy it again from @BotFather",
    ],
    [
      "an owner id that is not a number",
      { TELEGRAM_OWNER_ID: "@me" },
      "qbridge: TELEGRAM_OWNER_ID must be your numeric Telegram user id (digits only), or unset to pair with /start",
    ],
    [
      "a web port that is not a port",
      { QBRIDGE_WEB_PORT: "99999" },
      "qbridge: QBRIDGE_WEB_PORT must be a port number from 0 to 65535",
    ],
    [
      "a Bot API root that is not a URL",
      { TELEGRAM_API_ROOT: "localhost:8081" },
      "qbridge: TELEGRAM_API_ROOT must be an http(s) URL of a Bot API server, or unset for Telegram's own",
    ],
    [
      "a public URL with a query, which every link's path would land in",
      { QBRIDGE_PUBLIC_URL: "https://q.example.org/?x=1" },
      "qbridge: QBRIDGE_PUBLIC_URL must be the http(s) address where the web page is reached, e.g. https://q.example.org (no ?query, #fragment or user:password@)",
    ],
    [
      "an API token that is too short",
      { QBRIDGE_API_TOKEN: "short" },
      "qbridge: QBRIDGE_API_TOKEN must be at least 16 characters: ASCII letters, digits and punctuation, no spaces (make one with: openssl rand -hex 24)",
    ],
    [
      "an API token with a space, which no Authorization: Bearer header can carry",
      { QBRIDGE_API_TOKEN: "correct horse battery staple" },
      "qbridge: QBRIDGE_API_TOKEN must be at least 16 characters: ASCII letters, digits and punctuation, no spaces (make one with: openssl rand -hex 24)",
    ],
    [
      "a log level pino does not know",
      { QBRIDGE_LOG_LEVEL: "loud" },
      "qbridge: QBRIDGE_LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent",
    ],
    [
      "a sweep of 0 minutes",
      { QBRIDGE_SWEEP_MINUTES: "0" },
      "qbridge: QBRIDGE_SWEEP_MINUTES must be a whole number of minutes from 1 to 1440 (the sweep cannot be turned off)",
    ],
    [
      "quiet hours that are not two times of day",
      { QBRIDGE_QUIET_HOURS: "22-7" },
      "qbridge: QBRIDGE_QUIET_HOURS must be two different times of day such as 22:00-07:30 (in QBRIDGE_TIMEZONE), or unset for none",
    ],
  ];
  for (const [what, env, sentence] of cases) {
    it(`${what} stops start-up with one sentence naming the setting and the fix, and makes no box`, async () => {
      const cwd = freshDir();
      expect(await refusedStart(env, cwd)).toBe(sentence);
      expect(existsSync(join(cwd, "box"))).toBe(false);
    });
  }
});

describe("flags checked by the same schema", () => {
  const cases: [string[], string][] = [
    [["web", "--port", "99999"], "qbridge: --port must be a port number from 0 to 65535"],
    [["serve", "--port", "http"], "qbridge: --port must be a port number from 0 to 65535"],
    [
      ["chat", "--watch-ms", "0"],
      "qbridge: --watch-ms must be a whole number of milliseconds from 100 to 60000",
    ],
  ];
  for (const [args, sentence] of cases) {
    it(`qbridge ${args.join(" ")} stops with one sentence naming the flag and what it allows`, async () => {
      const result = await qbridgeRun(args, { cwd: freshDir() });
      expect({ code: result.code, stderr: result.stderr }).toEqual({
        code: 1,
        stderr: `${sentence}\n`,
      });
    });
  }

  it("every wrong setting and flag is reported at once, one line each", async () => {
    const result = await qbridgeRun(["serve", "--port", "99999"], {
      cwd: freshDir(),
      env: { QBRIDGE_LOG_LEVEL: "loud", TELEGRAM_OWNER_ID: "@me", QBRIDGE_SWEEP_MINUTES: "0" },
    });
    expect(result.code).toBe(1);
    expect(result.stderr.trimEnd().split("\n").sort()).toEqual([
      "qbridge: --port must be a port number from 0 to 65535",
      "qbridge: QBRIDGE_LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent",
      "qbridge: QBRIDGE_SWEEP_MINUTES must be a whole number of minutes from 1 to 1440 (the sweep cannot be turned off)",
      "qbridge: TELEGRAM_OWNER_ID must be your numeric Telegram user id (digits only), or unset to pair with /start",
    ]);
  });
});

describe("settings that fail when used", () => {
  it("a box git refuses as another user's stops start-up in one sentence, before anything runs", async () => {
    const tb = await makeBox();
    const path = pathWhereGitSeesAnotherOwner(tb.dir);
    const result = await qbridgeRun(["serve"], {
      cwd: freshDir(),
      env: { QBRIDGE_BOX: tb.dir, QBRIDGE_WEB_PORT: "0", PATH: path },
    });
    expect(result.code).toBe(4);
    expect(result.stdout).toBe("");
    expect(result.stderr).toMatch(
      /^qbridge: git refuses the box .*: it is owned by another user \(uid \d+\) than the one running qbridge \(uid \d+\), so every answer would fail; run qbridge as the box's owner .*\n$/,
    );
  });

  it("an unwritable box stops start-up naming QBRIDGE_BOX and the fix, exit 4", async () => {
    const cwd = freshDir();
    const parent = join(cwd, "locked");
    mkdirSync(parent);
    readOnly(parent);
    const box = join(parent, "box");
    expect(await refusedStart({ QBRIDGE_BOX: box }, cwd, EXIT.box)).toMatch(
      new RegExp(
        `^qbridge: QBRIDGE_BOX ${box} is not a writable directory \\((EROFS|EACCES)\\): make it writable for the user running qbridge, or point QBRIDGE_BOX \\(or --box\\) at a directory that is$`,
      ),
    );
  });

  it("a box path under a file stops start-up naming QBRIDGE_BOX", async () => {
    const cwd = freshDir();
    writeFileSync(join(cwd, "file"), "");
    expect(await refusedStart({ QBRIDGE_BOX: join(cwd, "file/box") }, cwd, EXIT.box)).toMatch(
      /^qbridge: QBRIDGE_BOX .*file\/box is not a writable directory \(ENOTDIR\)/,
    );
  });

  it("a web port in use stops start-up naming the settings and the flags that choose it", async () => {
    const port = await occupiedPort();
    // --port wins over QBRIDGE_WEB_PORT: a fix naming only the variable would change nothing.
    expect(await refusedStart({ QBRIDGE_WEB_PORT: String(port) })).toBe(
      `qbridge: the web page cannot listen on 127.0.0.1:${port} (EADDRINUSE; is another qbridge serve or web running?): choose a free address with --host/--port or QBRIDGE_WEB_HOST/QBRIDGE_WEB_PORT`,
    );
  });

  it("a webhook port in use stops start-up naming TELEGRAM_WEBHOOK_PORT", async () => {
    const port = await occupiedPort();
    const api = await stub();
    expect(
      await refusedStart({
        TELEGRAM_BOT_TOKEN: TOKEN,
        TELEGRAM_API_ROOT: api.apiRoot,
        TELEGRAM_WEBHOOK_URL: "https://q.example.org/telegram",
        TELEGRAM_WEBHOOK_SECRET: "s3cret-for-the-test",
        TELEGRAM_WEBHOOK_PORT: String(port),
      }),
    ).toBe(
      `qbridge: the Telegram webhook listener cannot listen on 127.0.0.1:${port} (EADDRINUSE): set TELEGRAM_WEBHOOK_PORT to a free port`,
    );
  });

  it("a webhook URL without its secret stops start-up naming TELEGRAM_WEBHOOK_SECRET", async () => {
    const api = await stub();
    expect(
      await refusedStart({
        TELEGRAM_BOT_TOKEN: TOKEN,
        TELEGRAM_API_ROOT: api.apiRoot,
        TELEGRAM_WEBHOOK_URL: "https://q.example.org/telegram",
      }),
    ).toBe(
      "qbridge: TELEGRAM_WEBHOOK_URL needs TELEGRAM_WEBHOOK_SECRET, so only Telegram can post updates: make one with openssl rand -hex 32",
    );
  });
});

describe("test seams stay out of production", () => {
  it("a crash point named in the environment of a production start arms nothing", async () => {
    const tb = await makeBox();
    const { id } = await askQuestion(tb, selectCard());
    // Started as production starts it: no test-only module preloaded.
    const child = spawn(process.execPath, [CLI, "answer", id, "b"], {
      env: {
        PATH: process.env.PATH ?? "",
        HOME: tb.dir,
        QBRIDGE_TIME: T0,
        ...cliEnv(tb.dir, { QBRIDGE_TEST_CRASH_AT: "before-write" }),
      },
      stdio: "ignore",
    });
    const [code, signal] = await new Promise<[number | null, string | null]>((resolve) =>
      child.on("close", (c, s) => resolve([c, s])),
    );
    expect({ code, signal }).toEqual({ code: 0, signal: null });
    expect(loadQuestion(tb, id).card.status).toBe("answered");
  });

  it("no file of the product reads a test variable", () => {
    const readers: string[] = [];
    const walk = (dir: string): void => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const path = join(dir, entry.name);
        if (entry.isDirectory()) walk(path);
        else if (/QBRIDGE_TEST_/.test(readFileSync(path, "utf8"))) readers.push(path);
      }
    };
    for (const dir of ["src", "bridges", "bin"]) walk(join(ROOT, dir));
    expect(readers).toEqual([]);
  });
});

describe("the time zone", () => {
  it("is the system's unless QBRIDGE_TIMEZONE names one", () => {
    const config = loadConfig({}, { box: freshDir() });
    expect(config.timeZone).toBe(new Intl.DateTimeFormat().resolvedOptions().timeZone);
    expect(config.timeZone).toBe(config.timeZone);
    expect(loadConfig({ QBRIDGE_TIMEZONE: "Europe/Berlin" }).timeZone).toBe("Europe/Berlin");
  });
});
