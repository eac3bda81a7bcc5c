// What every command gets: the validated config (with --box applied) and, when it needs one,
// the opened core. Output goes through here so --json is handled the same way everywhere.

import { maskingCallbacks } from "../card/mask-url.ts";
import { type Config, loadConfig } from "../config.ts";
import type { Core } from "../questions/core.ts";
import { openCore } from "../questions/open.ts";
import { oweWebhooks } from "../webhooks/owe.ts";
import { BRIDGES } from "./bridges.ts";
import { environmentWith } from "./env-file.ts";
import {
  endQuietlyWhenOutputCloses,
  rewriteErrLine,
  stderrIsTerminal,
  writeErr,
  writeOut,
} from "./output.ts";

export interface CommonOptions {
  box?: string;
  json?: boolean;
  /** The flags some commands add to the settings (web, serve, chat); checked by the schema. */
  host?: string;
  port?: string;
  watchMs?: string;
  /** A service's env file to read settings from as well (`doctor --service-env`). */
  serviceEnv?: string;
}

/** The settings read for each command's options: read once, though the id resolution and the
 * command both ask (the process's environment does not change while it runs). */
const configs = new WeakMap<CommonOptions, Config>();

/**
 * The settings with this command's flags applied, the core's and every listed bridge's, every
 * problem of any of them reported at once.
 */
export function configFor(options: CommonOptions): Config {
  let config = configs.get(options);
  if (config === undefined) {
    const { box, host, port, watchMs } = options;
    config = loadConfig(environmentWith(options.serviceEnv), { box, host, port, watchMs }, BRIDGES);
    configs.set(options, config);
  }
  return config;
}

/** Runs `fn` with the core open, closing the ledger afterwards. `lasting`: the command runs
 * until stopped (web, chat, mcp), and its git is made for that (see openBox). */
export async function withCore<T>(
  options: CommonOptions,
  fn: (core: Core, config: Config) => Promise<T>,
  lasting = false,
): Promise<T> {
  const config = configFor(options);
  // A command that runs until stopped writes through node's streams (its log, a chat).
  if (lasting) endQuietlyWhenOutputCloses();
  const core = openCore(config, {
    owe: oweWebhooks,
    lasting,
    onSetAside: (notice) => writeErr(`qbridge: ${notice}\n`),
  });
  try {
    return await fn(core, config);
  } finally {
    core.close();
  }
}

/** JSON for standard output; a callback URL in it is shown masked (src/card/mask-url.ts). */
export function printJson(value: unknown): void {
  writeOut(`${JSON.stringify(value, maskingCallbacks, 2)}\n`);
}

/** Progress on a terminal only: piped output stays clean. */
export function progress(label: string): ((done: number, total: number) => void) | undefined {
  if (!stderrIsTerminal()) return undefined;
  let last = 0;
  return (done, total) => {
    const now = Date.now();
    if (done < total && now - last < 100) return;
    last = now;
    rewriteErrLine(`${label} ${done}/${total}${done === total ? "\n" : ""}`);
  };
}
