// `qbridge serve` and `qbridge pair`: the long-running service, and pairing a boxholder on a
// surface (each bridge says how its code is sent and what to note about its settings).

import { existsSync, readdirSync } from "node:fs";
import type { Command } from "commander";
import type { Logger } from "pino";
import { initBox } from "../box/box.ts";
import type { Config } from "../config.ts";
import { BoxError, InvalidInput } from "../errors.ts";
import type { Service } from "../service.ts";
import type { ConfiguredBridge } from "../slot/bridge.ts";
import { Owners } from "../slot/owner.ts";
import { checkBoxWritable } from "./box-check.ts";
import { BRIDGES, bridgeHelp } from "./bridges.ts";
import { type CommonOptions, configFor, printJson, withCore } from "./context.ts";
import { endQuietlyWhenOutputCloses, writeErr, writeOut } from "./output.ts";

function isMissingOrEmpty(dir: string): boolean {
  return !existsSync(dir) || readdirSync(dir).length === 0;
}

/** "12:32": the hour and minute on this machine's clock (TZ), as a person reads a deadline. */
function localTime(iso: string): string {
  const at = new Date(iso);
  const two = (n: number) => String(n).padStart(2, "0");
  return `${two(at.getHours())}:${two(at.getMinutes())}`;
}

/** The bridge `--surface` names, or the first listed one. */
function bridgeNamed(config: Config, surface: string | undefined): ConfiguredBridge {
  const bridge = surface ? config.bridges.find((b) => b.surface === surface) : config.bridges[0];
  if (!bridge) {
    const known = config.bridges.map((b) => b.surface).join(", ") || "none";
    throw new InvalidInput(
      `there is no bridge "${surface ?? ""}" to pair on: --surface takes one of ${known}`,
    );
  }
  return bridge;
}

export function registerServeCommands(program: Command): void {
  registerServe(program);
  registerPair(program);
}

function registerServe(program: Command): void {
  program
    .command("serve")
    .description(
      "run the service: each bridge whose settings are given (Telegram with TELEGRAM_BOT_TOKEN), the web page and the aging sweep",
    )
    .option("--box <dir>", "the box directory (default: $QBRIDGE_BOX or ./box; made when missing)")
    .option(
      "--host <host>",
      "the web page listens on this address (default: $QBRIDGE_WEB_HOST or 127.0.0.1)",
    )
    .option(
      "--port <port>",
      "the web page listens on this port, 0 for any free one (default: $QBRIDGE_WEB_PORT or 8787)",
    )
    .option("--pretty", "human-readable logs (the default at a terminal)")
    .option("--json", "logs as JSON lines, one per event (the default when not at a terminal)")
    .addHelpText(
      "after",
      `
Settings come from the environment: QBRIDGE_WEB_HOST/PORT, QBRIDGE_PUBLIC_URL,
QBRIDGE_SWEEP_MINUTES (default 10), QBRIDGE_QUIET_HOURS and QBRIDGE_TIMEZONE, and each bridge's:
${bridgeHelp((help) => help.settings)}
With no bridge on, the web page and the aging sweep still run. Stop with Ctrl-C (SIGINT) or
SIGTERM: the tap in flight finishes. Logs go to standard output: readable at a terminal, JSON
lines otherwise (for journald).

Examples:
  TELEGRAM_BOT_TOKEN=123456:ABC... qbridge serve --box ~/box --port 8080
  npm start`,
    )
    .action(serveAction);
}

function registerPair(program: Command): void {
  const pair = program
    .command("pair")
    .description(
      "print a one-time code (valid 10 minutes) that makes you the boxholder on one surface (Telegram unless --surface names another)",
    )
    .option("--box <dir>", "the box directory (default: $QBRIDGE_BOX or ./box)")
    .option("--json", "print machine-readable JSON")
    .option(
      "--replace",
      "make a code that moves the bot to another Telegram account while a boxholder is paired (they are told)",
    )
    .addHelpText(
      "after",
      `
Send "/start CODE" to your bot in a private chat while "qbridge serve" runs. The code works
once. With TELEGRAM_OWNER_ID set, that user is the boxholder and no pairing is needed. Once a
boxholder is paired, a new code needs --replace: whoever sends it becomes the boxholder, and
the one before is told in their chat. A code pairs on the surface it was made for only.`,
    )
    .option(
      "--surface <name>",
      "the surface the code pairs on (default: telegram, the first bridge)",
    );
  // A bridge that sends its code to an address names the flag for it (--email ADDRESS).
  for (const { help } of BRIDGES) {
    if (help.pairFlag)
      pair.option(`--${help.pairFlag.flag} <${help.pairFlag.value}>`, help.pairFlag.description);
  }
  pair.action(pairAction);
}

/** The bridge a pair flag names (--email ADDRESS) and the address, when one was given. */
function sentTo(options: Record<string, unknown>): { surface: string; to: string } | undefined {
  for (const { surface, help } of BRIDGES) {
    const to = help.pairFlag && options[help.pairFlag.flag];
    if (typeof to === "string") return { surface, to };
  }
  return undefined;
}

/** Runs the service until a signal, closed output or a bridge that cannot go on stops it. */
async function serveAction(options: CommonOptions & { pretty?: boolean }): Promise<void> {
  if (options.pretty && options.json) {
    throw new InvalidInput("give --pretty or --json for the logs, not both");
  }
  const config = configFor(options);
  checkBoxWritable(config.boxDir);
  const made = isMissingOrEmpty(config.boxDir) ? await initBox(config.boxDir) : [];
  // Loaded here, not at start-up: the bot, the web server and the logger are heavy.
  const { createLogger, startService } = await import("../service.ts");
  const pretty = options.pretty ?? (!options.json && Boolean(process.stdout.isTTY));
  const logger = createLogger(config, { pretty });
  // Listen before starting: a signal during start-up (which may wait for a dead writer's
  // lock) stops the service once it is up, instead of killing it halfway.
  const signalled = new Promise<string>((resolve) => {
    process.once("SIGINT", () => resolve("SIGINT"));
    process.once("SIGTERM", () => resolve("SIGTERM"));
    endQuietlyWhenOutputCloses(() => resolve("output closed"));
  });
  const service = await startService({ config, logger });
  const lines = made.length ? [`new box ${config.boxDir}: ${made.join(", ")}`] : [];
  lines.push(...service.started);
  writeErr(`qbridge serve is running:\n${lines.map((l) => `  ${l}\n`).join("")}`);
  const failure = await untilStopped(service, signalled, logger);
  // A bridge that cannot go on (a BridgeFailed: a 409 conflict) ends serve with its sentence
  // and exit 78.
  if (failure) throw failure;
}

/** Stops the service at the first signal or failure; resolves with the failure, if one. */
function untilStopped(
  service: Service,
  signalled: Promise<string>,
  logger: Pick<Logger, "info" | "error">,
): Promise<Error | undefined> {
  return new Promise((resolve) => {
    const stop = (signal: string, error?: Error) => {
      logger.info({ signal }, "stopping");
      service.stop().then(
        () => resolve(error),
        (stopError) => {
          logger.error({ err: stopError }, "stopping failed");
          resolve(error);
        },
      );
    };
    void signalled.then((signal) => stop(signal));
    void service.failed.then((error) => stop("failure", error));
  });
}

/** Prints a one-time pairing code for the surface `--surface` names. */
async function pairAction(
  options: CommonOptions & { replace?: boolean; surface?: string } & Record<string, unknown>,
): Promise<void> {
  const send = sentTo(options);
  await withCore(options, async (core, config) => {
    // The code lives in the ledger; on a read-only box that is a copy in memory, and a code
    // kept there would be gone before anyone could send it.
    if (core.ledger.readOnly) {
      throw new BoxError(
        `${core.box.paths.root} is read-only: a pairing code is kept in the box's ledger, so pair needs a writable box; make it writable and try again`,
      );
    }
    const bridge = bridgeNamed(config, send?.surface ?? options.surface);
    const terms = bridge.pairing;
    if (send && !terms.deliver) {
      throw new InvalidInput(
        `the ${bridge.surface} bridge is off here, so the code cannot be sent to ${send.to}: ${bridge.offLine}`,
      );
    }
    const owners = new Owners(core.ledger.db);
    const bound = owners.get(bridge.surface);
    if (bound && !options.replace && !terms.fixedOwner) {
      throw new InvalidInput(
        `${terms.userName(bound.userId)} is the boxholder (paired ${bound.boundAt}): run "qbridge pair --replace" for a code that moves the bot to another account (they are told)`,
      );
    }
    const replace = options.replace === true;
    const { code, expiresAt } = owners.newPairingCode(bridge.surface, core.box.clock.now(), {
      replace,
    });
    const sent =
      send && terms.deliver
        ? await terms.deliver(code, send.to, (key, value) => core.ledger.setMeta(key, value))
        : undefined;
    if (options.json) return printJson({ code, surface: bridge.surface, expiresAt, replace });
    if (sent) writeOut(`${sent}.\n`);
    writeOut(
      `Pairing code: ${code}\n${terms.howToSend(code)}; valid until ${localTime(expiresAt)}, 10 minutes. It works once.\n`,
    );
    if (bound && replace && !terms.fixedOwner) {
      writeOut(
        `Whoever sends it becomes the boxholder instead of ${terms.userName(bound.userId)}, who is told in their chat.\n`,
      );
    }
    for (const note of terms.notes) writeErr(`note: ${note}\n`);
  });
}
