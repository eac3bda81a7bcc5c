// Story: a qbridge process is SIGKILLed at every write step of answer, dismiss, expire (the
// aging sweep), withdraw and ask. Whatever it left, the question is pending and answerable or answered
// with its job, never answered without one and never half-written; `qbridge doctor` names the
// leftovers, `doctor --repair` clears them, and the next attempt goes through (or, when the
// commit had landed, is refused as already done, with no second commit or job).
// The killed step and the retry are qbridge commands; the doctor runs in this process.

import { afterAll, describe, expect, it } from "vitest";
import { askQuestion } from "../../src/questions/ask.ts";
import {
  cleanupBoxes,
  cliEnv,
  copyBox,
  doctorFindings as doctor,
  gitStatus,
  prepareBox,
  questionRel,
  readBoxFile,
  runCli,
  selectCard,
  type TestBox,
} from "../support/box.ts";
import {
  ageLocks,
  diskCards,
  diskJobs,
  headFile,
  history,
  printFigures,
  tempFiles,
} from "./invariants.ts";

type Op = "answer" | "dismiss" | "expire" | "withdraw" | "ask";
type Point = "before-write" | "between-writes" | "before-commit" | "in-commit" | "after-commit";

const STALE_MS = 5000;
const ID = "crash-q";
/** 31 days after the test clock's asked-at: the aging sweep expires the question. */
const EXPIRY_TIME = "2026-08-10T09:00:00Z";
const ASKED = selectCard({ prompt: "Which folder takes the scanned invoices?" });
const AFTER: Record<Op, string> = {
  answer: "answered",
  dismiss: "dismissed",
  expire: "expired",
  withdraw: "withdrawn",
  ask: "pending",
};

const POINTS: Point[] = ["before-write", "before-commit", "in-commit", "after-commit"];
const MATRIX: [Op, Point][] = [
  ...(["answer", "dismiss", "expire", "withdraw", "ask"] as Op[]).flatMap((op) =>
    (op === "answer" ? ["before-write", "between-writes", ...POINTS.slice(1)] : POINTS).map(
      (point) => [op, point] as [Op, Point],
    ),
  ),
];

const figures = { crashes: 0, survived: 0, doctorRepairs: 0 };
afterAll(() => {
  printFigures("crash matrix", figures);
  cleanupBoxes();
});

let prepared: Promise<{ asked: string; empty: string }> | undefined;

/** A box of its own before `op`: the question asked (none for an ask), copied from one built once. */
async function boxFor(op: Op): Promise<TestBox> {
  prepared ??= Promise.all([
    prepareBox(async (tb) => {
      await askQuestion(tb, selectCard({ id: ID }));
    }),
    prepareBox(async () => undefined),
  ]).then(([asked, empty]) => ({ asked, empty }));
  const { asked, empty } = await prepared;
  return copyBox(op === "ask" ? empty : asked, { staleMs: STALE_MS });
}

/** One step of `op` run as the qbridge command, optionally killed at `point`. */
function run(tb: TestBox, op: Op, point?: Point) {
  const crash: Record<string, string> = point ? { QBRIDGE_TEST_CRASH_AT: point } : {};
  const env = cliEnv(tb.dir, crash);
  switch (op) {
    case "answer":
      return runCli(["answer", ID, "b"], { env });
    case "dismiss":
      return runCli(["dismiss", ID], { env });
    case "expire":
      return runCli(["age", "--json"], { env: { ...env, QBRIDGE_TIME: EXPIRY_TIME } });
    case "withdraw":
      return runCli(["withdraw", ID, "--reason", "the invoices were filed by hand"], { env });
    case "ask":
      return runCli(["ask", "--unless-open", "--json"], { env, input: JSON.stringify(ASKED) });
  }
}

/** What must hold at any instant, even straight after the kill. */
function expectWholeCards(tb: TestBox, op: Op): void {
  const cards = diskCards(tb.dir);
  for (const c of cards) expect(c.error).toBeUndefined();
  expect(tempFiles(tb.dir)).toEqual([]);
  if (op === "ask") {
    expect(cards.length).toBeLessThanOrEqual(1);
    for (const c of cards) expect(c.card?.status).toBe("pending");
    return;
  }
  const [only] = cards;
  expect(cards).toHaveLength(1);
  expect(["pending", AFTER[op]]).toContain(only?.card?.status);
  // Never answered without its job. A job beside a pending card is a dead writer's leftover,
  // reported by doctor and removed by the recovery.
  const jobs = diskJobs(tb.dir);
  expect(jobs.filter((id) => id !== ID)).toEqual([]);
  if (only?.card?.status === "answered") expect(jobs).toEqual([ID]);
}

/** Commits that carried `op` out. */
async function opCommits(tb: TestBox, op: Op): Promise<number> {
  const { subjects, linear } = await history(tb.dir);
  expect(linear).toBe(true);
  return subjects.filter((s) => s.startsWith(`${op}: `)).length;
}

async function expectDone(tb: TestBox, op: Op): Promise<string> {
  const cards = diskCards(tb.dir);
  expect(cards).toHaveLength(1);
  const [card] = cards;
  expect(card?.card?.status).toBe(AFTER[op]);
  const id = card?.id as string;
  expect(await headFile(tb.dir, questionRel(id))).toBe(card?.text);
  expect(diskJobs(tb.dir)).toEqual(op === "answer" ? [ID] : []);
  expect(await opCommits(tb, op)).toBe(1);
  expect(await gitStatus(tb.dir)).toBe("");
  return id;
}

interface Crashed {
  tb: TestBox;
  /** The card's text before the killed step, null for an ask. */
  before: string | null;
  code: number;
}

const SELF_RECOVERY: [Op, Point][] = [
  ["answer", "between-writes"],
  ["answer", "in-commit"],
  ["dismiss", "in-commit"],
  ["expire", "in-commit"],
  ["withdraw", "in-commit"],
  ["ask", "before-commit"],
];

/**
 * A box of its own with `op` killed at `point`. The dead process's locks are aged by hand, as
 * if it had died long ago: doctor reports them stale, the next writer takes them over at once.
 */
async function crash(op: Op, point: Point): Promise<Crashed> {
  const tb = await boxFor(op);
  const before = op === "ask" ? null : readBoxFile(tb.dir, questionRel(ID));
  const { code } = await run(tb, op, point);
  if (code === 128) figures.crashes++;
  ageLocks(tb.dir);
  return { tb, before, code };
}

describe.concurrent("killed at each write step, then doctor --repair and a retry", () => {
  it.each(MATRIX)(
    "%s killed at %s: whole cards, doctor reports and repairs, the retry completes it once",
    async (op, point) => {
      const { tb, before, code } = await crash(op, point);
      expect(code).toBe(128); // killed by the signal, not an exit
      expectWholeCards(tb, op);

      // The dead process's stale locks are reported, with anything else it left.
      const found = await doctor(tb);
      const kinds = new Set(found.map((f) => f.kind));
      expect(kinds.has("stale-lock")).toBe(true);
      expect(kinds.has("interrupted-write")).toBe(point !== "before-write");

      const repaired = await doctor(tb, true);
      expect(repaired.every((f) => f.repaired)).toBe(true);
      figures.doctorRepairs += repaired.length;
      expect(await gitStatus(tb.dir)).toBe("");

      if (point === "after-commit") {
        // The commit had landed: repair keeps it, and the retry changes nothing.
        await expectDone(tb, op);
        const again = await run(tb, op);
        if (op === "answer" || op === "dismiss" || op === "withdraw") {
          expect(again.code).toBe(3);
          expect(again.stderr).toContain(`it is already ${AFTER[op]}`);
        } else {
          expect(again.code).toBe(0);
          if (op === "expire") expect(JSON.parse(again.stdout).expired).toEqual([]);
          else expect(JSON.parse(again.stdout).deduplicated).toBe(true);
        }
      } else {
        // Not committed: repair put the card back byte for byte (or filed nothing).
        if (before === null) expect(diskCards(tb.dir)).toEqual([]);
        else expect(readBoxFile(tb.dir, questionRel(ID))).toBe(before);
        expect(diskJobs(tb.dir)).toEqual([]);
        expect(await opCommits(tb, op)).toBe(0);
        const again = await run(tb, op);
        expect(again.code).toBe(0);
        if (op === "expire") expect(JSON.parse(again.stdout).expired).toEqual([ID]);
      }
      const id = await expectDone(tb, op);
      if (op === "ask") {
        // The question the ask filed is pending and answerable.
        expect((await runCli(["answer", id, "a"], { env: cliEnv(tb.dir) })).code).toBe(0);
      }
      expect(await doctor(tb)).toEqual([]);
      figures.survived++;
    },
  );
});

describe.concurrent("killed mid-write, then the next attempt alone recovers", () => {
  it.each(SELF_RECOVERY)(
    "%s killed at %s: the retry takes over the dead locks, undoes the half-write and completes",
    async (op, point) => {
      const { tb, code } = await crash(op, point);
      expect(code).toBe(128);
      expectWholeCards(tb, op);

      const again = await run(tb, op);
      expect(again.code).toBe(0);
      if (op === "ask") expect(JSON.parse(again.stdout).deduplicated).toBe(false);
      if (op === "expire") expect(JSON.parse(again.stdout).expired).toEqual([ID]);
      const id = await expectDone(tb, op);
      if (op === "ask") {
        expect((await runCli(["answer", id, "a"], { env: cliEnv(tb.dir) })).code).toBe(0);
      }
      expect(await doctor(tb)).toEqual([]);
      figures.survived++;
    },
  );
});
