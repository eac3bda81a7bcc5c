// `qbridge ask` once its command line is read: the card (from its flags, or the one JSON card
// on standard input with the flags beside it set on it), filed with its reply, printed. The
// full CLI's `ask` (question-commands.ts) and the lean bundle's plain `ask --json` (short.ts)
// both run this, so an agent sees the same reply and the same errors from either.

import { InvalidInput } from "../errors.ts";
import { type AskFlags, askInputFromFlags, jsonCardWithFlags, usesCardFlags } from "./ask-input.ts";
import { askWithReply } from "./ask-reply.ts";
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
    const { result, reply: advice } = await askWithReply(core, config, input, {
      unlessOpen: options.unlessOpen ?? false,
      via: "cli",
    });
    if (options.json)
      return printJson({
        id: result.id,
        deduplicated: result.deduplicated,
        card: result.card,
        ...advice,
      });
    writeOut(result.deduplicated ? `already open: ${result.id}\n` : `asked ${result.id}\n`);
    if (advice.hint) writeErr(`note: ${advice.hint}\n`);
    for (const like of advice.similar) {
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
