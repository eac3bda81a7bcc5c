// Story: the box remembers answers. A question like one already answered comes back to its
// asker with that answer listed under `similar` (CLI --json, the API, MCP ask_human), so the
// agent can decide not to ask; an unrelated question lists nothing. The memory is the ledger's
// FTS5 index: it learns each answer as it is committed, catches up with cards answered by hand,
// and is rebuilt when the ledger is lost. Nothing is ever answered by it.

import { afterEach, describe, expect, it } from "vitest";
import { AnswerMemoryStore, type RememberedAnswer } from "../../src/ledger/answer-memory.ts";
import { answerQuestion } from "../../src/questions/answer.ts";
import { askQuestion } from "../../src/questions/ask.ts";
import { rememberedOf, SIMILAR_THRESHOLD, similarQuestions } from "../../src/questions/similar.ts";
import { pendingQuestions } from "../../src/questions/state.ts";
import { loadQuestion } from "../../src/questions/store.ts";
import { callTool } from "../agent/agent-support.ts";
import {
  atTime,
  cleanupBoxes,
  cliEnv,
  makeBox,
  pendingCardText,
  runCli,
  selectCard,
  type TestBox,
  textCard,
  writeCardFile,
} from "../support/box.ts";
import { mcpClientOn } from "../support/mcp-client.ts";
import { webFixture } from "../web/web-support.ts";

afterEach(cleanupBoxes);

const ANSWERED_AT = "2026-03-03T10:00:00Z";

/** A box where the receipts question was answered "Finance" by its asker's owner on 3 Mar. */
async function answeredBox(box?: TestBox): Promise<{ tb: TestBox; first: string }> {
  const tb = box ?? (await makeBox());
  const { id } = await askQuestion(tb, selectCard({ "asked-by": "intake-sorter" }));
  await answerQuestion(atTime(tb, ANSWERED_AT), id, { text: "finance" }, { via: "telegram" });
  return { tb, first: id };
}

const AGAIN = selectCard({
  "asked-by": "intake-sorter",
  prompt: "Where do photographed receipts from the hardware store belong?",
});

describe("the ask response lists answered questions like the new one", () => {
  it("qbridge ask --json lists the answered one with its answer; an unrelated question lists nothing", async () => {
    const { tb, first } = await answeredBox();
    const like = await runCli(["ask", "--json"], {
      env: cliEnv(tb.dir),
      input: JSON.stringify(AGAIN),
    });
    expect(like.stderr).toBe("");
    const similar = JSON.parse(like.stdout).similar;
    expect(similar).toEqual([
      {
        id: first,
        prompt: "Where do photographed receipts belong?",
        answer: "Finance",
        answeredAt: ANSWERED_AT,
        score: expect.any(Number),
      },
    ]);
    expect(similar[0].score).toBeGreaterThanOrEqual(SIMILAR_THRESHOLD);
    const unrelated = await runCli(["ask", "--json"], {
      env: cliEnv(tb.dir),
      input: JSON.stringify(textCard()),
    });
    expect(JSON.parse(unrelated.stdout).similar).toEqual([]);
  });

  it("the same asker and the same options count for more", async () => {
    const { tb, first } = await answeredBox();
    const score = async (overrides: Record<string, unknown>) => {
      const { id } = await askQuestion(tb, { ...AGAIN, ...overrides });
      const card = loadQuestion(tb, id).card;
      return similarQuestions(tb, card).find((s) => s.id === first)?.score ?? 0;
    };
    const same = await score({});
    const otherAsker = await score({ "asked-by": "mail-sorter" });
    const otherOptions = await score({
      input: {
        type: "select",
        options: [
          { id: "home", label: "Home" },
          { id: "work", label: "Work" },
        ],
      },
    });
    expect(same).toBeGreaterThan(otherAsker);
    expect(same).toBeGreaterThan(otherOptions);
  });

  it("POST /api/v1/questions and MCP ask_human carry the same similar list", async () => {
    const web = await webFixture();
    const { first } = await answeredBox(web.box);
    const res = await web.app.request("/api/v1/questions", {
      method: "POST",
      headers: { "content-type": "application/json", ...web.auth() },
      body: JSON.stringify(AGAIN),
    });
    expect(res.status).toBe(201);
    expect((await res.json()).similar).toMatchObject([{ id: first, answer: "Finance" }]);

    const client = await mcpClientOn({ core: web.box, timeZone: "UTC" });
    const asked = await callTool(client, "ask_human", {
      prompt: "Where do photographed receipts from the bakery belong?",
      memo: "A receipt came in at intake and no rule says where receipts go.",
      type: "select",
      options: [
        { id: "finance", label: "Finance" },
        { id: "taxes", label: "Taxes" },
        { id: "_other", label: "Somewhere else" },
      ],
      directive: "Move the held receipt into the chosen folder.",
      asked_by: "intake-sorter",
    }).result;
    expect(asked.isError).toBeFalsy();
    expect(asked.structuredContent).toMatchObject({
      status: "pending",
      similar: [{ id: first, answer: "Finance", answeredAt: ANSWERED_AT }],
    });
    await client.close();
  });
});

describe("the memory follows the box", () => {
  it("a card answered by hand is found once the card index has seen it", async () => {
    const tb = await makeBox();
    writeCardFile(
      tb.dir,
      "by-hand",
      pendingCardText(selectCard(), "")
        .replace("status: pending", "status: answered")
        .replace(
          "---\n",
          `---\nanswer:\n  text: Taxes\n  selected: taxes\nanswered-at: ${ANSWERED_AT}\nanswered-via: cli\n`,
        ),
    );
    // The first lookup builds the memory from the cards; later ones only catch up.
    const { id } = await askQuestion(tb, AGAIN);
    expect(similarQuestions(tb, loadQuestion(tb, id).card).map((s) => s.id)).toEqual(["by-hand"]);
    writeCardFile(
      tb.dir,
      "by-hand-2",
      pendingCardText(selectCard({ prompt: "Where do photographed receipts belong now?" }))
        .replace("status: pending", "status: answered")
        .replace(
          "---\n",
          `---\nanswer:\n  text: Finance\n  selected: finance\nanswered-at: ${ANSWERED_AT}\nanswered-via: cli\n`,
        ),
    );
    pendingQuestions(tb); // any scan (a list, the slot) updates the card index
    expect(
      similarQuestions(tb, loadQuestion(tb, id).card)
        .map((s) => s.id)
        .sort(),
    ).toEqual(["by-hand", "by-hand-2"]);
  });

  it("a lost memory is rebuilt from the answered cards", async () => {
    const { tb, first } = await answeredBox();
    tb.ledger.db.exec(
      "DELETE FROM answer_memory; DELETE FROM answer_memory_text; DELETE FROM meta",
    );
    const { id } = await askQuestion(tb, AGAIN);
    expect(similarQuestions(tb, loadQuestion(tb, id).card).map((s) => s.id)).toEqual([first]);
    // An answer remembered again replaces its row in the index, never doubles it.
    new AnswerMemoryStore(tb.ledger.db).remember([
      rememberedOf(first, loadQuestion(tb, first).card) as RememberedAnswer,
    ]);
    const rows = tb.ledger.db.prepare("SELECT count(*) FROM answer_memory_text").pluck().get();
    expect(rows).toBe(1);
  });
});
