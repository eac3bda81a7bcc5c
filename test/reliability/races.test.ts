// Story: N qbridge processes (2, 8 and 16; 2, 8 and 32 under soak) start at the same instant,
// round after round, mixing answer, dismiss, the aging sweep and ask on the same few questions.
// Whoever loses a race is told so (exit 3, or "not found" / "exists already" for a question not
// yet or already asked); afterwards every invariant holds: one answer per card, exactly one job
// per answered card and none for the others, linear history with one commit per successful
// change, every card valid, a clean git status, and an `applied` audit row for every answered
// card.

import { afterAll, describe, expect, it } from "vitest";
import { Ledger } from "../../src/ledger/ledger.ts";
import { askQuestion } from "../../src/questions/ask.ts";
import {
  cleanupBoxes,
  cliEnv,
  confirmCard,
  copyBox,
  doctorFindings,
  gitStatus,
  prepareBox,
  runCli,
  selectCard,
  type TestBox,
  textCard,
} from "../support/box.ts";
import { diskCards, diskJobs, history, printFigures } from "./invariants.ts";
import { SOAK } from "./soak.ts";

/** 39 days before the test clock: the aging sweep expires these. */
const OLD = "2026-06-01T09:00:00Z";
const SHARED_PROMPT = "Should the shared printer be replaced?";
const NEW_IDS = ["race-new-0", "race-new-1"];

/** [N, rounds]: npm test races each N once (N=2 three times); soak runs the acceptance sizes. */
const SIZES: [number, number][] =
  SOAK > 1
    ? [
        [2, 5 * SOAK],
        [8, 2 * SOAK],
        [32, SOAK],
      ]
    : [
        [2, 3],
        [8, 1],
        [16, 1],
      ];

const totals = { processes: 0, operations: 0, succeeded: 0, conflicts: 0, lostRaces: 0 };
afterAll(() => {
  printFigures("races (all N)", totals);
  cleanupBoxes();
});

type Kind = "answer" | "dismiss" | "age" | "ask" | "ask-new" | "ask-unless-open";
interface Op {
  kind: Kind;
  args: string[];
  input?: string;
  id?: string;
}
interface Outcome extends Op {
  code: number;
  stdout: string;
  stderr: string;
}

/** A small seeded generator, so every run mixes the same operations. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SEEDS: Record<string, Record<string, unknown>> = {
  "race-select-old": selectCard({ id: "race-select-old", "asked-at": OLD }),
  "race-confirm-old": confirmCard({ id: "race-confirm-old", "asked-at": OLD }),
  "race-text-old": textCard({ id: "race-text-old", "asked-at": OLD }),
  "race-select": selectCard({ id: "race-select", prompt: "Where do paper receipts belong?" }),
  "race-confirm": confirmCard({ id: "race-confirm", prompt: "May I empty the trash folder?" }),
  "race-text": textCard({ id: "race-text", prompt: "Who signs the lease renewal?" }),
};
const ANSWERS: Record<string, string[]> = {
  select: ["a", "b", "Finance", "taxes"],
  confirm: ["yes", "no", "y", "0"],
  text: ["Ada Lovelace", "Grace Hopper", "Émilie du Châtelet"],
};

function typeOf(id: string): string {
  if (id.includes("confirm")) return "confirm";
  if (id.includes("text")) return "text";
  return "select";
}

function pick<T>(next: () => number, items: readonly T[]): T {
  return items[Math.floor(next() * items.length)] as T;
}

function nextOp(next: () => number): Op {
  const roll = next();
  const targets = [...Object.keys(SEEDS), ...NEW_IDS];
  if (roll < 0.4) {
    const id = pick(next, targets);
    return { kind: "answer", id, args: ["answer", id, pick(next, ANSWERS[typeOf(id)] ?? [])] };
  }
  if (roll < 0.6) {
    const id = pick(next, targets);
    return { kind: "dismiss", id, args: ["dismiss", id] };
  }
  if (roll < 0.75) return { kind: "age", args: ["age", "--json"] };
  if (roll < 0.9) {
    const id = pick(next, NEW_IDS);
    const card = selectCard({ id, prompt: `Where does the ${id} document go?` });
    return { kind: "ask-new", id, args: ["ask", "--json"], input: JSON.stringify(card) };
  }
  const card = confirmCard({ prompt: SHARED_PROMPT });
  return {
    kind: "ask-unless-open",
    args: ["ask", "--unless-open", "--json"],
    input: JSON.stringify(card),
  };
}

/** How many commits a finished operation made. */
function commitsOf(outcome: Outcome): number {
  if (outcome.code !== 0) return 0;
  if (outcome.kind === "age") return (JSON.parse(outcome.stdout).expired as string[]).length;
  if (outcome.kind === "ask-unless-open") return JSON.parse(outcome.stdout).deduplicated ? 0 : 1;
  return 1;
}

/** A lost race is an expected refusal; anything else is a defect. */
function expectFairOutcome(outcome: Outcome): void {
  const where = `${outcome.args.join(" ")} → ${outcome.code}: ${outcome.stderr}`;
  if (outcome.code === 0 || outcome.code === 3) return;
  if (outcome.code === 2) {
    // Answering or dismissing a question not asked yet.
    expect(NEW_IDS, where).toContain(outcome.id);
    expect(outcome.stderr, where).toContain("no question");
    return;
  }
  // Asking an id another process filed first.
  expect(outcome.kind, where).toBe("ask-new");
  expect(outcome.code, where).toBe(1);
  expect(outcome.stderr, where).toContain("exists already");
}

let seeded: Promise<string> | undefined;

/** A box holding the seed questions: built once, copied for each N. */
function seededBox(): Promise<TestBox> {
  seeded ??= prepareBox(async (tb) => {
    for (const card of Object.values(SEEDS)) await askQuestion(tb, card);
  });
  return seeded.then((prepared) => copyBox(prepared));
}

async function race(n: number, rounds: number) {
  const tb = await seededBox();
  const next = random(n * 7919);
  const start = (await history(tb.dir)).subjects.length;
  const outcomes: Outcome[] = [];
  for (let round = 0; round < rounds; round++) {
    const ops = Array.from({ length: n }, () => nextOp(next));
    const results = await Promise.all(
      ops.map((op) =>
        runCli(op.args, {
          env: cliEnv(tb.dir),
          ...(op.input === undefined ? {} : { input: op.input }),
        }),
      ),
    );
    results.forEach((r, i) => {
      outcomes.push({ ...(ops[i] as Op), ...r });
    });
  }
  return { tb, outcomes, start };
}

async function expectInvariants(tb: TestBox, outcomes: Outcome[], start: number) {
  for (const outcome of outcomes) expectFairOutcome(outcome);

  // Every card valid; jobs exactly for the answered cards.
  const cards = diskCards(tb.dir);
  for (const c of cards) expect(c.error, c.id).toBeUndefined();
  const answered = cards
    .filter((c) => c.card?.status === "answered")
    .map((c) => c.id)
    .sort();
  expect(diskJobs(tb.dir)).toEqual(answered);

  // One answer per card: one winning answer process and one answer commit each.
  const won = outcomes.filter((o) => o.kind === "answer" && o.code === 0);
  expect(won.map((o) => o.id).sort()).toEqual(answered);
  for (const o of won) {
    const card = cards.find((c) => c.id === o.id)?.card;
    expect(o.stdout).toContain(`answered ${o.id}: ${card?.answer?.text}`);
  }

  // Linear history, one commit per successful change, nothing uncommitted.
  const { subjects, linear } = await history(tb.dir);
  expect(linear).toBe(true);
  const made = outcomes.reduce((sum, o) => sum + commitsOf(o), 0);
  expect(subjects.length - start).toBe(made);
  expect(subjects.filter((s) => s.startsWith("answer: "))).toHaveLength(answered.length);
  expect(await gitStatus(tb.dir)).toBe("");
  expect(await doctorFindings(tb)).toEqual([]);

  // The dedup ask filed the shared prompt once at most.
  const shared = cards.filter((c) => c.card?.prompt === SHARED_PROMPT);
  const filedShared = outcomes.filter((o) => o.kind === "ask-unless-open" && commitsOf(o) === 1);
  expect(shared).toHaveLength(filedShared.length);
  expect(shared.length).toBeLessThanOrEqual(1);

  // The ledger's audit agrees with the cards: one applied answer row per answered card.
  const ledger = new Ledger(tb.box.paths.ledgerPath);
  try {
    const applied = ledger
      .auditFor()
      .filter((row) => row.action === "answer" && row.outcome === "applied")
      .map((row) => row.questionId);
    expect(applied.sort()).toEqual(answered);
  } finally {
    ledger.close();
  }
}

describe("N processes racing on the same questions", () => {
  it.each(SIZES)(
    "with N=%i over %i round(s), every invariant holds afterwards",
    async (n, rounds) => {
      const { tb, outcomes, start } = await race(n, rounds);
      await expectInvariants(tb, outcomes, start);
      const conflicts = outcomes.filter((o) => o.code === 3).length;
      const lost = outcomes.filter((o) => o.code === 1 || o.code === 2).length;
      printFigures(`races N=${n}`, {
        operations: outcomes.length,
        succeeded: outcomes.filter((o) => o.code === 0).length,
        conflicts,
        lostRaces: lost,
        commits: outcomes.reduce((sum, o) => sum + commitsOf(o), 0),
      });
      totals.processes += outcomes.length;
      totals.operations += outcomes.length;
      totals.succeeded += outcomes.filter((o) => o.code === 0).length;
      totals.conflicts += conflicts;
      totals.lostRaces += lost;
    },
  );
});
