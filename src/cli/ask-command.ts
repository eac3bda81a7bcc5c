// `qbridge ask` once its command line is read: the card (from its flags, or the one JSON card
// on standard input with the flags beside it set on it), filed with its reply, printed.

import { InvalidInput } from "../errors.ts";
import { askWithReply } from "../questions/ask-reply.ts";
import { heldUntilOf } from "../slot/attention/held-until.ts";
import { type AskFlags, askInputFromFlags, jsonCardWithFlags, usesCardFlags } from "./ask-input.ts";
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
