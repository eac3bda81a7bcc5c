// `qbridge link ID`: a fresh signed link to a question's page, the questions page or the stats
// page.

import type { Command } from "commander";
import type { Config } from "../config.ts";
import { InvalidInput } from "../errors.ts";
import { loadQuestion } from "../questions/store.ts";
import { linkSecretIfAny, noLinkSecret } from "../web/link-secret.ts";
import {
  LINK_LIFETIME_MS,
  type LinkScope,
  linkUrl,
  loadSecret,
  noLinkAddress,
} from "../web/links.ts";
import { common } from "./box-options.ts";
import { type CommonOptions, printJson, withCore } from "./context.ts";
import { writeErr, writeOut } from "./output.ts";
import { resolveIdArgument } from "./question-ids.ts";

/**
 * Links point at the public URL; without one, at the address the web page listens on, unless
 * that is every address (0.0.0.0, as in the container): a link there opens nothing, so none.
 */
function linkBase(config: Config): { base: string; configured: boolean } {
  if (config.web.publicUrl) return { base: config.web.publicUrl, configured: true };
  const refused = noLinkAddress(config.web);
  if (refused) throw new InvalidInput(refused);
  const host = config.web.host.includes(":") ? `[${config.web.host}]` : config.web.host;
  return { base: `http://${host}:${config.web.port}`, configured: false };
}

/** Registers `qbridge link`. */
export function registerLinkCommand(program: Command): void {
  common(program.command("link").argument("[id]", "the question id"))
    .description("print a fresh signed link to a question's page (valid 7 days)")
    .option("--questions", "a link to the questions page instead")
    .option("--stats", "a link to the stats page (charts of answers and answer times) instead")
    .addHelpText(
      "after",
      `
Links use QBRIDGE_PUBLIC_URL; without it, the local address of the web page. When the page
listens on every address (QBRIDGE_WEB_HOST=0.0.0.0, as in the container), QBRIDGE_PUBLIC_URL
must be set: a link to 0.0.0.0 opens nothing.

Examples:
  qbridge link 2026-07-10-where-do-receipts-go-3fa2c1
  qbridge link --questions --json
  qbridge link --stats`,
    )
    .hook("preAction", resolveIdArgument)
    .action(linkAction);
}

/** `qbridge link`: prints a fresh signed link to one question, the questions or the stats page. */
async function linkAction(
  id: string | undefined,
  options: CommonOptions & { questions?: boolean; stats?: boolean },
): Promise<void> {
  const targets = [id !== undefined, options.questions === true, options.stats === true];
  if (!targets.some(Boolean)) {
    throw new InvalidInput(
      "link needs a question id, --questions for the questions page or --stats for the stats page",
    );
  }
  if (targets.filter(Boolean).length > 1) {
    throw new InvalidInput("give one of a question id, --questions or --stats, not several");
  }
  await withCore(options, async (core, config) => {
    if (id) loadQuestion(core, id);
    // Printed where agents read too: a link handed to an asker shows and answers nothing.
    const scope: LinkScope = id
      ? { question: id, role: "asker" }
      : { page: options.stats ? "stats" : "questions", role: "asker" };
    const now = core.box.clock.now();
    const { base, configured } = linkBase(config);
    const secret = linkSecretIfAny(() => loadSecret(core.box));
    if (!secret) throw noLinkSecret(core.box);
    const url = linkUrl(base, secret, scope, now) as string;
    const expires = new Date(
      Math.floor((now.getTime() + LINK_LIFETIME_MS) / 1000) * 1000,
    ).toISOString();
    if (options.json) return printJson({ url, expires, publicUrl: configured });
    writeOut(`${url}\n`);
    if (!configured) {
      writeErr(
        `QBRIDGE_PUBLIC_URL is not set: this link uses ${base} (QBRIDGE_WEB_HOST and QBRIDGE_WEB_PORT): if the page runs with --host or --port, set those to match\n`,
      );
    }
  });
}
