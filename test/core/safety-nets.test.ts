// The last lines of defence: a transition never commits a card that would not load, an ask
// never reuses an id held by a card in a subfolder, and a nudge claimed by a sweep that died
// is taken over instead of being lost.

import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { questionFingerprint } from "../../src/card/fingerprint.ts";
import { CardChanged, InvalidInput } from "../../src/errors.ts";
import { answerQuestion } from "../../src/questions/answer.ts";
import { askQuestion } from "../../src/questions/ask.ts";
import { loadQuestion } from "../../src/questions/store.ts";
import { withQuestionTransition } from "../../src/questions/transition.ts";
import {
  cleanupBoxes,
  gitLog,
  gitStatus,
  makeBox,
  pendingCardText,
  readBoxFile,
  selectCard,
} from "../support/box.ts";

afterEach(cleanupBoxes);

describe("safety nets", () => {
  it("a transition whose rewritten card would not load writes nothing and commits nothing", async () => {
    const b = await makeBox();
    const { id, rel } = await askQuestion(b, selectCard());
    const before = readBoxFile(b.dir, rel);
    const commits = (await gitLog(b.dir)).length;
    const broken = before.replace("status: pending", "status: answered");
    await expect(
      withQuestionTransition(b, id, "answer", ["pending"], (current) => ({
        plan: { writes: [{ rel: current.rel, content: broken }], message: "bad", trailers: {} },
        value: undefined,
      })),
    ).rejects.toThrow(/would not load \(.*needs "answer"/);
    expect(readBoxFile(b.dir, rel)).toBe(before);
    expect(await gitLog(b.dir)).toHaveLength(commits);
    expect(await gitStatus(b.dir)).toBe("");
  });

  it("an answer made for an older version of the options is refused inside the lock", async () => {
    const b = await makeBox();
    const { id, rel } = await askQuestion(b, selectCard());
    const seen = questionFingerprint(loadQuestion(b, id).card);
    const path = join(b.dir, rel);
    writeFileSync(path, readFileSync(path, "utf8").replace("label: Taxes", "label: Tax office"));
    const edited = readBoxFile(b.dir, rel);
    await expect(
      answerQuestion(b, id, { text: "b" }, { via: "telegram" }, { fingerprint: seen }),
    ).rejects.toThrow(CardChanged);
    expect(readBoxFile(b.dir, rel)).toBe(edited);
    const fresh = questionFingerprint(loadQuestion(b, id).card);
    const done = await answerQuestion(
      b,
      id,
      { text: "b" },
      { via: "telegram" },
      { fingerprint: fresh },
    );
    expect(done.answer).toMatchObject({ text: "Tax office", selected: "taxes" });
  });

  it("an empty fingerprint is no pass: the answer is refused inside the lock", async () => {
    const b = await makeBox();
    const { id, rel } = await askQuestion(b, selectCard());
    const path = join(b.dir, rel);
    writeFileSync(path, readFileSync(path, "utf8").replace("label: Taxes", "label: Tax office"));
    const edited = readBoxFile(b.dir, rel);
    await expect(
      answerQuestion(b, id, { text: "b" }, { via: "web" }, { fingerprint: "" }),
    ).rejects.toThrow(CardChanged);
    expect(readBoxFile(b.dir, rel)).toBe(edited);
    expect(loadQuestion(b, id).card.status).toBe("pending");
  });

  it("an ask refuses an id that a card in a subfolder already has", async () => {
    const b = await makeBox();
    const nested = join(b.dir, "_bookkeeping/questions/archive");
    mkdirSync(nested);
    writeFileSync(
      join(nested, "receipts.question.card"),
      pendingCardText({
        prompt: "Old question",
        memo: "m",
        input: { type: "text" },
        directive: "d",
      }),
    );
    await expect(askQuestion(b, selectCard({ id: "receipts" }))).rejects.toThrow(InvalidInput);
    await expect(askQuestion(b, selectCard({ id: "receipts" }))).rejects.toThrow(
      /id "receipts" exists already/,
    );
  });

  it("a nudge claimed by a sweep that died is taken over once the claim is stale", async () => {
    const b = await makeBox();
    expect(b.ledger.claimNudge("q1", "2026-07-10T09:00:00Z")).toBe(true);
    // The claiming sweep died before confirming: a fresh claim is still refused...
    expect(b.ledger.claimNudge("q1", "2026-07-10T09:05:00Z")).toBe(false);
    // ...but one past the stale time takes it over, and only one taker wins.
    expect(b.ledger.claimNudge("q1", "2026-07-10T09:20:00Z")).toBe(true);
    expect(b.ledger.claimNudge("q1", "2026-07-10T09:21:00Z")).toBe(false);
    b.ledger.confirmNudge("q1");
    expect(b.ledger.claimNudge("q1", "2026-08-10T09:00:00Z")).toBe(false);
  });
});
