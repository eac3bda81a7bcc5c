// Story: the card hash a button is judged by is the slot's, minted when it presented the
// question, never one a bridge brings. A bridge that brings none, or a wrong one (the hash of
// the card as edited later, an empty one), cannot get an answer recorded for a card edited
// since it was shown, and its buttons on an unchanged card answer as any bridge's do.

import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { questionFingerprint } from "../../src/card/fingerprint.ts";
import type { Question } from "../../src/card/question.ts";
import { askQuestion } from "../../src/questions/ask.ts";
import { listJobs } from "../../src/questions/state.ts";
import { loadQuestion } from "../../src/questions/store.ts";
import { createJudge, type TokenOwner } from "../../src/slot/judge/judge.ts";
import type { Presenter } from "../../src/slot/presentation/presenter.ts";
import { createSlot } from "../../src/slot/slot.ts";
import { cleanupBoxes, makeBox, selectCard } from "../support/box.ts";
import { fromPerson } from "../support/people.ts";

afterEach(cleanupBoxes);

const boxholder = fromPerson("desk", "ada");

/** Taxes renamed on disk, as an editor would do it after the question was shown. */
const EDIT = (text: string) => text.replace("label: Taxes", "label: Tax office");

/**
 * A bridge that puts `extra` (a hash of its own, or none) into the owner of its buttons, as a
 * bridge written in plain JavaScript could: the judge must not read it.
 */
async function bridgeWithHash(extra: (card: Question) => Record<string, unknown>) {
  const box = await makeBox();
  const slot = createSlot({ core: box });
  const judge = createJudge(slot);
  let taxes = "";
  const presenter: Presenter = {
    surface: "desk",
    ready: () => true,
    async present(request) {
      const owner = {
        presentationSeq: request.seq,
        questionId: request.question.id,
        ...extra(request.question.card),
      } as unknown as TokenOwner;
      const spec = { action: "answer", optionId: "taxes", label: "Taxes" } as const;
      const messageId = await judge.withButtons(owner, "desk", [spec], async (tokens) => {
        taxes = tokens[0] as string;
        return "1";
      });
      return { chatId: "desk", messageId };
    },
    async closed() {},
  };
  slot.attach(presenter);
  const { id } = await askQuestion(box, selectCard());
  await slot.reconcile();
  const edit = () => {
    const path = join(box.dir, loadQuestion(box, id).rel);
    writeFileSync(path, EDIT(readFileSync(path, "utf8")));
  };
  const tap = () =>
    judge.attempt({
      kind: "button",
      from: boxholder,
      token: taxes,
      where: { chatId: "desk", messageId: "1" },
    });
  return { box, slot, id, edit, tap };
}

/** The hash of the card as it will be once edited: what a bridge reading it late would mint. */
function editedHash(card: Question): string {
  const options = (card.input.options ?? []).map((o) =>
    o.label === "Taxes" ? { ...o, label: "Tax office" } : o,
  );
  return questionFingerprint({ prompt: card.prompt, input: { ...card.input, options } });
}

describe("the card hash is the slot's, whatever the bridge brings", () => {
  it("a bridge bringing the edited card's hash cannot get an answer recorded for the shown one", async () => {
    const b = await bridgeWithHash((card) => ({ cardHash: editedHash(card) }));
    b.edit();
    const outcome = await b.tap();
    expect(outcome).toMatchObject({ kind: "refused", reason: "changed" });
    expect(loadQuestion(b.box, b.id).card.status).toBe("pending");
    expect(listJobs(b.box)).toHaveLength(0);
    await b.slot.close();
  });

  it("a bridge bringing no hash: its button answers the unchanged card", async () => {
    const b = await bridgeWithHash(() => ({}));
    const outcome = await b.tap();
    expect(outcome).toMatchObject({ kind: "recorded", name: "answered" });
    expect(loadQuestion(b.box, b.id).card.answer).toMatchObject({ selected: "taxes" });
    await b.slot.close();
  });

  it("a bridge bringing no hash: its button is refused once the card was edited", async () => {
    const b = await bridgeWithHash(() => ({}));
    b.edit();
    expect(await b.tap()).toMatchObject({ kind: "refused", reason: "changed" });
    expect(loadQuestion(b.box, b.id).card.status).toBe("pending");
    await b.slot.close();
  });

  it("an empty hash from a bridge is neither a pass nor a refusal: the slot's hash decides", async () => {
    const b = await bridgeWithHash(() => ({ cardHash: "" }));
    expect(await b.tap()).toMatchObject({ kind: "recorded", name: "answered" });
    const tokens = b.box.ledger.db.prepare("SELECT card_hash FROM button_tokens").all() as {
      card_hash: string;
    }[];
    const shown = b.slot.presentations.forQuestion(b.id)[0]?.cardHash;
    expect(shown).toMatch(/^[\w-]{16}$/);
    expect(tokens.map((t) => t.card_hash)).toEqual([shown]);
    await b.slot.close();
  });
});
