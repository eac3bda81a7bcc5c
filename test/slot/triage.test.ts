// Triage of a backlog in the core, with no chat service: which questions a digest lists and
// offers, and what confirming an offer records. The Telegram and web stories render the same.

import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { answerQuestion } from "../../src/questions/answer.ts";
import { pendingQuestions } from "../../src/questions/state.ts";
import { loadQuestion } from "../../src/questions/store.ts";
import { OFFER_LIFETIME_MS, TriageOffers } from "../../src/slot/triage/offers.ts";
import { DIGEST_LINES, TRIAGE_NOTE, triageDigest } from "../../src/slot/triage/triage.ts";
import { cleanupBoxes, gitLog, makeBox, questionRel, type TestBox } from "../support/box.ts";
import { ACCEPTABLE, IRREVERSIBLE, writeBacklog } from "./triage-fixture.ts";

afterEach(cleanupBoxes);

async function backlog(): Promise<TestBox> {
  const box = await makeBox();
  writeBacklog(box.dir);
  return box;
}

const load = (box: TestBox) => (id: string) => {
  try {
    return loadQuestion(box, id).card;
  } catch {
    return undefined;
  }
};

const viaTest =
  (box: TestBox) =>
  (id: string, attempt: { text: string; note?: string }, options = {}) =>
    answerQuestion(box, id, attempt, { via: "test" }, options);

describe("triage of a backlog", () => {
  it("lists 10 of 12 waiting with their recommendations and offers the 4 recommended reversible ones", async () => {
    const box = await backlog();
    const digest = triageDigest(pendingQuestions(box).pending);
    expect(digest?.waiting).toBe(12);
    expect(digest?.lines).toHaveLength(DIGEST_LINES);
    expect(digest?.lines.find((l) => l.id === IRREVERSIBLE.id)).toMatchObject({
      recommendation: "Finance",
      held: "irreversible",
    });
    expect(digest?.offer.map((o) => [o.id, o.answer])).toEqual(
      ACCEPTABLE.map((a) => [a.id, a.answer]),
    );
  });

  it("offers no digest while fewer than 5 questions wait", async () => {
    const box = await backlog();
    expect(triageDigest(pendingQuestions(box).pending.slice(0, 4))).toBeUndefined();
  });

  it("skips and names a question edited and one answered elsewhere after the list; records the rest once", async () => {
    const box = await backlog();
    const digest = triageDigest(pendingQuestions(box).pending);
    const offers = new TriageOffers(box.ledger.db);
    const offerId = offers.save(digest?.offer ?? [], "test", box.box.clock.iso());
    const [edited, elsewhere, ...rest] = ACCEPTABLE;
    const path = join(box.dir, questionRel(edited.id));
    writeFileSync(
      path,
      readFileSync(path, "utf8").replace("recommended: finance", "recommended: taxes"),
    );
    await answerQuestion(box, elsewhere.id, { text: "no" }, { via: "web" });
    const before = (await gitLog(box.dir)).length;

    const decision = await offers.decide(offerId, viaTest(box), load(box), box.box.clock.iso());

    expect(decision.kind).toBe("recorded");
    const result = decision.kind === "recorded" ? decision.result : undefined;
    expect(result?.recorded.map((r) => r.id)).toEqual(rest.map((r) => r.id));
    expect(result?.skipped).toEqual([
      { id: edited.id, prompt: edited.prompt, why: "was edited since the list" },
      { id: elsewhere.id, prompt: elsewhere.prompt, why: "was answered via web: No" },
    ]);
    expect((await gitLog(box.dir)).length - before).toBe(rest.length);
    for (const { id, answer } of rest) {
      expect(loadQuestion(box, id).card.answer).toMatchObject({ text: answer, note: TRIAGE_NOTE });
    }
    expect(loadQuestion(box, edited.id).card.status).toBe("pending");

    const again = await offers.decide(offerId, viaTest(box), load(box), box.box.clock.iso());
    expect(again).toEqual({ kind: "replayed", result });
    expect((await gitLog(box.dir)).length - before).toBe(rest.length);
    // A decided list replays its result however late the tap comes.
    const later = new Date(Date.parse(box.box.clock.iso()) + 2 * OFFER_LIFETIME_MS).toISOString();
    expect(await offers.decide(offerId, viaTest(box), load(box), later)).toEqual(again);
  });

  it("records nothing from a list confirmed more than an hour after it was shown; within the hour it records", async () => {
    const box = await backlog();
    const digest = triageDigest(pendingQuestions(box).pending);
    const offers = new TriageOffers(box.ledger.db);
    const shownAt = Date.parse(box.box.clock.iso());
    const at = (ms: number) => new Date(shownAt + ms).toISOString();
    const stale = offers.save(digest?.offer ?? [], "test", at(0));
    const fresh = offers.save(digest?.offer ?? [], "test", at(2 * 60_000));
    const before = (await gitLog(box.dir)).length;

    const late = at(OFFER_LIFETIME_MS + 60_000);
    expect(await offers.decide(stale, viaTest(box), load(box), late)).toEqual({ kind: "expired" });
    expect((await gitLog(box.dir)).length).toBe(before);
    expect(pendingQuestions(box).pending).toHaveLength(12);

    const decision = await offers.decide(fresh, viaTest(box), load(box), late);
    expect(decision.kind).toBe("recorded");
    expect((await gitLog(box.dir)).length - before).toBe(ACCEPTABLE.length);
  });
});
