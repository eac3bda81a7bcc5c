// `qbridge chat`: answer at the keyboard through the terminal bridge, with its own slot on the
// box. The slot's claim lives in the ledger, so a `qbridge serve` presenting on Telegram and
// this chat take turns: whichever claims the slot first shows the question. The chat's claim
// lives with its process: quitting gives it up, and a killed chat's is taken over.

import { userInfo } from "node:os";
import type { Command } from "commander";
import { createTerminalBridge } from "../../bridges/terminal/chat.ts";
import { SURFACE, TERMINAL } from "../../bridges/terminal/presenter.ts";
import { openDoor } from "../slot/door.ts";
import { createSlot } from "../slot/slot.ts";
import { type CommonOptions, withCore } from "./context.ts";

function loginName(): string | undefined {
  try {
    return userInfo().username || undefined;
  } catch {
    return undefined;
  }
}

/** Registers `qbridge chat`. */
export function registerChatCommand(program: Command): void {
  program
    .command("chat")
    .description("answer questions at the keyboard, one at a time (the terminal bridge)")
    .option("--box <dir>", "the box directory (default: $QBRIDGE_BOX or ./box)")
    .option(
      "--watch-ms <ms>",
      "how often to look for questions filed meanwhile, 100 to 60000 (default: 1000)",
    )
    .addHelpText(
      "after",
      `
Type a letter or a label (select), letters or labels separated by commas (multiselect: "a, c"),
yes or no (confirm), or your own words (text); "Label - note" adds a note. Typed at a terminal,
the keys are the boxholder's; piped in (printf ... | qbridge chat), they answer ordinary
questions only, never a question a coding agent's hook filed. Commands: park, dismiss, later, extend, same, next, waiting, accept, record, help,
quit (or Ctrl-D); help in the chat says what each does. Answers are
recorded with answered-via: terminal, exactly as from Telegram: one commit and a follow-up job.

With "qbridge serve" on the same box: one question is shown at a time across both. When serve
presents on Telegram, that question is answered there (chat says so and records nothing); chat
takes the next question the slot is free for. Serve without a bot token presents nothing, so
chat shows every question. The question a chat shows is held only while that chat runs: after
quit (or when the chat is killed) the next chat, or serve on Telegram, shows it again.

Examples:
  qbridge chat --box ~/box
  printf 'b\\nquit\\n' | qbridge chat --box ~/box`,
    )
    .action(chatAction);
}

/** `qbridge chat`: runs the terminal bridge with its own slot until quit or end of input. */
async function chatAction(options: CommonOptions): Promise<void> {
  await withCore(
    options,
    async (core, config) => {
      // No quiet hours here: whoever runs a chat sits at it, and nothing rings.
      const slot = createSlot({ core });
      // The bridge reads off the streams whether a person types (both are terminals) or not.
      const bridge = createTerminalBridge({
        door: openDoor(slot, TERMINAL),
        input: process.stdin,
        output: process.stdout,
        login: loginName(),
      });
      process.stdout.write(
        `qbridge chat on ${core.box.paths.root}: type help for how to answer, quit to leave.\n`,
      );
      try {
        // The open question is on screen before the first typed line is read: one this chat
        // presents now, or one a chat that quit or was killed left open, taken over and shown
        // again here.
        await slot.reconcile();
        const open = slot.current();
        if (open && !slot.mine(open)) {
          process.stdout.write(
            open.surface === SURFACE
              ? "The open question is shown in another qbridge chat: answer it there; the next one free comes here.\n"
              : `The open question is shown on ${open.surface} by another process: answer it there; the next one free comes here.\n`,
          );
        } else if (slot.waiting().count === 0) {
          process.stdout.write(
            "Nothing is waiting on you. New questions appear here as they are filed.\n",
          );
        }
        slot.watch(config.watchMs);
        await bridge.run();
      } finally {
        await slot.close();
      }
    },
    true,
  );
}
