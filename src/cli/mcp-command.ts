// `qbridge mcp`: the box's MCP server over stdio, for a desktop or coding agent to start as a
// subprocess. stdout carries the protocol alone; logs and errors go to stderr.

import type { Command } from "commander";
import pino from "pino";
import { serveStdio } from "../mcp/stdio.ts";
import { heldUntilOf } from "../slot/attention/held-until.ts";
import { linkUrl, loadSecret } from "../web/links.ts";
import { type CommonOptions, withCore } from "./context.ts";

export function registerMcpCommand(program: Command): void {
  program
    .command("mcp")
    .option("--box <dir>", "the box directory (default: $QBRIDGE_BOX or ./box)")
    .description("serve the box's MCP tools (ask_human, get_answer, ...) over stdio")
    .addHelpText(
      "after",
      `
An agent starts this command itself; it speaks the Model Context Protocol on stdin/stdout
until the agent closes it. Questions it files reach the owner through "qbridge serve".
Over HTTP, the same tools are at /mcp on the web server (bearer QBRIDGE_API_TOKEN).

Example (register with an agent):
  qbridge mcp --box ~/box`,
    )
    .action(async (options: CommonOptions) => {
      await withCore(
        options,
        async (core, config) => {
          const logger = pino({ level: config.logLevel, base: undefined }, pino.destination(2));
          const publicUrl = config.web.publicUrl;
          // Links need the secret, and only links: a read-only box that was never served has
          // none and cannot make one, and still serves every read.
          let secret: Buffer | undefined;
          try {
            if (publicUrl) secret = loadSecret(core.box);
          } catch (error) {
            logger.warn({ err: error }, "no links in outcomes: the link secret cannot be made");
          }
          await serveStdio({
            core,
            timeZone: config,
            heldUntil: heldUntilOf(core, config.attention),
            logger,
            // Handed to an asker: the page shows the question and answers nothing.
            link: (id) =>
              secret &&
              linkUrl(publicUrl, secret, { question: id, role: "asker" }, core.box.clock.now()),
          });
        },
        true,
      );
    });
}
