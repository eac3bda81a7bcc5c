// `qbridge ask`: its options, and once its command line is read, the card (from its flags, or
// the one JSON card on standard input with the flags beside it set on it), filed with its reply,
// printed.

import type { Command } from "commander";
import { INPUT_TYPES } from "../card/inputs/registry.ts";
import { InvalidInput } from "../errors.ts";
import { askWithReply } from "../questions/ask-reply.ts";
import { heldUntilOf } from "../slot/attention/held-until.ts";
import { type AskFlags, askInputFromFlags, jsonCardWithFlags, usesCardFlags } from "./ask-input.ts";
import { common } from "./box-options.ts";
import { type CommonOptions, printJson, withCore } from "./context.ts";
import { readStdin, writeErr, writeOut } from "./output.ts";

export type AskCommandOptions = CommonOptions &
  AskFlags & { unlessOpen?: boolean; callback?: string };

export async function askCommand(options: AskCommandOptions): Promise<void> {
  const given = usesCardFlags(options)
    ? askInputFromFlags(options)
    : jsonCardWithFlags(parseJsonCard(await readStdin()), options);
  const input =
    options.callback && given && typeof given === "object"
      ? { ...given, callback: options.callback }
      : given;
  await withCore(options, async (core, config) => {
    const context = { timeZone: config, heldUntil: heldUntilOf(core, config.attention) };
    const reply = await askWithReply(core, context, input, {
      unlessOpen: options.unlessOpen ?? false,
      via: "cli",
    });
    // The JSON is the core's reply without the commit (docs/AGENTS.md, `ask --json`).
    const { commit: _, ...shown } = reply;
    if (options.json) return printJson(shown);
    writeOut(reply.deduplicated ? `already open: ${reply.id}\n` : `asked ${reply.id}\n`);
    if (reply.hint) writeErr(`note: ${reply.hint}\n`);
    for (const like of reply.similar) {
      writeErr(
        `note: answered before (${like.answeredAt.slice(0, 10)}, ${like.id}): ${like.answer}\n`,
      );
    }
  });
}

function parseJsonCard(text: string): unknown {
  if (!text.trim()) {
    throw new InvalidInput(
      "ask needs --prompt (and --memo, --directive), or one JSON card on standard input",
    );
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new InvalidInput(
      `standard input is not JSON (${(error as Error).message}): send one card object`,
    );
  }
}

export function registerAskCommand(program: Command): void {
  common(program.command("ask"))
    .description(
      "file a question (flags, or one JSON card on standard input when --prompt is not given)",
    )
    .option("--prompt <text>", "the question itself")
    .option("--memo <text>", "why you ask: enough to answer without looking anything up")
    .option("--type <type>", `${INPUT_TYPES.join(", ")} (default: select with --option, else text)`)
    .option(
      "--option <choice>",
      'an option, "id=Label" or "Label" (repeat; select and multiselect only)',
      collect,
      [],
    )
    .option("--directive <text>", "what the answer unblocks")
    .option("--learning-sink <sink>", "where the learning goes: guide, briefing or personality")
    .option("--learning-ref <ref>", "the card the learning is recorded in (optional)")
    .option("--proposal <text>", "what the box will learn from the answer")
    .option("--context <ref>", 'material to read, "ref" or "ref=text" (repeat)', collect, [])
    .option(
      "--expires-after <duration>",
      "ISO-8601 duration overriding the 30-day expiry, e.g. P7D",
    )
    .option("--priority <level>", "high, medium or low (default medium)")
    .option(
      "--recommended <option>",
      "the option you recommend: its id or its label (yes or no for confirm)",
    )
    .option("--while-waiting <text>", "the safe action while no answer exists")
    .option("--irreversible", "the directive cannot be undone: a tap must be confirmed")
    .option("--task <id>", "an id of the asking system's task (repeat)", collect, [])
    .option("--asked-by <name>", "who asks (an agent's name)")
    .option("--id <id>", "the question id (default: date, prompt words and a random suffix)")
    .option("--unless-open", "file nothing when an open question has the same prompt; print its id")
    .option(
      "--callback <url>",
      "POST the outcome here on each change (signed; needs QBRIDGE_WEBHOOK_SECRET; docs/AGENTS.md)",
    )
    .addHelpText(
      "after",
      `
With a JSON card on standard input, the flags beside it that set one field (--priority, --id,
--asked-by, --expires-after, --task, --type, ...) are set on the card, over its own value.

Examples:
  qbridge ask --prompt "Where do receipts go?" --memo "A receipt arrived at intake." \\
    --option finance=Finance --option taxes=Taxes --directive "Move the receipt there."
  echo '{"prompt":"Delete old backups?","memo":"Disk is full.","input":{"type":"confirm"},"directive":"Delete them."}' | qbridge ask --json`,
    )
    .action(askCommand);
}

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}
