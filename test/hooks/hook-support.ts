// What the hook tests stand on: the documented hook inputs (fixtures/, each citing its page in
// fixtures/README.md), the documented outputs written as zod, a hook run as the real `qbridge
// hook …` child process the agent would start, and the question it files as the phone shows
// it (the slot watching the box as `qbridge serve` does, presenting on the Telegram emulator).

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { runPermissionHook } from "../../src/hooks/permission-hook.ts";
import { answerQuestion } from "../../src/questions/answer.ts";
import type { Core } from "../../src/questions/core.ts";
import { pendingQuestions, type QuestionView } from "../../src/questions/state.ts";
import { cliEnv, ROOT, T0 } from "../support/box.ts";
import { type Child, eventually, qbridge } from "../support/child.ts";
import { type BotMessage, type Harness, toBotMessage } from "../support/telegram.ts";

const FIXTURES = join(ROOT, "test/hooks/fixtures");

/** A documented hook input, as text, with top-level fields replaced where a story needs to. */
export function fixture(name: string, overrides: Record<string, unknown> = {}): string {
  const input = JSON.parse(readFileSync(join(FIXTURES, `${name}.json`), "utf8"));
  return JSON.stringify({ ...input, ...overrides });
}

// Claude Code's PermissionRequest decision control (code.claude.com/docs/en/hooks): allow with
// updatedInput / updatedPermissions (permission update entries), or deny with a message and
// an optional interrupt.
const PermissionUpdate = z
  .object({
    type: z.enum([
      "addRules",
      "replaceRules",
      "removeRules",
      "setMode",
      "addDirectories",
      "removeDirectories",
    ]),
    destination: z.enum(["session", "localSettings", "projectSettings", "userSettings"]),
  })
  .passthrough();
export const ClaudePermissionOutput = z
  .object({
    hookSpecificOutput: z
      .object({
        hookEventName: z.literal("PermissionRequest"),
        decision: z.union([
          z
            .object({
              behavior: z.literal("allow"),
              updatedInput: z.record(z.unknown()).optional(),
              updatedPermissions: z.array(PermissionUpdate).optional(),
            })
            .strict(),
          z
            .object({
              behavior: z.literal("deny"),
              message: z.string().min(1),
              interrupt: z.boolean().optional(),
            })
            .strict(),
        ]),
      })
      .strict(),
  })
  .strict();

// Codex's permission-request.command.output.schema.json (additionalProperties: false), less
// what it fails closed on (output_parser.rs): updatedInput, updatedPermissions, interrupt.
export const CodexPermissionOutput = z
  .object({
    hookSpecificOutput: z
      .object({
        hookEventName: z.literal("PermissionRequest"),
        decision: z
          .object({ behavior: z.enum(["allow", "deny"]), message: z.string().optional() })
          .strict(),
      })
      .strict(),
  })
  .strict();

// Claude Code's Elicitation output: action accept|decline|cancel, content for accept.
export const ElicitationOutput = z
  .object({
    hookSpecificOutput: z
      .object({
        hookEventName: z.literal("Elicitation"),
        action: z.enum(["accept", "decline", "cancel"]),
        content: z.record(z.unknown()).optional(),
      })
      .strict(),
  })
  .strict();

/** `qbridge hook <kind> --box DIR …` as the agent starts it, the input written and closed. */
export function startHook(
  kind: "permission" | "elicitation",
  dir: string,
  input: string,
  args: string[] = [],
): Child {
  const child = qbridge(["hook", kind, "--box", dir, ...args], {
    cwd: dir,
    env: cliEnv(dir, { QBRIDGE_TIME: T0 }),
  });
  child.type(input);
  child.endInput();
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
  const done = runPermissionHook(core, input, {
    timeoutSeconds: options.timeoutSeconds ?? 600,
    home: options.home ?? "/home/ada",
    print: (value) => {
      printed = value;
    },
  }).then(() => printed);
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
