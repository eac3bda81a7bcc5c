// The same question answered at the same moment through the API, the web form and the CLI
// (another process): exactly one answer is recorded, and each loser is told who won.

import { afterEach, describe, expect, it } from "vitest";
import { loadQuestion } from "../../src/questions/store.ts";
import { cleanupBoxes, runCli, selectCard } from "../support/box.ts";
import { formTokenIn, postForm, webFixture } from "./web-support.ts";

afterEach(cleanupBoxes);

describe("three surfaces answering one question at once", () => {
  it("records exactly one answer and one job; the others are told the winner", async () => {
    const web = await webFixture();
    const id = await web.ask(selectCard());
    const link = web.link(id);
    const form = formTokenIn(await (await web.app.request(link)).text());

    const [api, page, cli] = await Promise.all([
      web.app.request(`/api/v1/questions/${id}/answer`, {
        method: "POST",
        headers: web.auth(),
        body: JSON.stringify({ answer: "finance" }),
      }),
      postForm(web.app, link, { form, action: "answer", choice: "taxes" }),
      runCli(["answer", id, "_other", "--note", "The shoebox", "--box", web.box.dir]),
    ]);

    const won = [api.status === 200, page.status === 303, cli.code === 0];
    expect(won.filter(Boolean)).toHaveLength(1);
    expect(web.jobs()).toHaveLength(1);

    const card = loadQuestion(web.box, id).card;
    const winner = card["answered-via"] as string;
    expect(["api", "web", "cli"]).toContain(winner);
    const told = `answered "${card.answer?.text}" via ${winner}`;
    if (winner !== "api") {
      expect(api.status).toBe(409);
      expect((await api.json()).error.message).toContain(told);
    }
    if (winner !== "web") {
      expect(page.status).toBe(409);
      const html = await page.text();
      expect(html).toContain("already answered");
      expect(html).toContain(`Answered via ${winner}`);
    }
    if (winner !== "cli") {
      expect(cli.code).toBe(3);
      expect(cli.stderr).toContain(told);
    }
  });
});
