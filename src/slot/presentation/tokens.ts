// Button tokens: the opaque random text a button carries instead of meaning. The ledger maps a
// token to its presentation, question, card hash, action and option, and the chat and message
// it was sent in. A token that was used keeps the reply it got, so a second tap replays it.

import { randomBytes } from "node:crypto";
import type { Db } from "../../ledger/ledger.ts";

/** What a button does when tapped. */
export type ButtonAction =
  | "answer"
  | "confirm"
  | "back"
  | "park"
  | "dismiss"
  | "show"
  /** Records last time's answer again (`optionId`), noting the question it came from (`label`). */
  | "same"
  /** Adds the time in `label` (an ISO-8601 duration) to the question's deadline. */
  | "extend"
  /** Triage: list the digest's recommendations for accepting (src/slot/triage-actions.ts). */
  | "triage"
  /** Triage: record the listed offer (`optionId`: the offer's id). */
  | "accept"
  /** Without `optionId`: offers the times; with one (evening, morning, week): puts it off. */
  | "later"
  /** A multi-select's option (`optionId`) picked or unpicked; nothing is recorded yet. */
  | "toggle"
  /** A multi-select's picks recorded as the answer. */
  | "send";

export interface ButtonSpec {
  action: ButtonAction;
  optionId?: string | undefined;
  label?: string | undefined;
  /** A button about another question than its message's (a digest line): that question. */
  questionId?: string | undefined;
}

export interface ButtonToken extends ButtonSpec {
  token: string;
  presentationSeq: number | undefined;
  questionId: string;
  cardHash: string;
  chatId: string;
  messageId: string | undefined;
  createdAt: string;
  usedAt: string | undefined;
  usedReply: string | undefined;
}

/** 96 random bits as 16 URL-safe characters: unguessable and far under 64 bytes. */
export function newToken(): string {
  return randomBytes(12).toString("base64url");
}

function fromRow(row: Record<string, unknown> | undefined): ButtonToken | undefined {
  if (!row) return undefined;
  const text = (v: unknown) => (v === null || v === undefined ? undefined : String(v));
  return {
    token: row.token as string,
    presentationSeq: (row.presentation_seq as number | null) ?? undefined,
    questionId: row.question_id as string,
    cardHash: row.card_hash as string,
    action: row.action as ButtonAction,
    optionId: text(row.option_id),
    label: text(row.label),
    chatId: row.chat_id as string,
    messageId: text(row.message_id),
    createdAt: row.created_at as string,
    usedAt: text(row.used_at),
    usedReply: text(row.used_reply),
  };
}

export class TokenStore {
  constructor(private readonly db: Db) {}

  /**
   * Mints one token per button, all for one message about to be sent to `chatId`; `cardHash`
   * gives the hash of the card each button is about (the judge's, never a bridge's).
   */
  mint(
    owner: { presentationSeq?: number | undefined; questionId: string },
    cardHash: (questionId: string) => string,
    chatId: string,
    buttons: ButtonSpec[],
    at: string,
  ): string[] {
    const insert = this.db.prepare(
      `INSERT INTO button_tokens (token, presentation_seq, question_id, card_hash, action, option_id, label, chat_id, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    return this.db.transaction(() =>
      buttons.map((b) => {
        const token = newToken();
        const questionId = b.questionId ?? owner.questionId;
        insert.run(
          token,
          owner.presentationSeq ?? null,
          questionId,
          cardHash(questionId),
          b.action,
          b.optionId ?? null,
          b.label ?? null,
          chatId,
          at,
        );
        return token;
      }),
    )();
  }

  /** The message the tokens were sent in, once the send succeeded. */
  sentIn(tokens: string[], messageId: string): void {
    const update = this.db.prepare("UPDATE button_tokens SET message_id = ? WHERE token = ?");
    this.db.transaction(() => {
      for (const token of tokens) update.run(messageId, token);
    })();
  }

  /** Forgets tokens minted for a message that was never sent. */
  forget(tokens: string[]): void {
    const remove = this.db.prepare(
      "DELETE FROM button_tokens WHERE token = ? AND message_id IS NULL",
    );
    this.db.transaction(() => {
      for (const token of tokens) remove.run(token);
    })();
  }

  get(token: string): ButtonToken | undefined {
    return fromRow(
      this.db.prepare("SELECT * FROM button_tokens WHERE token = ?").get(token) as
        | Record<string, unknown>
        | undefined,
    );
  }

  /** The questions a sent message's buttons are about (none for a message without buttons). */
  questionsOn(chatId: string, messageId: string): string[] {
    const rows = this.db
      .prepare(
        "SELECT DISTINCT question_id FROM button_tokens WHERE chat_id = ? AND message_id = ?",
      )
      .all(chatId, messageId) as { question_id: string }[];
    return rows.map((row) => row.question_id);
  }

  /**
   * The newest typed words a chat was asked about for a presentation ("Record "c" as your
   * answer?") and that are neither confirmed nor declined yet.
   */
  askedWords(presentationSeq: number, chatId: string): ButtonToken | undefined {
    return fromRow(
      this.db
        .prepare(
          `SELECT * FROM button_tokens WHERE presentation_seq = ? AND chat_id = ? AND action = 'confirm'
           AND option_id IS NULL AND used_at IS NULL AND message_id IS NOT NULL
           ORDER BY created_at DESC, rowid DESC LIMIT 1`,
        )
        .get(presentationSeq, chatId) as Record<string, unknown> | undefined,
    );
  }

  /** The typed words `messageId` asked the chat to confirm for a presentation, used or not. */
  askedOn(presentationSeq: number, chatId: string, messageId: string): ButtonToken | undefined {
    return fromRow(
      this.db
        .prepare(
          `SELECT * FROM button_tokens WHERE presentation_seq = ? AND chat_id = ? AND message_id = ?
           AND action = 'confirm' AND option_id IS NULL ORDER BY created_at DESC, rowid DESC LIMIT 1`,
        )
        .get(presentationSeq, chatId, messageId) as Record<string, unknown> | undefined,
    );
  }

  /**
   * The Confirm button of a presentation's message when the newest buttons put on that message
   * are the confirming step of a tapped option ([Confirm X] [Back], minted together, in that
   * order) and neither was used: what the boxholder sees there now.
   */
  confirmShown(
    presentationSeq: number,
    chatId: string,
    messageId: string,
  ): ButtonToken | undefined {
    const rows = this.db
      .prepare(
        "SELECT * FROM button_tokens WHERE chat_id = ? AND message_id = ? ORDER BY rowid DESC LIMIT 2",
      )
      .all(chatId, messageId) as Record<string, unknown>[];
    const [back, confirm] = rows.map(fromRow);
    if (back?.action !== "back" || confirm?.action !== "confirm") return undefined;
    if (confirm.presentationSeq !== presentationSeq || confirm.optionId === undefined)
      return undefined;
    if (back.optionId !== confirm.optionId || back.usedAt || confirm.usedAt) return undefined;
    return confirm;
  }

  /**
   * The offers beside the options ([↩ Same as last time], [⏳ +7 days]) a presentation was sent
   * with: the first button of each of those actions minted for it.
   */
  offered(presentationSeq: number): ButtonSpec[] {
    const rows = this.db
      .prepare(
        "SELECT * FROM button_tokens WHERE presentation_seq = ? AND action IN ('same', 'extend') ORDER BY rowid",
      )
      .all(presentationSeq) as Record<string, unknown>[];
    const first = new Map<string, ButtonSpec>();
    for (const token of rows.map(fromRow)) {
      if (token && !first.has(token.action)) {
        first.set(token.action, {
          action: token.action,
          optionId: token.optionId,
          label: token.label,
        });
      }
    }
    return [...first.values()];
  }

  /** Every token of one sent message marked used with one reply (its question was settled). */
  markMessageUsed(chatId: string, messageId: string, reply: string, at: string): void {
    this.db
      .prepare(
        "UPDATE button_tokens SET used_at = ?, used_reply = ? WHERE chat_id = ? AND message_id = ? AND used_at IS NULL",
      )
      .run(at, reply, chatId, messageId);
  }

  markUsed(token: string, reply: string, at: string): void {
    this.db
      .prepare(
        "UPDATE button_tokens SET used_at = ?, used_reply = ? WHERE token = ? AND used_at IS NULL",
      )
      .run(at, reply, token);
  }

  /** Every token of a presentation marked used with one reply: after an answer, any button replays it. */
  markPresentationUsed(presentationSeq: number, reply: string, at: string): void {
    this.db
      .prepare(
        "UPDATE button_tokens SET used_at = ?, used_reply = ? WHERE presentation_seq = ? AND used_at IS NULL AND action IN ('answer', 'confirm', 'dismiss', 'toggle', 'send')",
      )
      .run(at, reply, presentationSeq);
  }
}
