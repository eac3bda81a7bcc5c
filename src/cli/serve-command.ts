// `qbridge serve`: the long-running service: every configured bridge, the web page and API,
// the aging sweep, until a signal or a bridge that cannot go on stops it.

import { existsSync, readdirSync } from "node:fs";
import type { Command } from "commander";
import type { Logger } from "pino";
import { initBox } from "../box/box.ts";
import { InvalidInput } from "../errors.ts";
import { createLogger, type Service, startService } from "../service.ts";
import { checkBoxWritable } from "./box-check.ts";
import { bridgeHelp } from "./bridges.ts";
import { type CommonOptions, configFor } from "./context.ts";
import { endQuietlyWhenOutputCloses, writeErr } from "./output.ts";

function isMissingOrEmpty(dir: string): boolean {
  return !existsSync(dir) || readdirSync(dir).length === 0;
}

export function registerServeCommand(program: Command): void {
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

/** Runs the service until a signal, closed output or a bridge that cannot go on stops it. */
async function serveAction(options: CommonOptions & { pretty?: boolean }): Promise<void> {
  if (options.pretty && options.json) {
    throw new InvalidInput("give --pretty or --json for the logs, not both");
  }
  const config = configFor(options);
  checkBoxWritable(config.boxDir);
  const made = isMissingOrEmpty(config.boxDir) ? await initBox(config.boxDir) : [];
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
