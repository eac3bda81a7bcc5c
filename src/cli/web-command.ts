// `qbridge web`: the web page and the JSON API alone (no bridge, no aging sweep).

import type { Command } from "commander";
import pino from "pino";
import { serveMcp } from "../mcp/http.ts";
import { pagesOff } from "../web/link-secret.ts";
import { startWeb } from "../web/server.ts";
import { common } from "./box-options.ts";
import { type CommonOptions, printJson, withCore } from "./context.ts";
import { writeOut } from "./output.ts";

/** Registers `qbridge web`. */
export function registerWebCommand(program: Command): void {
  common(program.command("web"))
    .description("run the web page and the JSON API alone (no Telegram, no aging sweep)")
    .option("--host <host>", "listen on this address (default: $QBRIDGE_WEB_HOST or 127.0.0.1)")
    .option(
      "--port <port>",
      "listen on this port, 0 for any free one (default: $QBRIDGE_WEB_PORT or 8787)",
    )
    .addHelpText(
      "after",
      `
The API under /api/v1 is on only when QBRIDGE_API_TOKEN is set. Open questions through
signed links: qbridge link ID, or qbridge link --questions. Stop with Ctrl-C.

Examples:
  QBRIDGE_API_TOKEN=$(openssl rand -hex 24) qbridge web --box ~/box
  qbridge web --box ~/box --port 0 --json`,
    )
    .action(webAction);
}

/** `qbridge web`: serves the web page and the API until SIGINT or SIGTERM. */
async function webAction(options: CommonOptions): Promise<void> {
  await withCore(
    options,
    async (core, config) => {
      const logger = pino({ level: config.logLevel }, pino.destination(2));
      const web = await startWeb({ core, config, logger, mcp: serveMcp });
      const api = config.apiToken ? "on" : "off (set QBRIDGE_API_TOKEN to turn it on)";
      if (options.json) {
        printJson({ url: web.url, api: Boolean(config.apiToken), pages: web.pages });
      } else {
        const pages = web.pages ? "" : `pages off: ${pagesOff(core.box)}\n`;
        writeOut(`web page on ${web.url}\nAPI ${api}\n${pages}`);
      }
      await new Promise<void>((resolve) => {
        process.once("SIGINT", resolve);
        process.once("SIGTERM", resolve);
      });
      await web.close();
    },
    true,
  );
}
