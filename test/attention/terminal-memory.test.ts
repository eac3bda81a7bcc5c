// Story at the keyboard: the terminal shows "Last time" and the deadline; "same" records last
// time's answer through the judge and the core with its note, "extend" gives 7 more days
// ("extend 3d" three, even on a text question, where it is no answer), and
// "same" on a question like nothing answered records nothing. "later" lists the times and
// "later morning" puts the open question off, through the same judge as Telegram's [⏰ Later];
// a put-off question answered elsewhere has its put-off forgotten.

import { afterEach, describe, expect, it } from "vitest";
import { answerQuestion } from "../../src/questions/answer.ts";
import { askQuestion } from "../../src/questions/ask.ts";
import { loadQuestion } from "../../src/questions/store.ts";
import { LaterStore } from "../../src/slot/attention/later.ts";
import { atTime, cleanupBoxes, makeBox, selectCard, textCard } from "../support/box.ts";
import { keyboardOn } from "../support/keyboard.ts";

afterEach(cleanupBoxes);

async function keyboard() {
  const box = await makeBox();
  const first = (await askQuestion(box, selectCard({ "asked-at": "2026-03-02T09:00:00Z" }))).id;
  await answerQuestion(
    atTime(box, "2026-03-03T10:00:00Z"),
    first,
    { text: "taxes" },
    { via: "cli" },
  );
  return { box, first, ...keyboardOn(box) };
}

describe("same and extend at the keyboard", () => {
  it("extend gives 7 more days and shows the question again; same records last time's answer with its note", async () => {
    const k = await keyboard();
    const { id } = await askQuestion(
      k.box,
      selectCard({ prompt: "Where do photographed receipts from the bakery belong?" }),
    );
    await k.slot.reconcile();
    expect(k.screen()).toContain("  Last time (3 Mar): Taxes\n");
    expect(k.screen()).toContain("  It expires in 30 days.\n");

    const extended = await k.type("extend");
    expect(extended).toContain("extended: it expires in 37 days; shown again below");
    expect(extended).toContain("  It expires in 37 days.\n");
    expect(loadQuestion(k.box, id).card["expires-after"]).toBe("P37D");

    await k.type("same");
    const card = loadQuestion(k.box, id).card;
    expect(card.answer).toEqual({ text: "Taxes", selected: "taxes", note: `same as ${k.first}` });
    expect(card["answered-via"]).toBe("terminal");
    k.slot.close();
  });

  it("later lists the times, later morning puts the question off until then, park it is still an answer, and a put-off answered elsewhere is forgotten", async () => {
    const k = await keyboard();
    const { id } = await askQuestion(
      k.box,
      selectCard({
        prompt: "Where do the bakery receipts go?",
        "asked-at": "2026-07-09T09:00:00Z",
      }),
    );
    const { id: text } = await askQuestion(k.box, textCard());
    await k.slot.reconcile();
    expect(k.slot.current()?.questionId).toBe(id);

    const asked = await k.type("later");
    expect(asked).toContain("When should it come back? Type one of:");
    expect(asked).toContain("  later morning  Tomorrow morning (09:00)");
    expect(asked).toContain("  later week     Next week (Monday 09:00)");
    expect(await k.type("later today")).toBe(
      '"today" is not one of the times: pick one. Type one of:\n' +
        asked.split("Type one of:\n")[1],
    );
    expect(k.slot.current()?.questionId).toBe(id);

    const putOff = await k.type("later morning");
    expect(putOff).toContain("⏰ Later: back tomorrow at 09:00.");
    expect(loadQuestion(k.box, id).card.status).toBe("pending");
    // The slot moved on to the other question; the first stays out of it until 09:00.
    expect(k.slot.current()?.questionId).toBe(text);
    expect(await k.type("park it")).toContain("Recorded: park it\n");
    expect(loadQuestion(k.box, text).card.answer?.text).toBe("park it");
    await k.slot.reconcile();
    expect(k.slot.current()).toBeUndefined();

    // Answered at the CLI while put off: the slot's next look forgets the put-off, which the
    // slot's own look before had kept while the question was pending.
    const putOffs = new LaterStore(k.box.ledger.db);
    expect(putOffs.until(id)).toBeDefined();
    await answerQuestion(k.box, id, { text: "taxes" }, { via: "cli" });
    await k.slot.reconcile();
    expect(putOffs.until(id)).toBeUndefined();
    k.slot.close();
  });

  it("extend 3d on a text question gives 3 more days and records no answer; a bad length says how to answer with the words", async () => {
    const k = await keyboard();
    const { id } = await askQuestion(k.box, textCard());
    await k.slot.reconcile();
    expect(k.screen()).toContain("  It expires in 30 days.\n");

    const extended = await k.type("extend 3d");
    expect(extended).toContain("extended: it expires in 33 days; shown again below");
    const card = loadQuestion(k.box, id).card;
    expect(card.status).toBe("pending");
    expect(card["expires-after"]).toBe("P33D");

    expect(await k.type("extend soon")).toBe(
      'Not recorded: "soon" is not a length of time: give an ISO-8601 duration such as P7D or PT12H, or a number and a unit such as 3d, 12h, 2w.\n' +
        'To record "extend soon" as your answer, type it in quotes.\n',
    );
    expect(loadQuestion(k.box, id).card["expires-after"]).toBe("P33D");

    // The rest of the line is the length, however many words: never an answer.
    expect(await k.type("extend 2 d")).toContain("extended: it expires in 35 days");
    expect(await k.type("extend by a week")).toContain(
      'To record "extend by a week" as your answer, type it in quotes.\n',
    );
    expect(loadQuestion(k.box, id).card.status).toBe("pending");

    expect(await k.type('"extend soon"')).toContain("Recorded: extend soon\n");
    expect(loadQuestion(k.box, id).card.answer?.text).toBe("extend soon");
    k.slot.close();
  });

  it("same on a question like nothing answered records nothing and says so", async () => {
    const k = await keyboard();
    const { id } = await askQuestion(k.box, textCard());
    await k.slot.reconcile();
    expect(await k.type("same")).toBe(
      "No earlier answer fits this question; nothing was recorded.\n",
    );
    expect(loadQuestion(k.box, id).card.status).toBe("pending");
    k.slot.close();
  });
});
