// Story: a select whose labels are letters ("B" first, "A" second). Typed "a" could mean the
// option shown as a) or the option labelled A: the judge records nothing and names both, on
// every surface that reads typed words; a new question with such labels is refused at ask time.

import { afterEach, describe, expect, it } from "vitest";
import { AskSchema, describeIssues } from "../../src/card/question.ts";
import { resolveAnswer } from "../../src/card/resolve.ts";
import { loadQuestion } from "../../src/questions/store.ts";
import { createJudge } from "../../src/slot/judge/judge.ts";
import type { Presenter } from "../../src/slot/presentation/presenter.ts";
import { createSlot } from "../../src/slot/slot.ts";
import { cleanupBoxes, makeBox, pendingCardText, writeCardFile } from "../support/box.ts";
import { fromPerson } from "../support/people.ts";

afterEach(cleanupBoxes);

const LETTERED = {
  directive: "Use the one chosen.",
  memo: "Two labels that are letters.",
  prompt: "Which one?",
  input: {
    type: "select",
    options: [
      { id: "x", label: "B" },
      { id: "y", label: "A" },
      { id: "z", label: "Yes" },
    ],
  },
};

describe("a typed letter that could mean two options", () => {
  it("resolves to nothing and names both candidates", () => {
    const card = { input: LETTERED.input as never };
    expect(() => resolveAnswer(card, { text: "a" })).toThrow(/could mean a\) B or b\) A/);
    expect(() => resolveAnswer(card, { text: "b" })).toThrow(/could mean a\) B or b\) A/);
    expect(resolveAnswer(card, { text: "c" })).toMatchObject({ selected: "z" });
    expect(resolveAnswer(card, { text: "Yes" })).toMatchObject({ selected: "z" });
    expect(resolveAnswer(card, { text: "a", option: "y" })).toMatchObject({ selected: "y" });
  });

  it("the judge records nothing for it on an already filed card and asks which", async () => {
    const box = await makeBox();
    writeCardFile(box.dir, "lettered", pendingCardText(LETTERED));
    const slot = createSlot({ core: box });
    const judge = createJudge(slot);
    const presenter: Presenter = {
      surface: "door",
      ready: () => true,
      present: async () => ({ chatId: "room", messageId: "1" }),
      async closed() {},
    };
    slot.attach(presenter);
    await slot.reconcile();
    const outcome = await judge.attempt({
      kind: "text",
      from: fromPerson("door", "owner", "owner"),
      text: "a",
      chatId: "room",
      messageId: 2,
    });
    expect(outcome.kind).toBe("clarification");
    expect(outcome.reply).toMatch(/could mean a\) B or b\) A.*Nothing was recorded/);
    expect(loadQuestion(box, "lettered").card.status).toBe("pending");
    await slot.close();
  });

  it("a new question whose label is another option's letter or id is refused at ask time", () => {
    const result = AskSchema.safeParse(LETTERED);
    expect(result.success).toBe(false);
    const message = result.success ? "" : describeIssues(result.error);
    expect(message).toContain('input.options.0.label: "B" is also how option "A" (b) can be typed');
    expect(message).toContain('input.options.1.label: "A" is also how option "B" (a) can be typed');
    const idClash = AskSchema.safeParse({
      ...LETTERED,
      input: {
        type: "select",
        options: [
          { id: "b", label: "Bob" },
          { id: "a", label: "Alice" },
        ],
      },
    });
    expect(idClash.success).toBe(false);
    const fine = AskSchema.safeParse({
      ...LETTERED,
      input: {
        type: "select",
        options: [
          { id: "a", label: "Alice" },
          { id: "b", label: "Bob" },
        ],
      },
    });
    expect(fine.success).toBe(true);
  });
});
