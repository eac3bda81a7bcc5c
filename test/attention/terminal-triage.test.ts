// Story at the keyboard: with a backlog, `waiting` lists the digest; `accept` lists exactly what
// would be recorded and records nothing; `record` records that list through the one judge (each
// answer its own commit, via terminal), skipping a question answered elsewhere meanwhile; a
// second `record` records nothing more. Without a list, `accept` and `record` say what to type.

import { afterEach, describe, expect, it } from "vitest";
import { questionFingerprint } from "../../src/card/fingerprint.ts";
import { answerQuestion } from "../../src/questions/answer.ts";
import { loadQuestion } from "../../src/questions/store.ts";
import { OFFER_LIFETIME_MS } from "../../src/slot/triage/offers.ts";
import { TRIAGE_NOTE } from "../../src/slot/triage/triage.ts";
import { ACCEPTABLE, IRREVERSIBLE, writeBacklog } from "../slot/triage-fixture.ts";
import { cleanupBoxes, gitLog, makeBox } from "../support/box.ts";
import { keyboardOn } from "../support/keyboard.ts";

afterEach(cleanupBoxes);

describe("triage at the keyboard", () => {
  it("waiting lists the backlog, accept lists what would be recorded, record records it once and names what was answered elsewhere", async () => {
    const box = await makeBox();
    writeBacklog(box.dir);
    const k = keyboardOn(box);

    expect(await k.type("accept")).toBe(
      "Nothing to accept: type waiting first; with 5 or more waiting it lists them.\n",
    );
    const digest = await k.type("waiting");
    expect(digest).toContain("12 questions wait on you. The first 10:");
    expect(digest).toContain(`1. ${ACCEPTABLE[0].prompt}\n     recommended: Finance`);
    expect(digest).toContain(
      `${IRREVERSIBLE.prompt}\n     recommended: Finance (irreversible: answer it on its own)`,
    );
    expect(digest).toContain("Type accept to see the 4 recommendations that can be accepted");

    const commits = (await gitLog(box.dir)).length;
    const listed = await k.type("accept");
    expect(listed).toContain(
      `Record 4 answers? Each as its own answer, with the note "${TRIAGE_NOTE}":`,
    );
    for (const item of ACCEPTABLE) expect(listed).toContain(`  - ${item.prompt} -> ${item.answer}`);
    expect(listed).toContain("Type record to record these");
    expect((await gitLog(box.dir)).length).toBe(commits);
    for (const item of ACCEPTABLE) expect(loadQuestion(box, item.id).card.status).toBe("pending");

    const [elsewhere, ...rest] = ACCEPTABLE;
    await answerQuestion(box, elsewhere.id, { text: "taxes" }, { via: "web" });
    const recorded = await k.type("record");
    expect(recorded).toContain("Recorded 3 answers:");
    expect(recorded).toContain(`Skipped 1:\n  - "${elsewhere.prompt}" was answered`);
    for (const item of rest) {
      const card = loadQuestion(box, item.id).card;
      expect(card.status).toBe("answered");
      expect(card.answer?.text).toBe(item.answer);
      expect(card.answer?.note).toBe(TRIAGE_NOTE);
      expect(card["answered-via"]).toBe("terminal");
      expect(card["answered-by"]).toBe("ada");
    }
    expect(loadQuestion(box, elsewhere.id).card.answer?.text).toBe("Taxes");
    expect((await gitLog(box.dir)).length).toBe(commits + 1 + rest.length);

    expect(await k.type("record")).toBe(
      "Nothing to record: type waiting, then accept, to see what would be recorded.\n",
    );
    expect((await gitLog(box.dir)).length).toBe(commits + 1 + rest.length);
    k.slot.close();
  });

  it("record more than an hour after the list records nothing and says to type waiting", async () => {
    const box = await makeBox();
    writeBacklog(box.dir);
    const k = keyboardOn(box);
    await k.type("waiting");
    await k.type("accept");
    const commits = (await gitLog(box.dir)).length;
    // The list was printed an hour and a minute before record is typed.
    const { id, created_at } = box.ledger.db
      .prepare("SELECT id, created_at FROM triage_offers")
      .get() as { id: string; created_at: string };
    const shown = new Date(Date.parse(created_at) - OFFER_LIFETIME_MS - 60_000).toISOString();
    box.ledger.db.prepare("UPDATE triage_offers SET created_at = ? WHERE id = ?").run(shown, id);

    expect(await k.type("record")).toBe(
      "This list is over an hour old, so nothing was recorded: type waiting for a fresh one.\n",
    );
    expect((await gitLog(box.dir)).length).toBe(commits);
    for (const item of ACCEPTABLE) expect(loadQuestion(box, item.id).card.status).toBe("pending");
    k.slot.close();
  });

  it("the list's tokens carry the card hash the slot minted, never an empty one", async () => {
    const box = await makeBox();
    writeBacklog(box.dir);
    const k = keyboardOn(box);
    await k.type("waiting");
    await k.type("accept");
    const tokens = box.ledger.db
      .prepare("SELECT question_id, card_hash FROM button_tokens")
      .all() as { question_id: string; card_hash: string }[];
    expect(tokens).toHaveLength(2);
    for (const token of tokens) {
      expect(token.card_hash).toBe(questionFingerprint(loadQuestion(box, token.question_id).card));
    }
  });
});
