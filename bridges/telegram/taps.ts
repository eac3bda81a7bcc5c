// A tap on a button. The checks run in DESIGN.md's order, each failure changing nothing but
// the answer to the callback: the token is known; the sender is the boxholder; the token was
// not used already (then its reply is replayed); the chat and message match; the presentation
// is current; the question is still pending; its card hash is unchanged. Only then the answer
// through the slot, the ledger record, and THEN answerCallbackQuery, the edit and the next
// question. A callback delivered again (a redelivery that missed the processed-update mark) needs
// no replay of its own: a used token replays its reply, a closed presentation refuses, and a
// card already answered by this tap is confirmed from the card; none can act twice.

import type { Api, Context } from "grammy";
import { questionFingerprint } from "../../src/card/load.ts";
import type { Question } from "../../src/card/question.ts";
import { CardChanged } from "../../src/errors.ts";
import { safeAudit } from "../../src/questions/audit.ts";
import { loadQuestion } from "../../src/questions/store.ts";
import { closureOf } from "../../src/slot/closure.ts";
import type { Presentation } from "../../src/slot/presentations.ts";
import type { Slot, SlotOps } from "../../src/slot/slot.ts";
import type { ButtonToken } from "../../src/slot/tokens.ts";
import type { Access } from "./access.ts";
import { answerLayout, confirmLayout, NO_BUTTONS } from "./keyboard.ts";
import { MAX_CALLBACK_ANSWER_CHARS } from "./limits.ts";
import { isNotModified, SURFACE } from "./presenter.ts";
import { replyForError } from "./replies.ts";

export interface TapDeps {
  api: Api;
  slot: Slot;
  access: Access;
  link: (questionId: string) => string | undefined;
  /** Told the moment the callback is acknowledged (for the latency bench). */
  onAcknowledged?: (callbackId: string) => void;
}

/** What a handled tap did: its outcome name, the reply shown, and the work left after the ack. */
interface Handled {
  outcome: string;
  reply: string;
  after?: () => Promise<void>;
}

export const TAP_REPLIES = {
  unknown: "This button is not known here (it may be from before a reset). Nothing was done.",
  elsewhere: "This button does not belong to this message. Nothing was done.",
  other: 'Reply to the question with your own words, e.g. "Other - in the shoebox".',
};

export function createTapHandler(deps: TapDeps) {
  const { api, slot, access } = deps;
  const now = () => slot.core.box.clock.iso();

  async function acknowledge(ctx: Context, text: string): Promise<void> {
    await ctx.answerCallbackQuery({ text: text.slice(0, MAX_CALLBACK_ANSWER_CHARS) });
    deps.onAcknowledged?.(ctx.callbackQuery?.id ?? "");
  }

  async function dropButtons(token: ButtonToken): Promise<void> {
    if (token.messageId === undefined) return;
    try {
      await api.editMessageReplyMarkup(token.chatId, Number(token.messageId), {
        reply_markup: NO_BUTTONS,
      });
    } catch (error) {
      if (!isNotModified(error)) throw error;
    }
  }

  function loadCard(id: string): Question | undefined {
    try {
      return loadQuestion(slot.core, id).card;
    } catch {
      return undefined;
    }
  }

  async function decide(ctx: Context, token: ButtonToken, ops: SlotOps): Promise<Handled> {
    const userId = String(ctx.from?.id);
    const message = ctx.callbackQuery?.message;
    if (
      !message ||
      String(message.chat.id) !== token.chatId ||
      String(message.message_id) !== token.messageId
    ) {
      return { outcome: "refused:elsewhere", reply: TAP_REPLIES.elsewhere };
    }

    if (token.action === "show") {
      const card = loadCard(token.questionId);
      if (card?.status !== "pending") {
        return {
          outcome: "refused:closed",
          reply: `That question is ${closureOf(card).text}.`,
          after: () => dropButtons(token),
        };
      }
      return {
        outcome: "show",
        reply: "Here it is.",
        after: async () => {
          await ops.show(token.questionId);
        },
      };
    }

    const open = ops.current();
    if (!open || open.seq !== token.presentationSeq) {
      // This very tap already answered it: a redelivery after a restart cut the handling
      // short between the commit and the record. Confirm what was recorded.
      const card = loadCard(token.questionId);
      if (
        (token.action === "answer" || token.action === "confirm") &&
        card?.status === "answered" &&
        card["answered-via"] === SURFACE &&
        card["answered-by"] === userId &&
        card.answer !== undefined &&
        (token.optionId === undefined
          ? card.answer.text === token.label
          : card.answer.selected === token.optionId)
      ) {
        return {
          outcome: "replayed",
          reply: `✅ Recorded: ${card.answer.text}`,
          after: () => dropButtons(token),
        };
      }
      const then = token.presentationSeq
        ? slot.presentations.get(token.presentationSeq)
        : undefined;
      return {
        outcome: "refused:not-current",
        reply: `This question is no longer open here${then?.outcome ? `: ${then.outcome}` : ""}. Nothing was done.`,
        after: () => dropButtons(token),
      };
    }

    const card = loadCard(token.questionId);
    if (card?.status !== "pending") {
      const closure = await ops.closeIfStale(open);
      return {
        outcome: "refused:closed",
        reply: `Not recorded: this question was ${closure?.text ?? closureOf(card).text} meanwhile.`,
        after: () => ops.fill().then(() => undefined),
      };
    }
    if (questionFingerprint(card) !== token.cardHash) {
      await ops.closeIfStale(open);
      return {
        outcome: "refused:changed",
        reply: "Not recorded: this question was edited since it was shown. Here it is again.",
        after: () => ops.fill().then(() => undefined),
      };
    }

    const surface = { via: SURFACE, by: userId };
    switch (token.action) {
      case "park":
        return {
          outcome: "parked",
          reply: "Parked: it stays pending behind the queue.",
          after: async () => {
            await ops.park();
          },
        };
      case "dismiss": {
        const { closed } = await ops.dismiss(token.questionId, surface);
        return finished(open, "dismissed", "Dismissed (it stays answerable later).", closed, ops);
      }
      case "back": {
        if (token.optionId === undefined) {
          // The confirming step of typed words: nothing is recorded, the question stays open.
          return {
            outcome: "words-dropped",
            reply: `Not recorded: "${token.label ?? ""}". Reply with your answer.`,
            after: () => dropButtons(token),
          };
        }
        return {
          outcome: "back",
          reply: "Back to the choices.",
          after: () => restoreKeyboard(token, card),
        };
      }
      case "answer":
        if (token.optionId === "_other") {
          return { outcome: "needs-words", reply: TAP_REPLIES.other };
        }
        if (card.irreversible) {
          return {
            outcome: "confirm-asked",
            reply: `Confirm ${token.label}? It cannot be undone.`,
            after: () => askConfirm(token),
          };
        }
        return answer(open, token, ops, surface);
      case "confirm": {
        const handled = await answer(open, token, ops, surface);
        if (token.optionId !== undefined || handled.outcome !== "answered") return handled;
        // Confirmed typed words: their confirming message loses its buttons too.
        return {
          ...handled,
          after: async () => {
            await handled.after?.();
            await dropButtons(token);
          },
        };
      }
    }
  }

  async function answer(
    open: Presentation,
    token: ButtonToken,
    ops: SlotOps,
    surface: { via: string; by: string },
  ): Promise<Handled> {
    let answered: Awaited<ReturnType<SlotOps["answer"]>>;
    try {
      // The fingerprint is checked again inside the question's lock: an edit that lands
      // between the checks above and the transition still refuses the tap.
      // A confirmed option answers with its id; confirmed typed words (no option) with the words.
      const text = token.optionId ?? token.label ?? "";
      answered = await ops.answer(token.questionId, { text }, surface, {
        fingerprint: token.cardHash,
      });
    } catch (error) {
      if (!(error instanceof CardChanged)) throw error;
      await ops.closeIfStale(open);
      return {
        outcome: "refused:changed",
        reply: "Not recorded: this question was edited since it was shown. Here it is again.",
        after: () => ops.fill().then(() => undefined),
      };
    }
    const { result, closed } = answered;
    return finished(open, "answered", `✅ Recorded: ${result.answer.text}`, closed, ops);
  }

  function finished(
    open: Presentation,
    outcome: string,
    reply: string,
    closed: Presentation | undefined,
    ops: SlotOps,
  ): Handled {
    slot.tokens.markPresentationUsed(open.seq, reply, now());
    return { outcome, reply, after: () => ops.settle(closed) };
  }

  /** Replaces the buttons of the tapped message with a new layout, minted for the same presentation. */
  async function relayout(
    token: ButtonToken,
    layout: ReturnType<typeof answerLayout>,
  ): Promise<void> {
    const { presentationSeq, questionId, cardHash } = token;
    const tokens = slot.tokens.mint(
      { presentationSeq, questionId, cardHash },
      token.chatId,
      layout.specs,
      now(),
    );
    slot.tokens.sentIn(tokens, token.messageId as string);
    await api.editMessageReplyMarkup(token.chatId, Number(token.messageId), {
      reply_markup: layout.build(tokens),
    });
  }

  function askConfirm(token: ButtonToken): Promise<void> {
    return relayout(token, confirmLayout(token.optionId ?? "", token.label ?? ""));
  }

  function restoreKeyboard(token: ButtonToken, card: Question): Promise<void> {
    return relayout(token, answerLayout(card, deps.link(token.questionId)));
  }

  function audit(ctx: Context, token: ButtonToken | undefined, handled: Handled): void {
    safeAudit(slot.core, {
      at: now(),
      questionId: token?.questionId,
      surface: SURFACE,
      actor: ctx.from ? String(ctx.from.id) : undefined,
      action: `tap:${token?.action ?? "unknown"}`,
      verbatim: token?.label,
      outcome: handled.outcome,
      detail: handled.reply,
    });
  }

  return async function handleTap(ctx: Context): Promise<void> {
    const query = ctx.callbackQuery;
    if (!query) return;
    await slot.exclusive(async (ops) => {
      const token = query.data ? slot.tokens.get(query.data) : undefined;
      if (!token) {
        const handled = { outcome: "refused:unknown-token", reply: TAP_REPLIES.unknown };
        audit(ctx, undefined, handled);
        await acknowledge(ctx, handled.reply);
        return;
      }
      if (!access.isBoxholder(ctx)) {
        await access.refuse(ctx, "a tap from someone who is not the boxholder");
        return;
      }
      if (token.usedAt && token.usedReply) {
        const handled = { outcome: "replayed", reply: token.usedReply };
        audit(ctx, token, handled);
        await acknowledge(ctx, handled.reply);
        return;
      }
      let handled: Handled;
      try {
        handled = await decide(ctx, token, ops);
      } catch (error) {
        handled = { outcome: "error", reply: replyForError(error) };
      }
      audit(ctx, token, handled);
      await acknowledge(ctx, handled.reply);
      await handled.after?.();
    });
  };
}
