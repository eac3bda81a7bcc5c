// Story: the boxholder types the same words wherever the question reaches them: a reply in the
// chat, `qbridge answer` in a shell, an agent's POST to the API. "Finance - only the paper
// ones" and "yes, but keep last month's" are one answer with a note on every surface: one
// judge reads them, so no surface records what another refuses (the CLI and the API refused
// both as "does not answer this question").

import { afterAll, describe, expect, it } from "vitest";
import { askQuestion } from "../../src/questions/ask.ts";
import { loadQuestion } from "../../src/questions/store.ts";
import { createJudge } from "../../src/slot/judge/judge.ts";
import type { Presenter } from "../../src/slot/presentation/presenter.ts";
import { createSlot } from "../../src/slot/slot.ts";
import { cleanupBoxes, cliEnv, confirmCard, makeBox, runCli, selectCard } from "../support/box.ts";
import { fromPerson } from "../support/people.ts";
import { webFixture } from "../web/web-support.ts";

afterAll(cleanupBoxes);

/** A chat surface with no buttons: the typed reply goes through the slot's judge. */
async function typedInChat(card: Record<string, unknown>, words: string) {
  const box = await makeBox();
  const slot = createSlot({ core: box });
  const judge = createJudge(slot);
  const presenter: Presenter = {
    surface: "desk",
    ready: () => true,
    present: async () => ({ chatId: "desk", messageId: "1" }),
    async closed() {},
  };
  slot.attach(presenter);
  const { id } = await askQuestion(box, card);
  await slot.reconcile();
  const outcome = await judge.attempt({
    kind: "text",
    from: fromPerson("desk", "ada"),
    text: words,
  });
  await slot.close();
  expect(outcome).toMatchObject({ kind: "recorded" });
  return loadQuestion(box, id).card.answer;
}

const CASES: [string, Record<string, unknown>, string, Record<string, string>][] = [
  [
    "a label and a note",
    selectCard(),
    "Finance - only the paper ones",
    { text: "Finance", selected: "finance", note: "only the paper ones" },
  ],
  [
    "a letter and a note",
    selectCard(),
    "b: from 2025 on",
    { text: "Taxes", selected: "taxes", note: "from 2025 on" },
  ],
  [
    "the own-words option's letter and its words",
    selectCard(),
    "c - the shoebox under the desk",
    { text: "the shoebox under the desk", selected: "_other" },
  ],
  [
    "yes and a note",
    confirmCard(),
    "yes, but keep last month's",
    { text: "Yes", selected: "yes", note: "but keep last month's" },
  ],
];

describe("one judge for typed words on every surface", () => {
  it.each(CASES)(
    "%s: the chat, the CLI and the API record the same answer",
    async (_name, card, words, expected) => {
      expect(await typedInChat(card, words)).toEqual(expected);

      const web = await webFixture();
      const viaApi = await web.ask(card);
      const res = await web.app.request(`/api/v1/questions/${viaApi}/answer`, {
        method: "POST",
        headers: { "content-type": "application/json", ...web.auth() },
        body: JSON.stringify({ answer: words }),
      });
      expect(res.status).toBe(200);
      expect(loadQuestion(web.box, viaApi).card.answer).toEqual(expected);

      const viaCli = await web.ask(card);
      const cli = await runCli(["answer", viaCli, words], { env: cliEnv(web.box.dir) });
      expect(cli.stderr).toBe("");
      expect(cli.code).toBe(0);
      expect(loadQuestion(web.box, viaCli).card.answer).toEqual(expected);
    },
  );

  it("typed words on an irreversible question, confirmed with the tap the bridge offers, record what the chat asked about", async () => {
    const box = await makeBox();
    const slot = createSlot({ core: box });
    const judge = createJudge(slot);
    slot.attach({
      surface: "desk",
      ready: () => true,
      present: async () => ({ chatId: "desk", messageId: "1" }),
      async closed() {},
    });
    const { id } = await askQuestion(box, confirmCard({ irreversible: true }));
    await slot.reconcile();
    const boxholder = fromPerson("desk", "ada");
    const typed = await judge.attempt({
      kind: "text",
      from: boxholder,
      text: "yes, but keep last month's",
    });
    expect(typed).toMatchObject({ kind: "needs-confirmation" });
    expect(typed.reply).toBe('Record "Yes" as your answer? It cannot be undone.');
    // The confirming message's buttons, minted as the Telegram bridge mints them (wordsLayout).
    const words = typed.confirm?.text as string;
    let yes = "";
    await judge.withButtons(
      typed.confirm?.owner as never,
      "desk",
      [
        { action: "confirm", label: words },
        { action: "back", label: words },
      ],
      async (tokens) => {
        yes = tokens[0] as string;
        return "2";
      },
    );
    const tapped = await judge.attempt({
      kind: "button",
      from: boxholder,
      token: yes,
      where: { chatId: "desk", messageId: "2" },
    });
    expect(tapped).toMatchObject({ kind: "recorded" });
    expect(loadQuestion(box, id).card.answer).toEqual({
      text: "Yes",
      selected: "yes",
      note: "but keep last month's",
    });
    await slot.close();
  });

  it("a choice that names no option is still refused everywhere, with what would answer", async () => {
    const web = await webFixture();
    const id = await web.ask(selectCard());
    const cli = await runCli(["answer", id, "Legal - the contracts folder"], {
      env: cliEnv(web.box.dir),
    });
    expect(cli.code).toBe(1);
    expect(cli.stderr).toContain("expected one of a) Finance, b) Taxes, c) Somewhere else");
    expect(loadQuestion(web.box, id).card.status).toBe("pending");
  });
});
