// Answer memory: when a question is asked, the answered questions like it. Candidates come from
// the ledger's FTS5 index over prompts and memos (src/ledger/answer-memory.ts); each is then
// scored here, so the number an agent reads means the same whatever the index ranks:
//
//   text  = 0.7 x overlap of the prompts' words + 0.3 x overlap of the memos' words
//           (Dice coefficient over the sets of words, common English words left out)
//   score = text x (1 + 0.15 if the same asker) x (1 + 0.15 if the same options), at most 1
//
// A question is similar from SIMILAR_THRESHOLD up; at most MAX_SIMILAR are listed. The memory
// only informs: nothing here answers anything (a "Same as last time" tap goes through the core).
// A permission request is like only the same request (the same agent, tool and exact input, as
// the permission path recorded it): "allow" for one command is never offered for another.

import type { Committed } from "../box/commit.ts";
import { isPermissionQuestion, optionsOf, type Question } from "../card/question.ts";
import { AnswerMemoryStore, type RememberedAnswer } from "../ledger/answer-memory.ts";
import { PermissionRequests } from "../ledger/permission-requests.ts";
import type { Core } from "./core.ts";
import { scanQuestions } from "./scan.ts";
import { loadQuestion } from "./store.ts";

/** From this score up a question counts as similar (documented in docs/AGENTS.md). */
export const SIMILAR_THRESHOLD = 0.5;
export const MAX_SIMILAR = 3;
/** How many FTS5 candidates are scored. */
const CANDIDATES = 30;
/** The memo's words that go into the FTS5 query beside the prompt's (the longest first). */
const MEMO_QUERY_WORDS = 8;
const BUILT_KEY = "answer-memory";

export interface SimilarQuestion {
  id: string;
  prompt: string;
  /** The recorded answer's text ("Finance"). */
  answer: string;
  answeredAt: string;
  score: number;
}

/** A similar question with what the presentation needs to offer its answer again. */
export interface LastTime extends SimilarQuestion {
  /** The option to record again with one tap, when the new question offers it too. */
  reusable: { optionId: string; label: string } | undefined;
}

const STOP_WORDS = new Set(
  (
    "a an and are as at be by can do does for from has have how i if in is it its may me my of on " +
    "or our should so that the their there this to was we were what when where which who why will " +
    "with would you your"
  ).split(" "),
);

/** The words of a text that carry meaning: lower case, accents off, common words left out. */
export function meaningfulWords(text: string): string[] {
  const words = text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length > 0 && !STOP_WORDS.has(w) && (w.length > 1 || /\d/.test(w)));
  return [...new Set(words)];
}

function dice(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0 || b.size === 0) return 0;
  let shared = 0;
  for (const word of a) if (b.has(word)) shared++;
  return (2 * shared) / (a.size + b.size);
}

function optionIdsOf(card: Question): string[] {
  return optionsOf(card).map((o) => o.id);
}

function sameOptions(card: Question, past: RememberedAnswer): boolean {
  // A question without options (text) is alike in its words only.
  if (optionsOf(card).length === 0 || card.input.type !== past.inputType) return false;
  return [...optionIdsOf(card)].sort().join("\n") === [...past.optionIds].sort().join("\n");
}

/** How alike a new question and a remembered answered one are, 0 to 1 (see the header). */
export function similarity(card: Question, past: RememberedAnswer): number {
  const text =
    0.7 * dice(new Set(meaningfulWords(card.prompt)), new Set(meaningfulWords(past.prompt))) +
    0.3 * dice(new Set(meaningfulWords(card.memo)), new Set(meaningfulWords(past.memo)));
  const asker = card["asked-by"] !== undefined && card["asked-by"] === past.askedBy ? 1.15 : 1;
  const options = sameOptions(card, past) ? 1.15 : 1;
  return Math.min(1, Math.round(text * asker * options * 100) / 100);
}

/** What the memory keeps of an answered card. */
export function rememberedOf(id: string, card: Question): RememberedAnswer | undefined {
  if (card.status !== "answered" || !card.answer || !card["answered-at"]) return undefined;
  return {
    questionId: id,
    prompt: card.prompt,
    memo: card.memo,
    askedBy: card["asked-by"],
    inputType: card.input.type,
    optionIds: optionIdsOf(card),
    answerText: card.answer.text,
    selected: card.answer.selected,
    answeredAt: card["answered-at"],
  };
}

/**
 * Brings the memory up to the box: built from every answered card the first time (or after the
 * ledger was lost), then kept by the transition core (rememberAnswers) and, for cards answered
 * or undone by hand, by what the card index has seen since.
 */
export function syncAnswerMemory(core: Core): AnswerMemoryStore {
  const store = core.ledger.store(AnswerMemoryStore);
  if (core.ledger.readOnly) return store;
  if (core.ledger.getMeta(BUILT_KEY) !== "1") {
    const answered = scanQuestions(core.box, core.ledger, "answered").flatMap((entry) =>
      entry.card ? (rememberedOf(entry.id, entry.card) ?? []) : [],
    );
    store.remember(answered);
    core.ledger.setMeta(BUILT_KEY, "1");
    return store;
  }
  const { missing, stale } = store.drift();
  if (missing.length > 0) {
    store.remember(
      missing.flatMap(({ id, summary }) => rememberedOf(id, JSON.parse(summary) as Question) ?? []),
    );
  }
  if (stale.length > 0) store.forget(stale);
  return store;
}

/** Which remembered questions may count for `card` (question `id`): for a permission, the same request. */
function candidateFilter(core: Core, card: Question, id: string | undefined) {
  if (!isPermissionQuestion(card)) return (past: RememberedAnswer) => past.questionId !== id;
  const requests = core.ledger.store(PermissionRequests);
  const asks = id === undefined ? undefined : requests.inputKeyOf(id);
  return (past: RememberedAnswer) =>
    past.questionId !== id && asks !== undefined && requests.inputKeyOf(past.questionId) === asks;
}

/** The answered questions like `card`, best first: at most 3, each scoring the threshold or more. */
export function similarQuestions(core: Core, card: Question, exceptId?: string): LastTime[] {
  const store = syncAnswerMemory(core);
  const counts = candidateFilter(core, card, exceptId);
  const memoWords = meaningfulWords(card.memo)
    .sort((a, b) => b.length - a.length)
    .slice(0, MEMO_QUERY_WORDS);
  const words = [...new Set([...meaningfulWords(card.prompt), ...memoWords])];
  return (
    store
      .candidates(words, CANDIDATES)
      .filter(counts)
      .map((past) => ({ past, score: similarity(card, past) }))
      .filter(({ score }) => score >= SIMILAR_THRESHOLD)
      // Newest first on a tie: compared as instants, not by locale (which would start ICU's
      // collation, which presenting a question must not do).
      .sort(
        (a, b) =>
          b.score - a.score || Date.parse(b.past.answeredAt) - Date.parse(a.past.answeredAt),
      )
      .slice(0, MAX_SIMILAR)
      .map(({ past, score }) => ({
        id: past.questionId,
        prompt: past.prompt,
        answer: past.answerText,
        answeredAt: past.answeredAt,
        score,
        reusable: reusableAnswer(card, past),
      }))
  );
}

/**
 * The option a "Same as last time" tap would record: only on a question with options (a select,
 * a yes/no) that offers the one option answered last time, under the same label; never the
 * own-words option.
 */
function reusableAnswer(card: Question, past: RememberedAnswer): LastTime["reusable"] {
  if (optionsOf(card).length === 0 || past.inputType !== card.input.type) return undefined;
  if (past.selected === undefined || past.selected === "_other") return undefined;
  const option = optionsOf(card).find((o) => o.id === past.selected);
  if (!option || option.label.trim().toLowerCase() !== past.answerText.trim().toLowerCase()) {
    return undefined;
  }
  return { optionId: option.id, label: option.label };
}

/** The ask response's `similar`: what an agent reads to decide whether to ask at all. */
export function similarForAsk(core: Core, id: string, card: Question): SimilarQuestion[] {
  try {
    return similarQuestions(core, card, id).map(({ reusable: _, ...similar }) => similar);
  } catch (error) {
    core.ledger.reportLost("the answer memory's lookup", error, "the reply leaves it out");
    return [];
  }
}

/** After a commit that answered a question: the memory learns it at once. */
export function rememberAnswers(core: Core): Committed {
  return (_commit, record) => {
    if (record.action !== "answer" || typeof record.questionId !== "string") return;
    try {
      const { card } = loadQuestion(core, record.questionId);
      const remembered = rememberedOf(record.questionId, card);
      if (remembered) core.ledger.store(AnswerMemoryStore).remember([remembered]);
    } catch (error) {
      // The commit holds the answer; the memory catches up from the card index later.
      core.ledger.reportLost("the answer memory's row", error);
    }
  };
}
