// The answer memory's store: one row per answered question and an FTS5 index over its prompt
// and memo (ledger migration 9). It only stores and finds; what counts as similar is decided in
// src/questions/similar.ts. Like all of the ledger it can be lost: it is rebuilt from the cards.

import type { Db } from "./ledger.ts";

export interface RememberedAnswer {
  questionId: string;
  prompt: string;
  memo: string;
  askedBy: string | undefined;
  inputType: string;
  /** The option ids of the question, in card order (empty for a text question). */
  optionIds: string[];
  answerText: string;
  /** The option id the answer chose (select and confirm). */
  selected: string | undefined;
  answeredAt: string;
}

interface Row {
  question_id: string;
  prompt: string;
  memo: string;
  asked_by: string | null;
  input_type: string;
  option_ids: string;
  answer_text: string;
  selected: string | null;
  answered_at: string;
}

function fromRow(row: Row): RememberedAnswer {
  return {
    questionId: row.question_id,
    prompt: row.prompt,
    memo: row.memo,
    askedBy: row.asked_by ?? undefined,
    inputType: row.input_type,
    optionIds: JSON.parse(row.option_ids) as string[],
    answerText: row.answer_text,
    selected: row.selected ?? undefined,
    answeredAt: row.answered_at,
  };
}

/** One FTS5 string for a word: quoted, so no word is read as an operator or a column. */
function phrase(word: string): string {
  return `"${word.replace(/"/g, '""')}"`;
}

export class AnswerMemoryStore {
  constructor(private readonly db: Db) {}

  /**
   * Adds or replaces what the memory holds for answered questions. An FTS5 row shares its rowid
   * with its answer_memory row: found and deleted by rowid, never by a scan of the index.
   */
  remember(answers: readonly RememberedAnswer[]): void {
    const insert = this.db.prepare(
      `INSERT INTO answer_memory (question_id, prompt, memo, asked_by, input_type, option_ids, answer_text, selected, answered_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    const insertText = this.db.prepare(
      "INSERT INTO answer_memory_text (rowid, question_id, prompt, memo) VALUES (?, ?, ?, ?)",
    );
    this.db.transaction(() => {
      this.drop(answers.map((a) => a.questionId));
      for (const a of answers) {
        const { lastInsertRowid } = insert.run(
          a.questionId,
          a.prompt,
          a.memo,
          a.askedBy ?? null,
          a.inputType,
          JSON.stringify(a.optionIds),
          a.answerText,
          a.selected ?? null,
          a.answeredAt,
        );
        insertText.run(lastInsertRowid, a.questionId, a.prompt, a.memo);
      }
    })();
  }

  forget(questionIds: readonly string[]): void {
    this.db.transaction(() => this.drop(questionIds))();
  }

  private drop(questionIds: readonly string[]): void {
    const find = this.db.prepare("SELECT rowid FROM answer_memory WHERE question_id = ?").pluck();
    const drop = this.db.prepare("DELETE FROM answer_memory WHERE rowid = ?");
    const dropText = this.db.prepare("DELETE FROM answer_memory_text WHERE rowid = ?");
    for (const id of questionIds) {
      const rowid = find.get(id) as number | bigint | undefined;
      if (rowid === undefined) continue;
      drop.run(rowid);
      dropText.run(rowid);
    }
  }

  /**
   * The remembered answers whose prompt or memo holds any of `words`, best BM25 rank first (a
   * word in the prompt weighs three times one in the memo), at most `limit`.
   */
  candidates(words: readonly string[], limit: number): RememberedAnswer[] {
    if (words.length === 0) return [];
    const rows = this.db
      .prepare(
        `SELECT m.* FROM answer_memory_text t JOIN answer_memory m ON m.rowid = t.rowid
         WHERE answer_memory_text MATCH ? ORDER BY bm25(answer_memory_text, 0, 3.0, 1.0) LIMIT ?`,
      )
      .all(words.map(phrase).join(" OR "), limit) as Row[];
    return rows.map(fromRow);
  }

  /** The bare FTS5 query `candidates` runs, without reading the rows (the bench's floor). */
  matchIds(words: readonly string[], limit: number): number[] {
    if (words.length === 0) return [];
    return this.db
      .prepare(
        `SELECT rowid FROM answer_memory_text WHERE answer_memory_text MATCH ?
           ORDER BY bm25(answer_memory_text, 0, 3.0, 1.0) LIMIT ?`,
      )
      .pluck()
      .all(words.map(phrase).join(" OR "), limit) as number[];
  }

  /**
   * Answered cards the card index has seen that the memory lacks (answered by hand, or by
   * another copy of the box and pulled), with the card as the index holds it; and remembered
   * questions the index now knows with another status (a hand edit undid the answer).
   */
  drift(): { missing: { id: string; summary: string }[]; stale: string[] } {
    const missing = this.db
      .prepare(
        `SELECT id, summary FROM card_index WHERE status = 'answered' AND summary IS NOT NULL
           AND id NOT IN (SELECT question_id FROM answer_memory)`,
      )
      .all() as { id: string; summary: string }[];
    const stale = this.db
      .prepare(
        `SELECT question_id FROM answer_memory WHERE question_id IN
           (SELECT id FROM card_index WHERE status IS NOT 'answered')
         AND question_id NOT IN (SELECT id FROM card_index WHERE status = 'answered')`,
      )
      .pluck()
      .all() as string[];
    return { missing, stale };
  }

  size(): number {
    return this.db.prepare("SELECT count(*) FROM answer_memory").pluck().get() as number;
  }
}
