// Story: a new bridge hands every attempt to the judge and filters nobody itself. A stranger
// types an answer and sends a command on the open question: the judge refuses both, the card
// stays pending, the presentation stays open as it was, and the audit says refused.

import { afterEach, describe, expect, it } from "vitest";
import { askQuestion } from "../../src/questions/ask.ts";
import { loadQuestion } from "../../src/questions/store.ts";
import { createJudge } from "../../src/slot/judge/judge.ts";
import type { Presenter } from "../../src/slot/presentation/presenter.ts";
import { createSlot } from "../../src/slot/slot.ts";
import { cleanupBoxes, makeBox, selectCard } from "../support/box.ts";
import { fromPerson } from "../support/people.ts";

afterEach(cleanupBoxes);

const stranger = fromPerson("open-door", "mallory");

/** A bridge with no filter of its own: it shows the question and passes on whatever comes. */
async function unfilteredBridge() {
  const box = await makeBox();
  const slot = createSlot({ core: box });
  const judge = createJudge(slot);
  const closed: number[] = [];
  const presenter: Presenter = {
    surface: "open-door",
    ready: () => true,
    present: async () => ({ chatId: "room", messageId: "1" }),
    async closed(presentation) {
      closed.push(presentation.seq);
    },
  };
  slot.attach(presenter);
  const { id } = await askQuestion(box, selectCard());
  await slot.reconcile();
  return { box, slot, judge, id, closed };
}

describe("the judge refuses a stranger whatever the bridge", () => {
  it("a stranger's typed answer changes nothing and is audited as refused", async () => {
    const b = await unfilteredBridge();
    const before = b.slot.presentations.forQuestion(b.id);
    const outcome = await b.judge.attempt({
      kind: "text",
      from: stranger,
      text: "b",
      chatId: "room",
      messageId: 2,
    });
    expect(outcome).toMatchObject({ reason: "stranger", name: "refused:stranger" });
    expect(loadQuestion(b.box, b.id).card.status).toBe("pending");
    expect(b.slot.presentations.forQuestion(b.id)).toEqual(before);
    expect(b.closed).toEqual([]);
    const rows = b.box.ledger.auditFor().filter((row) => row.actor === "mallory");
    expect(rows).toMatchObject([
      { surface: "open-door", action: "message", verbatim: "b", outcome: "refused:stranger" },
    ]);
    await b.slot.close();
  });

  it("a stranger's command changes nothing and is audited as refused", async () => {
    const b = await unfilteredBridge();
    const before = b.slot.presentations.forQuestion(b.id);
    for (const action of ["dismiss", "later", "park"] as const) {
      const outcome = await b.judge.attempt({
        kind: "command",
        from: stranger,
        action,
      });
      expect(outcome).toMatchObject({ reason: "stranger", name: "refused:stranger" });
    }
    expect(loadQuestion(b.box, b.id).card.status).toBe("pending");
    expect(b.slot.presentations.forQuestion(b.id)).toEqual(before);
    expect(b.slot.later.until(b.id)).toBeUndefined();
    expect(b.closed).toEqual([]);
    const rows = b.box.ledger.auditFor().filter((row) => row.actor === "mallory");
    expect(rows.map((row) => [row.action, row.outcome])).toEqual([
      ["command:dismiss", "refused:stranger"],
      ["command:later", "refused:stranger"],
      ["command:park", "refused:stranger"],
    ]);
    await b.slot.close();
  });
});
