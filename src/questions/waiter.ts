// Waiting for a question to leave `pending`, without polling git. It wakes on the transition:
// the in-process event (events.ts) for this process's transitions, fs.watch on the card's
// folder and on the journal folder for other processes', and a slow re-read of the one card
// file as a safety net for a watch that misses. A card seen decided on disk is confirmed as
// committed before it is reported (loadCommitted), so a write that is later rolled back never is.
// It never reports a timeout as a status: a wait that ends unanswered returns `pending`.

import { type FSWatcher, mkdirSync, watch } from "node:fs";
import { basename, dirname } from "node:path";
import { QuestionNotFound } from "../errors.ts";
import type { Core } from "./core.ts";
import { onQuestionTransitioned } from "./events.ts";
import {
  type OutcomeContext,
  type OutcomeLink,
  type QuestionOutcome,
  questionOutcome,
} from "./outcome.ts";
import { type LoadedQuestion, loadQuestion } from "./store.ts";
import { loadCommitted, readCommitted } from "./transition.ts";

/** The longest wait one call may ask for (a client's 60 s request timeout minus headroom). */
export const MAX_WAIT_SECONDS = 55;
/** The longest delay one timer takes (2^31 - 1 ms). */
const LONGEST_TIMER_MS = 2_147_483_647;
/** How often the card file is re-read in case a watch missed a change. */
const SAFETY_RECHECK_MS = 5_000;

export interface WaitOptions {
  signal?: AbortSignal | undefined;
  /** Called every `tickSeconds` while still waiting (for progress notifications). */
  onTick?: ((waitedSeconds: number, ofSeconds: number) => void) | undefined;
  tickSeconds?: number | undefined;
  link?: OutcomeLink | undefined;
  /** Until when a pending question waits to be shown (the slot's quiet hours and "Later"). */
  heldUntil?: OutcomeContext["heldUntil"];
}

/**
 * The question's outcome as soon as its status leaves `pending`, or when `seconds` have passed
 * (then `pending`; `Infinity` waits until it is decided), or when `signal` aborts (then its
 * status at that moment). Throws QuestionNotFound / CardUnreadable as loadQuestion does.
 */
export async function waitForOutcome(
  core: Core,
  id: string,
  seconds: number,
  options: WaitOptions = {},
): Promise<QuestionOutcome> {
  const loaded = await waitForQuestion(core, id, seconds, options);
  return questionOutcome(loaded, {
    now: core.box.clock.now(),
    link: options.link,
    heldUntil: options.heldUntil,
  });
}

/** As waitForOutcome, returning the committed card it saw (for callers that show it too). */
export async function waitForQuestion(
  core: Core,
  id: string,
  seconds: number,
  options: Omit<WaitOptions, "link"> = {},
): Promise<LoadedQuestion> {
  const first = loadQuestion(core, id);
  if (first.card.status !== "pending") return loadCommitted(core, id, first);
  if (seconds <= 0 || options.signal?.aborted) return first;

  const stops: (() => void)[] = [];
  try {
    const settled = await new Promise<LoadedQuestion | undefined>((resolve) => {
      const wake = checkOneAtATime(core, id, resolve);
      wakeOnChange(core, id, first.rel, wake, stops);
      // Infinity: until it is decided (the CLI without --timeout).
      if (Number.isFinite(seconds)) endAfter(seconds, () => resolve(undefined), stops);
      if (options.onTick) tickEvery(options, seconds, stops);
      if (options.signal) {
        const onAbort = () => resolve(undefined);
        options.signal.addEventListener("abort", onAbort, { once: true });
        stops.push(() => options.signal?.removeEventListener("abort", onAbort));
      }
      // A transition between the first read and the watches being set would be missed.
      wake();
    });
    if (settled) return settled;
    const last = loadQuestion(core, id);
    return last.card.status === "pending" ? last : loadCommitted(core, id, last);
  } finally {
    for (const stop of stops) stop();
  }
}

/**
 * A wake that checks the card, one check at a time (a wake during a check runs one more after
 * it), and settles with the committed card once it left `pending`, or undefined once it is gone.
 */
function checkOneAtATime(
  core: Core,
  id: string,
  settle: (seen: LoadedQuestion | undefined) => void,
): () => void {
  let checking = false;
  let again = false;
  const check = async () => {
    if (checking) {
      again = true;
      return;
    }
    checking = true;
    try {
      do {
        again = false;
        const seen = readQuietly(core, id);
        // Removed (git rm, by hand): once its lock confirms it, the wait ends and the caller
        // hears "no such question" instead of waiting for good on a card that is gone.
        if (seen === GONE && (await goneForGood(core, id))) return settle(undefined);
        if (seen && seen !== GONE && seen.card.status !== "pending") {
          const sure = await loadCommitted(core, id, seen);
          if (sure.card.status !== "pending") return settle(sure);
        }
      } while (again);
    } catch {
      // A card mid-edit by hand or a lock that timed out: the next wake looks again.
    } finally {
      checking = false;
    }
  };
  return () => void check();
}

/** Wakes on this process's transition event, the card's and journal's folders, and a slow timer. */
function wakeOnChange(
  core: Core,
  id: string,
  rel: string,
  wake: () => void,
  stops: (() => void)[],
): void {
  stops.push(
    onQuestionTransitioned((event) => {
      if (event.id === id && event.root === core.box.paths.root) wake();
    }),
  );
  const cardPath = core.box.paths.abs(rel);
  const cardName = basename(cardPath);
  watchFolder(dirname(cardPath), (name) => name.startsWith(cardName), wake, stops);
  mkdirSync(core.box.paths.journalDir, { recursive: true });
  watchFolder(core.box.paths.journalDir, (name) => name.startsWith(`${id}.`), wake, stops);
  const safety = setInterval(wake, SAFETY_RECHECK_MS);
  stops.push(() => clearInterval(safety));
}

/** Calls `end` once `seconds` have passed, however long that is. */
function endAfter(seconds: number, end: () => void, stops: (() => void)[]): void {
  // A timer holds at most ~24.8 days (node fires a longer one after 1 ms): a longer wait
  // is a chain of timers up to its end.
  const endAt = Date.now() + seconds * 1000;
  let deadline: NodeJS.Timeout;
  const arm = () => {
    const left = endAt - Date.now();
    if (left <= 0) return end();
    deadline = setTimeout(arm, Math.min(left, LONGEST_TIMER_MS));
  };
  arm();
  stops.push(() => clearTimeout(deadline));
}

/** Tells onTick how long it has waited, every tickSeconds (at least 1, 5 by default). */
function tickEvery(options: WaitOptions, seconds: number, stops: (() => void)[]): void {
  const started = Date.now();
  const every = Math.max(1, options.tickSeconds ?? 5) * 1000;
  const tick = setInterval(
    () => options.onTick?.(Math.round((Date.now() - started) / 1000), seconds),
    every,
  );
  stops.push(() => clearInterval(tick));
}

const GONE = "gone";

/** The card as it is now; GONE when there is none; undefined when it cannot be read just now. */
function readQuietly(core: Core, id: string): LoadedQuestion | typeof GONE | undefined {
  try {
    return loadQuestion(core, id);
  } catch (error) {
    return error instanceof QuestionNotFound ? GONE : undefined;
  }
}

/** Whether the card is still missing once any write in flight (a rename into place) finished. */
async function goneForGood(core: Core, id: string): Promise<boolean> {
  try {
    await readCommitted(core, id);
    return false;
  } catch (error) {
    if (error instanceof QuestionNotFound) return true;
    throw error;
  }
}

/** Watches a folder for names that match; a folder that cannot be watched is left to the safety re-read. */
function watchFolder(
  dir: string,
  matches: (name: string) => boolean,
  wake: () => void,
  stops: (() => void)[],
): void {
  let watcher: FSWatcher;
  try {
    watcher = watch(dir, { persistent: false }, (_event, name) => {
      if (name === null || matches(String(name))) wake();
    });
  } catch {
    return;
  }
  watcher.on("error", () => undefined);
  stops.push(() => watcher.close());
}
