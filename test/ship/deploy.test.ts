// Story: an operator deploys with the files in deploy/: the example env file goes unchanged
// into the container (whose image sets the box and the listening address), and `qbridge doctor
// --service-env` reads the service's env file so its bot checks use the service's token and Bot
// API server, not whatever the operator's shell has. However the command is started as a
// program (the unit, the container, a shell), node runs it with node's own defaults.

import { execFile, spawn } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { parseEnv } from "node:util";
import pino from "pino";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config.ts";
import { askQuestion } from "../../src/questions/ask.ts";
import { startService } from "../../src/service.ts";
import {
  CLI,
  cleanupBoxes,
  cliEnv,
  confirmCard,
  makeBox,
  ROOT,
  runCli,
  T0,
} from "../support/box.ts";
import { TOKEN } from "../support/telegram.ts";
import { type BotApiStub, startBotApiStub } from "./bot-api-stub.ts";

let stub: BotApiStub | undefined;
afterEach(async () => {
  await stub?.stop();
  stub = undefined;
});
afterAll(cleanupBoxes);

/** `qbridge ARGS` run as an operator runs it: the command itself, through its shebang. */
function qbridgeCommand(
  args: string[],
  command = CLI,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = execFile(command, args, { env: { PATH: process.env.PATH } }, (error, out, err) =>
      resolve({ code: error ? (child.exitCode ?? 1) : 0, stdout: out, stderr: err }),
    );
  });
}

const EXAMPLE = join(ROOT, "deploy/qbridge.env.example");

describe("the example env file", () => {
  it("sets no path and no address, so it works unchanged where the container puts the box", async () => {
    const settings = parseEnv(readFileSync(EXAMPLE, "utf8"));
    for (const [key, value] of Object.entries(settings)) {
      expect(value?.startsWith("/"), `${key}=${value} is a path`).toBe(false);
      expect(["QBRIDGE_BOX", "QBRIDGE_WEB_HOST", "QBRIDGE_WEB_PORT"]).not.toContain(key);
    }
    // What the image sets, then the file as docker --env-file lays it over.
    const tb = await makeBox();
    const result = await runCli(["doctor", "--json", "--service-env", EXAMPLE], {
      env: { QBRIDGE_BOX: tb.dir, QBRIDGE_WEB_HOST: "0.0.0.0", QBRIDGE_WEB_PORT: "8787" },
    });
    expect(result.stderr).toBe("");
    expect(JSON.parse(result.stdout)).toMatchObject({ healthy: true });
  });
});

describe("the example env file lists every setting", () => {
  it("names each variable the core and the Telegram bridge read, as docs/CONFIG.md's tables do", () => {
    const read = (rel: string) => readFileSync(join(ROOT, rel), "utf8");
    const schemas = read("src/config.ts") + read("bridges/telegram/settings.ts");
    const settings = new Set(
      schemas.match(/\b(?:QBRIDGE|TELEGRAM)_[A-Z_]+(?=: checked|: optionalText)/g),
    );
    expect(settings.size).toBeGreaterThan(15);
    const example = read("deploy/qbridge.env.example");
    const listed = (key: string) => new RegExp(`^#? ?${key}=`, "m").test(example);
    expect([...settings].filter((key) => !listed(key))).toEqual([]);
    // The settings reference has a table row for each, its first cell the variable's name.
    const config = read("docs/CONFIG.md");
    const row = (key: string) => new RegExp(`^\\| \`${key}\` +\\|`, "m").test(config);
    expect([...settings].filter((key) => !row(key))).toEqual([]);
  });
});

describe("the container's HEALTHCHECK", () => {
  it("asks /healthz on the port the env file chose, not only on the image's 8787", async () => {
    const containerfile = readFileSync(join(ROOT, "deploy/Containerfile"), "utf8");
    const check = /^HEALTHCHECK [^\n]*\\\n\s*CMD (\[.*\])$/m.exec(containerfile);
    expect(check, "a HEALTHCHECK ... CMD [...] in exec form").not.toBeNull();
    const [command, ...args] = JSON.parse(check?.[1] as string) as string[];
    expect(command).toBe("node");
    const tb = await makeBox();
    const config = loadConfig({ QBRIDGE_TIME: T0 }, { box: tb.dir, port: "0" });
    const service = await startService({ config, logger: pino({ level: "silent" }) });
    const port = new URL(service.web?.url as string).port;
    try {
      // As the container runs it: the image's settings, then the env file's QBRIDGE_WEB_PORT.
      const env = {
        PATH: process.env.PATH,
        QBRIDGE_WEB_HOST: "0.0.0.0",
        QBRIDGE_WEB_PORT: port,
      };
      const code = await new Promise<number | null>((resolve) => {
        const child = execFile(process.execPath, args, { env }, () => resolve(child.exitCode));
      });
      expect(code).toBe(0);
    } finally {
      await service.stop();
    }
  });
});

describe("in the container, with QBRIDGE_PUBLIC_URL unset", () => {
  const lines = () => {
    const written: string[] = [];
    const logger = pino({ level: "info" }, { write: (line: string) => written.push(line) });
    const warnings = () =>
      written
        .map((line) => JSON.parse(line))
        .filter((entry) => entry.level === pino.levels.values.warn);
    return { logger, warnings };
  };

  it("serve says once at start that QBRIDGE_PUBLIC_URL must be set for links", async () => {
    const tb = await makeBox();
    for (const [publicUrl, told] of [
      [undefined, 1],
      ["https://q.example.org", 0],
    ] as const) {
      const { logger, warnings } = lines();
      // The image's listening address; the page itself is not started (tests listen on loopback).
      const config = loadConfig(
        { QBRIDGE_TIME: T0, QBRIDGE_WEB_HOST: "0.0.0.0", QBRIDGE_PUBLIC_URL: publicUrl },
        { box: tb.dir },
      );
      const service = await startService({ config, logger, web: false });
      await service.stop();
      const said = warnings().filter((w) => String(w.msg).includes("QBRIDGE_PUBLIC_URL"));
      expect(said, `with QBRIDGE_PUBLIC_URL=${publicUrl ?? ""}`).toHaveLength(told);
      if (told) expect(said[0].msg).toMatch(/^QBRIDGE_PUBLIC_URL must be set for links/);
    }
  });

  it("qbridge link refuses to print a link to every address, naming QBRIDGE_PUBLIC_URL", async () => {
    const tb = await makeBox();
    for (const host of ["0.0.0.0", "::"]) {
      const result = await runCli(["link", "--questions", "--box", tb.dir], {
        env: { QBRIDGE_WEB_HOST: host, QBRIDGE_WEB_PORT: "8787", QBRIDGE_PUBLIC_URL: "" },
      });
      expect(result.code, host).toBe(1);
      expect(result.stdout).toBe("");
      expect(result.stderr).toContain("QBRIDGE_PUBLIC_URL must be set for links");
      expect(result.stderr).toContain("https://q.example.org");
    }
    const set = await runCli(["link", "--questions", "--box", tb.dir], {
      env: { QBRIDGE_WEB_HOST: "0.0.0.0", QBRIDGE_PUBLIC_URL: "https://q.example.org" },
    });
    expect(set.code).toBe(0);
    expect(set.stdout).toMatch(/^https:\/\/q\.example\.org\/questions\?s=\S+\n$/);
  });
});

describe("qbridge doctor --service-env", () => {
  it("runs the bot checks with the token and Bot API server of the service's env file", async () => {
    stub = await startBotApiStub({});
    const tb = await makeBox();
    const envFile = join(tb.dir, ".qbridge", "service.env");
    writeFileSync(
      envFile,
      `# as in /etc/qbridge/qbridge.env\nTELEGRAM_BOT_TOKEN=${TOKEN}\nTELEGRAM_API_ROOT=${stub.apiRoot}\n`,
    );
    const result = await qbridgeCommand(["doctor", "--box", tb.dir, "--service-env", envFile]);
    expect(result.stdout).toContain("ok: telegram: bot @questions_test_bot reachable");
    expect(stub.calls).toEqual(["getMe", "getWebhookInfo"]);
  });

  it("reads the env file piped in on /dev/stdin (the service user cannot read the root-only file)", async () => {
    stub = await startBotApiStub({});
    const tb = await makeBox();
    const rootOnly = join(tb.dir, ".qbridge", "root-only.env");
    writeFileSync(rootOnly, `TELEGRAM_BOT_TOKEN=${TOKEN}\nTELEGRAM_API_ROOT=${stub.apiRoot}\n`);
    // As deploy/README.md has it: sudo cat FILE | sudo -u qbridge qbridge doctor --service-env /dev/stdin
    const result = await qbridgeCommand(
      [
        "-c",
        'cat "$1" | "$2" doctor --box "$3" --service-env /dev/stdin',
        "sh",
        rootOnly,
        CLI,
        tb.dir,
      ],
      "sh",
    );
    expect(result.stdout).toContain("ok: telegram: bot @questions_test_bot reachable");
    expect(stub.calls).toEqual(["getMe", "getWebhookInfo"]);
  });

  it("an env file that cannot be read is one sentence naming it, with exit status 1", async () => {
    const tb = await makeBox();
    const missing = join(tb.dir, "no-such.env");
    const result = await qbridgeCommand(["doctor", "--box", tb.dir, "--service-env", missing]);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      `qbridge: cannot read the env file ${missing} (ENOENT): check the path, or pipe it in with --service-env /dev/stdin\n`,
    );
  });
});

/**
 * The command line and environment of `qbridge` run as a program, once the kernel has run env
 * with the shebang's line and env has become node in the same process (a wait on a pending
 * question keeps it running while they are read).
 */
async function runningAsProgram(): Promise<{ argv: string[]; environ: string[] }> {
  const tb = await makeBox();
  const { id } = await askQuestion(tb, confirmCard());
  const child = spawn(CLI, ["wait", id, "--timeout", "60"], {
    env: { PATH: process.env.PATH ?? "", QBRIDGE_TIME: T0, ...cliEnv(tb.dir) },
    stdio: "ignore",
  });
  try {
    for (let i = 0; i < 200; i++) {
      await sleep(25);
      const argv = readFileSync(`/proc/${child.pid}/cmdline`, "utf8").split("\0");
      if (basename(argv[0] ?? "") !== "node") continue;
      const environ = readFileSync(`/proc/${child.pid}/environ`, "utf8").split("\0");
      return { argv, environ };
    }
    return { argv: [], environ: [] };
  } finally {
    child.kill("SIGTERM");
  }
}

describe("the qbridge command as a program", () => {
  it("runs node with node's defaults: no node flag and no setting of its own", async () => {
    const { argv, environ } = await runningAsProgram();
    const script = argv.findIndex((arg) => arg.endsWith("qbridge.cjs"));
    expect(script).toBe(1);
    expect(environ.filter((line) => line.startsWith("MALLOC_"))).toEqual([]);
  });
});
