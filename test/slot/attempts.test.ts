// The judge with no bot and no terminal: a "desk" surface that shows questions with buttons
// minted through the judge, as any bridge would, and hands over attempts. Each decision of the
// judge is checked here by its outcome and by what the box and the ledger hold afterwards.

import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { askQuestion } from "../../src/questions/ask.ts";
import { listJobs } from "../../src/questions/state.ts";
import { loadQuestion } from "../../src/questions/store.ts";
import { type Attempt, createJudge, type Outcome } from "../../src/slot/judge/judge.ts";
import type { Presenter } from "../../src/slot/presentation/presenter.ts";
import type { ButtonSpec } from "../../src/slot/presentation/tokens.ts";
import { createSlot } from "../../src/slot/slot.ts";
import {
  cleanupBoxes,
  confirmCard,
  makeBox,
  pendingCardText,
  selectCard,
  writeCardFile,
} from "../support/box.ts";
import { fromPerson } from "../support/people.ts";

afterEach(cleanupBoxes);

const SURFACE = "desk";
const boxholder = "ada";

/** `byHand`: the card is written as a file, as one filed before today's ask rules would be. */
async function desk(card: Record<string, unknown>, byHand = false) {
  const box = await makeBox();
  const slot = createSlot({ core: box });
  const judge = createJudge(slot);
  let next = 1;
  /** The tokens of each message, by the button's action and option. */
  const buttons = new Map<string, string>();
  const presenter: Presenter = {
    surface: SURFACE,
    ready: () => true,
    async present(request) {
      const specs: ButtonSpec[] = [
        { action: "answer", optionId: "finance", label: "Finance" },
        { action: "answer", optionId: "taxes", label: "Taxes" },
        { action: "answer", optionId: "yes", label: "Yes" },
        { action: "dismiss" },
      ];
      const owner = { presentationSeq: request.seq, questionId: request.question.id };
      const messageId = await judge.withButtons(owner, "desk", specs, async (tokens) => {
        specs.forEach((s, i) => {
          buttons.set(`${s.action}:${s.optionId ?? ""}`, tokens[i] as string);
        });
        return String(next++);
      });
      return { chatId: "desk", messageId };
    },
    async closed() {},
  };
  slot.attach(presenter);
  if (byHand) writeCardFile(box.dir, "by-hand", pendingCardText(card));
  const id = byHand ? "by-hand" : (await askQuestion(box, card)).id;
  await slot.reconcile();
  const tap = (button: string, person = boxholder, messageId = "1"): Promise<Outcome> =>
    judge.attempt({
      kind: "button",
      from: fromPerson(SURFACE, person),
      token: buttons.get(button) as string,
      where: { chatId: "desk", messageId },
    });
  const type = (text: string, extra: Partial<Attempt> = {}): Promise<Outcome> =>
    judge.attempt({
      kind: "text",
      from: fromPerson(SURFACE, boxholder),
      text,
      ...extra,
    } as Attempt);
  const edit = (change: (text: string) => string) => {
    const path = join(box.dir, loadQuestion(box, id).rel);
    writeFileSync(path, change(readFileSync(path, "utf8")));
  };
  return { box, slot, id, tap, type, edit };
}

describe("the judge decides every attempt, whatever the surface", () => {
  it("a tap answers once; the same token again replays the first reply and writes no second job", async () => {
    const d = await desk(selectCard());
    const first = await d.tap("answer:taxes");
    expect(first).toMatchObject({
      kind: "recorded",
      name: "answered",
      reply: "✅ Recorded: Taxes",
    });
    const again = await d.tap("answer:taxes");
    expect(again).toMatchObject({ kind: "replayed", reply: "✅ Recorded: Taxes" });
    const other = await d.tap("dismiss:");
    expect(other).toMatchObject({ kind: "replayed", reply: "✅ Recorded: Taxes" });
    expect(loadQuestion(d.box, d.id).card).toMatchObject({
      status: "answered",
      "answered-via": SURFACE,
      "answered-by": "ada",
    });
    expect(listJobs(d.box)).toHaveLength(1);
    const taps = d.box.ledger.auditFor(d.id).filter((a) => a.action === "tap:answer");
    expect(taps.map((a) => a.outcome)).toEqual(["answered", "replayed"]);
    await d.slot.close();
  });

  it("a tap answers its button's option even when another option is labelled with that id", async () => {
    const d = await desk(
      selectCard({
        input: {
          type: "select",
          options: [
            { id: "finance", label: "Taxes" },
            { id: "taxes", label: "Finance" },
          ],
        },
      }),
      true,
    );
    await d.tap("answer:finance");
    expect(loadQuestion(d.box, d.id).card.answer).toEqual({ text: "Taxes", selected: "finance" });
    await d.slot.close();
  });

  it("a stranger's tap is not for us: nothing recorded, the token stays unused", async () => {
    const d = await desk(selectCard());
    const outcome = await d.tap("answer:taxes", "mallory");
    expect(outcome).toMatchObject({ kind: "not-for-us", reason: "stranger" });
    expect(await d.tap("answer:finance")).toMatchObject({ kind: "recorded" });
    expect(loadQuestion(d.box, d.id).card.answer).toMatchObject({ selected: "finance" });
    await d.slot.close();
  });

  it("a token tapped on another message than the one it was sent in is refused", async () => {
    const d = await desk(selectCard());
    expect(await d.tap("answer:taxes", boxholder, "99")).toMatchObject({
      kind: "refused",
      reason: "elsewhere",
    });
    expect(loadQuestion(d.box, d.id).card.status).toBe("pending");
    await d.slot.close();
  });

  it("labels swapped since shown refuse both the tap and the typed letter", async () => {
    const d = await desk(selectCard());
    d.edit((text) =>
      text
        .replace("label: Finance", "label: @@")
        .replace("label: Taxes", "label: Finance")
        .replace("label: @@", "label: Taxes"),
    );
    expect(await d.type("b")).toMatchObject({ kind: "refused", reason: "changed" });
    expect(await d.tap("answer:taxes")).toMatchObject({ kind: "refused", reason: "changed" });
    expect(loadQuestion(d.box, d.id).card.status).toBe("pending");
    expect(listJobs(d.box)).toHaveLength(0);
    await d.slot.close();
  });

  it("an irreversible answer needs confirmation, typed or tapped; a typed no declines at once", async () => {
    const d = await desk(confirmCard({ irreversible: true }));
    expect(await d.tap("answer:yes")).toMatchObject({
      kind: "needs-confirmation",
      relayout: "confirm",
    });
    const typed = await d.type("yes");
    expect(typed).toMatchObject({ kind: "needs-confirmation", confirm: { text: "yes" } });
    expect(typed.reply).toBe('Record "Yes" as your answer? It cannot be undone.');
    // Typed in quotes is no stray key, but the answer is still irreversible.
    expect(await d.type("yes", { literal: true })).toMatchObject({ kind: "needs-confirmation" });
    expect(loadQuestion(d.box, d.id).card.status).toBe("pending");
    expect(await d.type("no - not today")).toMatchObject({ kind: "recorded" });
    expect(loadQuestion(d.box, d.id).card.answer).toMatchObject({
      selected: "no",
      note: "not today",
    });
    await d.slot.close();
  });

  it("typed text with nothing open is not for us", async () => {
    const d = await desk(selectCard());
    await d.slot.park();
    await d.slot.park();
    expect(d.slot.current()).toBeUndefined();
    expect(await d.type("b")).toMatchObject({ kind: "not-for-us", reason: "nothing-open" });
    await d.slot.close();
  });
});
