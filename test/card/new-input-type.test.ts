// Adding an input type is its room and one line. A copy of the source tree gets a throw-away
// type (a rating of one to five stars) in a module of its own and one export line in the list
// of types, and no other edit; a card of that type is then validated by the card rules, shown
// with its buttons on Telegram (the emulator) and as its form on the web page, answered by a
// tap there, and answered by a typed reply at the keyboard, all through the copy's own code.

import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT } from "../support/box.ts";

/** The throw-away type: its whole room. */
const RATING = `// A rating: one to five stars, tapped or typed as a digit.
import { InvalidAnswer } from "../../errors.ts";
import type { InputType } from "./contract.ts";

const STARS = [1, 2, 3, 4, 5].map((n) => ({ id: String(n), label: "⭐".repeat(n) }));

export const rating: InputType = {
  name: "rating",
  summary: "rating: one to five stars",
  takesOptions: false,
  answersYesNo: false,
  issues: (card) =>
    card.input.options === undefined
      ? []
      : [{ path: ["input", "options"], message: "a rating question carries its own five stars" }],
  options: () => STARS,
  choices: (card) =>
    STARS.map((s) => ({ ...s, letter: undefined, recommended: card.recommended === s.id, ownWords: false })),
  fromText: (_input, typed) => ({ text: typed.trim() }),
  resolve(_input, attempt) {
    const stars = STARS.find((s) => s.id === (attempt.option ?? attempt.text.trim()));
    if (!stars) throw new InvalidAnswer(attempt.text, "a number of stars from 1 to 5");
    return { text: stars.id + " of 5 stars", selected: stars.id };
  },
  picked: (answer) => (answer.selected ? [answer.selected] : []),
  declines: () => false,
  strayKey: () => false,
  buttons: (card) => ({
    layout: "row",
    buttons: rating.choices(card).map((c) => ({ ...c, action: "answer" })),
  }),
  form: (card) => [{ part: "buttons", choices: rating.choices(card) }],
  fromForm: (_input, given) =>
    given.choices[0] === undefined
      ? { problem: "Tap a number of stars; nothing was recorded." }
      : { attempt: { text: given.choices[0], option: given.choices[0] } },
  hint: { what: "a number of stars from 1 to 5" },
};
`;

/** The one line the type adds to the list. */
const LINE = 'export { rating } from "./rating.ts";\n';

/** What the copy runs with its own code: every surface the type reaches, and what each showed. */
const SCENARIO = `
import { answerLayout } from "../../bridges/telegram/keyboard.ts";
import { AskSchema, describeIssues } from "../../src/card/question.ts";
import { loadConfig } from "../../src/config.ts";
import { askQuestion } from "../../src/questions/ask.ts";
import { loadQuestion } from "../../src/questions/store.ts";
import { createWebApp } from "../../src/web/app.ts";
import { loadSecret, signLink } from "../../src/web/links.ts";
import { cleanupBoxes, makeBox, removeBoxLayout } from "../support/box.ts";
import { keyboardOn } from "../support/keyboard.ts";
import { buttonData, openHarness, presentQuestion, startEmulator } from "../support/telegram.ts";

const card = {
  prompt: "How did the release go?",
  memo: "The release finished an hour ago; a rating keeps the log honest.",
  input: { type: "rating" },
  directive: "Write the rating into the release log.",
};

async function onWeb() {
  const box = await makeBox();
  const secret = loadSecret(box.box);
  const app = createWebApp({ core: box, config: loadConfig({}, { box: box.dir }), secret });
  const { id } = await askQuestion(box, card);
  const link = "/q/" + id + "?s=" + signLink(secret, { question: id }, box.box.clock.now());
  const page = await (await app.request(link)).text();
  const field = (name) => new RegExp('name="' + name + '" value="([^"]+)"').exec(page)?.[1] ?? "";
  const body = new URLSearchParams({ form: field("form"), shown: field("shown"), action: "answer" });
  body.set("choice", "5");
  const posted = (await app.request(link, { method: "POST", body })).status;
  return { page, posted, answer: loadQuestion(box, id).card.answer };
}

async function onTelegram() {
  const emulator = await startEmulator();
  try {
    const h = await openHarness(emulator);
    const { id, message } = await presentQuestion(h, card);
    await h.owner.tap(buttonData(message, "⭐⭐⭐⭐"), message.messageId);
    await h.pump();
    const buttons = message.buttons.map((b) => b.text);
    const answer = loadQuestion(h, id).card.answer;
    await h.slot.close();
    return { text: message.text, buttons, answer };
  } finally {
    await emulator.stop();
  }
}

async function atKeyboard() {
  const box = await makeBox();
  const k = keyboardOn(box);
  const { id } = await askQuestion(box, card);
  await k.slot.reconcile();
  const shown = k.screen();
  const wrong = await k.type("7");
  const typed = await k.type("3");
  await k.slot.close();
  return { shown, wrong, typed, answer: loadQuestion(box, id).card.answer };
}

export async function run() {
  try {
    const withOptions = AskSchema.safeParse({ ...card, input: { type: "rating", options: [] } });
    const specs = answerLayout({ ...card, status: "pending", "asked-at": "2026-07-10T09:00:00Z" }, undefined).specs;
    return {
      valid: AskSchema.safeParse(card).success,
      refused: withOptions.success ? "" : describeIssues(withOptions.error),
      specs,
      web: await onWeb(),
      telegram: await onTelegram(),
      keyboard: await atKeyboard(),
    };
  } finally {
    // The copy's own box helpers: the setup file removes only the tree's layout.
    cleanupBoxes();
    await removeBoxLayout();
  }
}
`;

type Outcome = {
  valid: boolean;
  refused: string;
  specs: { action: string; optionId?: string }[];
  web: { page: string; posted: number; answer: unknown };
  telegram: { text: string; buttons: string[]; answer: unknown };
  keyboard: { shown: string; wrong: string; typed: string; answer: unknown };
};

let copy: string;
let outcome: Outcome;
let listBefore: string;

beforeAll(async () => {
  mkdirSync(join(ROOT, "test-output"), { recursive: true });
  // Inside the project, so the copy finds the project's node_modules as the tree does.
  copy = mkdtempSync(join(ROOT, "test-output", "input-type-"));
  for (const part of ["src", "bridges", "test/support"]) {
    cpSync(join(ROOT, part), join(copy, part), { recursive: true });
  }
  const list = join(copy, "src/card/inputs/list.ts");
  listBefore = readFileSync(list, "utf8");
  writeFileSync(join(copy, "src/card/inputs/rating.ts"), RATING);
  writeFileSync(list, listBefore + LINE);
  writeFileSync(join(copy, "test/support/rating-scenario.ts"), SCENARIO);
  const scenario = await import(join(copy, "test/support/rating-scenario.ts"));
  outcome = (await scenario.run()) as Outcome;
}, 120_000);

afterAll(() => {
  if (copy) rmSync(copy, { recursive: true, force: true });
});

describe("an input type added as its module and one line", () => {
  it("takes one line in the list of types and no other edit", () => {
    expect(readFileSync(join(copy, "src/card/inputs/list.ts"), "utf8")).toBe(listBefore + LINE);
    expect(readFileSync(join(ROOT, "src/card/inputs/list.ts"), "utf8")).toBe(listBefore);
  });

  it("is a card type the rules take, with the type's own rule checked", () => {
    expect(outcome.valid).toBe(true);
    expect(outcome.refused).toBe("input.options: a rating question carries its own five stars");
  });

  it("is shown on Telegram with its buttons, and a tap records that button's answer", () => {
    expect(outcome.specs.slice(0, 5)).toEqual(
      ["1", "2", "3", "4", "5"].map((id) =>
        expect.objectContaining({ action: "answer", optionId: id }),
      ),
    );
    expect(outcome.telegram.buttons.slice(0, 5)).toEqual([
      "⭐",
      "⭐⭐",
      "⭐⭐⭐",
      "⭐⭐⭐⭐",
      "⭐⭐⭐⭐⭐",
    ]);
    expect(outcome.telegram.answer).toEqual({ text: "4 of 5 stars", selected: "4" });
  });

  it("is offered on the web page as its form, and the form's answer is recorded", () => {
    expect(outcome.web.page).toContain('<button type="submit" name="choice" value="1">⭐</button>');
    expect(outcome.web.page).toContain('name="choice" value="5">⭐⭐⭐⭐⭐</button>');
    expect(outcome.web.posted).toBe(303);
    expect(outcome.web.answer).toEqual({ text: "5 of 5 stars", selected: "5" });
  });

  it("is answered by a typed reply at the keyboard, told its own hint, a wrong reply refused", () => {
    expect(outcome.keyboard.shown).toContain("Type a number of stars from 1 to 5.");
    expect(outcome.keyboard.wrong).toContain("a number of stars from 1 to 5");
    expect(outcome.keyboard.typed).toContain("Recorded: 3 of 5 stars");
    expect(outcome.keyboard.answer).toEqual({ text: "3 of 5 stars", selected: "3" });
  });
});
