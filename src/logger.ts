// The service's logger: pino, as JSON lines (for journald) or human-readable at a terminal,
// with every configured secret blanked out of every line, the core's and each bridge's (a
// bridge declares its own).

import pino, { type Logger } from "pino";
import pretty from "pino-pretty";
import type { Config } from "./config.ts";

/** The secret settings: the API token, the webhook signing secret, each bridge's own. */
function secretsOf(config: Config): string[] {
  return [config.apiToken, config.webhooks.secret, ...config.bridges.flatMap((b) => b.secrets)]
    .filter((s): s is string => Boolean(s))
    .flatMap((s) => [s, encodeURIComponent(s)]);
}

export function createLogger(config: Config, options: { pretty?: boolean } = {}): Logger {
  const secrets = secretsOf(config);
  const out = options.pretty
    ? pretty({
        colorize: process.stdout.isTTY,
        destination: 1,
        sync: true,
      })
    : process.stdout;
  const scrub = (line: string) =>
    secrets.reduce((text, secret) => text.split(secret).join("[secret]"), line);
  return pino(
    { level: config.logLevel, base: undefined },
    { write: (line: string) => out.write(scrub(line)) },
  );
}
