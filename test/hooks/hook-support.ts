// What the hook tests stand on: the documented hook inputs (fixtures/, each citing its page in
// fixtures/README.md), the documented outputs written as zod, a hook run as the real `qbridge
// hook …` child process the agent would start, and the question it files as the phone shows
// it (the slot watching the box as `qbridge serve` does, presenting on the Telegram emulator).
// A hook files only when somebody can be reached: each hook started here finds this test process
// standing in for the boxholder's surface (it answers through the core, the web page or the
// bot itself), as the presence record a running service keeps would say (src/slot/presence.ts).

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { BoxPaths } from "../../src/box/paths.ts";
import { hookLifetime } from "../../src/hooks/lifetime.ts";
import { runPermissionHook } from "../../src/hooks/permission-hook.ts";
import { answerQuestion } from "../../src/questions/answer.ts";
import type { Core } from "../../src/questions/core.ts";
import { pendingQuestions, type QuestionView } from "../../src/questions/state.ts";
import { holdPresence, type Presence } from "../../src/slot/presence.ts";
import { cliEnv, ROOT, T0 } from "../support/box.ts";
import { type Child, eventually, qbridge } from "../support/child.ts";
import { type BotMessage, type Harness, toBotMessage } from "../support/telegram.ts";

const FIXTURES = join(ROOT, "test/hooks/fixtures");

/** A documented hook input, as text, with top-level fields replaced where a story needs to. */
export function fixture(name: string, overrides: Record<string, unknown> = {}): string {
  const input = JSON.parse(readFileSync(join(FIXTURES, `${name}.json`), "utf8"));
  return JSON.stringify({ ...input, ...overrides });
}

export {
  ClaudePermissionOutput,
  CodexPermissionOutput,
  ElicitationOutput,
} from "./agent-outputs.ts";

/** The test process's presence per box: kept until the process ends (the box goes first). */
const standIns = new Map<string, Promise<Presence>>();

/** This test process stands in for a surface that delivers the box's questions. */
export function standIn(dir: string): Promise<Presence> {
  let held = standIns.get(dir);
  if (!held) {
    const presence = holdPresence(new BoxPaths(dir).locksDir, () => undefined);
    held = presence.update(["test stand-in"]).then(() => presence);
    standIns.set(dir, held);
  }
  return held;
}

/**
 * `qbridge hook <kind> --box DIR …` as the agent starts it, the input written and closed once
 * somebody can be reached (standIn; `reachable: false` leaves the box with nobody).
 */
export function startHook(
  kind: "permission" | "elicitation",
  dir: string,
  input: string,
  args: string[] = [],
  options: { reachable?: boolean } = {},
): Child {
  const child = qbridge(["hook", kind, "--box", dir, ...args], {
    cwd: dir,
    env: cliEnv(dir, { QBRIDGE_TIME: T0 }),
  });
  const ready = options.reachable === false ? Promise.resolve() : standIn(dir);
  const write = () => {
    child.type(input);
    child.endInput();
  };
  ready.then(write, write);
  return child;
}

/** What the hook printed on stdout, parsed; undefined when it printed nothing. */
export function printed(child: Child): unknown {
  const text = child.stdout().trim();
  return text === "" ? undefined : JSON.parse(text);
}

/** The message the bot sent for the question whose prompt starts so (the slot watches). */
export async function shown(h: Harness, prompt: string): Promise<BotMessage> {
  return eventually(
    () => {
      const call = h.calls.find(
        (c) => c.method === "sendMessage" && c.result && String(c.payload.text).includes(prompt),
      );
      return call ? toBotMessage(call) : undefined;
    },
    20_000,
    `the question "${prompt}" on Telegram`,
  );
}

/** The buttons of the last keyboard the bot put on a message (the confirming step). */
export function lastKeyboard(
  h: Harness,
  messageId: number,
): { text: string; callback_data: string }[] {
  const edit = h
    .sent("editMessageReplyMarkup")
    .filter((c) => c.payload.message_id === messageId)
    .at(-1);
  const markup = edit?.payload.reply_markup as
    | { inline_keyboard: { text: string; callback_data: string }[][] }
    | undefined;
  return markup?.inline_keyboard.flat() ?? [];
}

/** Taps an option of an irreversible question, then its "Confirm" button. */
export async function tapConfirmed(h: Harness, message: BotMessage, data: string): Promise<void> {
  await h.owner.tap(data, message.messageId);
  await h.pump();
  const confirm = lastKeyboard(h, message.messageId).find((b) => b.text.includes("Confirm"));
  if (!confirm) throw new Error("the bot showed no Confirm button");
  await h.owner.tap(confirm.callback_data, message.messageId);
  await h.pump();
}

/** The edit the bot made of a message, once it says `text` (the slot watches the box). */
export async function editedTo(h: Harness, messageId: number, text: string): Promise<string> {
  return eventually(
    () =>
      h
        .sent("editMessageText")
        .map((c) => (c.payload.message_id === messageId ? String(c.payload.text) : ""))
        .find((edit) => edit.includes(text)),
    20_000,
    `the message edited to say "${text}"`,
  );
}

/** A hook run in this process (no child): what it printed once it ends, and how to wait. */
export interface InProcessHook {
  /** Settles with what the hook printed (undefined: nothing) once it has ended. */
  done: Promise<Record<string, unknown> | undefined>;
}

/** `qbridge hook permission` in process, on `core`, with `input` as its standard input. */
export function permissionHookInProcess(
  core: Core,
  input: string,
  options: { home?: string; timeoutSeconds?: number } = {},
): InProcessHook {
  let printed: Record<string, unknown> | undefined;
  const timeoutSeconds = options.timeoutSeconds ?? 600;
  const lifetime = hookLifetime(timeoutSeconds);
  const done = standIn(core.box.paths.root)
    .then(() =>
      runPermissionHook(core, input, {
        timeoutSeconds,
        lifetime,
        home: options.home ?? "/home/ada",
        print: (value) => {
          printed = value;
        },
        tell: () => undefined,
      }),
    )
    .then(() => printed)
    .finally(() => lifetime.dispose());
  return { done };
}

/** The one pending question of the box, once the hook has filed it. */
export async function filedQuestion(core: Core): Promise<QuestionView> {
  return eventually(
    () => pendingQuestions(core).pending[0],
    20_000,
    "the hook's question in the box",
  );
}

/** Answers the box's pending question with an option, as a Telegram tap would record it. */
export async function pick(core: Core, option: string): Promise<QuestionView> {
  const view = await filedQuestion(core);
  await answerQuestion(core, view.id, { text: option, option }, { via: "telegram", by: "1001" });
  return view;
}
