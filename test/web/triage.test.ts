// Triage on the questions page: with a backlog the page opens with a digest, and its button
// leads to the list of exactly what would be recorded; only the second press records, one
// answer per question through the core, skipping and naming a question edited in between.

import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { loadQuestion } from "../../src/questions/store.ts";
import { OFFER_LIFETIME_MS } from "../../src/slot/triage/offers.ts";
import { TRIAGE_NOTE } from "../../src/slot/triage/triage.ts";
import { ACCEPTABLE, IRREVERSIBLE, writeBacklog } from "../slot/triage-fixture.ts";
import { cleanupBoxes, gitLog, questionRel } from "../support/box.ts";
import { formTokenIn, postForm, resolvedIn, webFixture } from "./web-support.ts";

afterEach(cleanupBoxes);

const textOf = (page: string) => page.replace(/<[^>]+>/g, " ").replace(/\s+/g, " ");
/** The first form's action, as posted from the questions page or the triage page. */
const actionIn = (page: string, at = "/questions/triage") =>
  resolvedIn(at, /<form method="post" action="([^"]+)"/.exec(page)?.[1] ?? "");

describe("triage on the questions page", () => {
  it("shows the digest, lists the 4 before recording, records them on the second press and names the one edited between", async () => {
    const web = await webFixture();
    writeBacklog(web.box.dir);
    const commits = (await gitLog(web.box.dir)).length;

    const questions = await (await web.app.request(web.link({ page: "questions" }))).text();
    const digest = questions.slice(
      questions.indexOf('id="triage"'),
      questions.indexOf('id="pending"'),
    );
    expect(textOf(digest)).toContain("Triage: 12 waiting");
    expect(digest.match(/<li>/g)).toHaveLength(10);
    expect(digest).toMatch(new RegExp(`href="q/${ACCEPTABLE[0].id}\\?s=`));
    expect(textOf(digest)).toContain(`${IRREVERSIBLE.prompt} recommends Finance (irreversible`);
    expect(textOf(digest)).toContain("✅ Accept 4 recommendations");

    const review = await (
      await postForm(web.app, actionIn(digest, "/questions"), {
        form: formTokenIn(digest),
        step: "review",
      })
    ).text();
    for (const { prompt, answer } of ACCEPTABLE)
      expect(textOf(review)).toContain(`${prompt} → ${answer}`);
    expect(textOf(review)).not.toContain(IRREVERSIBLE.prompt);
    expect(textOf(review)).toContain("Record these 4 answers");
    expect(web.jobs()).toEqual([]);
    expect((await gitLog(web.box.dir)).length).toBe(commits);

    const edited = ACCEPTABLE[2];
    const path = join(web.box.dir, questionRel(edited.id));
    writeFileSync(
      path,
      readFileSync(path, "utf8").replace(
        "Where does the tax letter go?",
        "Where do tax letters go?",
      ),
    );
    const offer = /name="offer" value="([^"]+)"/.exec(review)?.[1] ?? "";
    const confirm = { form: formTokenIn(review), step: "confirm", offer };
    const done = textOf(await (await postForm(web.app, actionIn(review), confirm)).text());

    expect(done).toContain("Recorded 3 answers");
    expect(done).toContain(
      `“${edited.prompt}” was edited since the list; nothing was recorded for it.`,
    );
    const recorded = ACCEPTABLE.filter((a) => a.id !== edited.id);
    expect(web.jobs()).toHaveLength(3);
    expect((await gitLog(web.box.dir)).length).toBe(commits + 3);
    for (const { id, answer } of recorded) {
      const card = loadQuestion(web.box, id).card;
      expect(card["answered-via"]).toBe("web");
      expect(card.answer).toMatchObject({ text: answer, note: TRIAGE_NOTE });
    }
    expect(web.transitions.map((t) => t.id)).toEqual(recorded.map((a) => a.id));

    const again = textOf(await (await postForm(web.app, actionIn(review), confirm)).text());
    expect(again).toContain("Already recorded");
    expect(web.jobs()).toHaveLength(3);
  });

  it("records nothing from a list confirmed more than an hour after it was shown, and says so", async () => {
    const web = await webFixture();
    writeBacklog(web.box.dir);
    const commits = (await gitLog(web.box.dir)).length;
    const questions = await (await web.app.request(web.link({ page: "questions" }))).text();
    const digest = questions.slice(questions.indexOf('id="triage"'));
    const review = await (
      await postForm(web.app, actionIn(digest, "/questions"), {
        form: formTokenIn(digest),
        step: "review",
      })
    ).text();
    const offer = /name="offer" value="([^"]+)"/.exec(review)?.[1] ?? "";
    // The list was shown an hour and a minute before the press.
    const db = web.box.ledger.db;
    const { created_at } = db
      .prepare("SELECT created_at FROM triage_offers WHERE id = ?")
      .get(offer) as { created_at: string };
    const shown = new Date(Date.parse(created_at) - OFFER_LIFETIME_MS - 60_000).toISOString();
    db.prepare("UPDATE triage_offers SET created_at = ? WHERE id = ?").run(shown, offer);

    const confirm = { form: formTokenIn(review), step: "confirm", offer };
    const done = textOf(await (await postForm(web.app, actionIn(review), confirm)).text());
    expect(done).toContain(
      "This list of recommendations is over an hour old, so nothing was recorded.",
    );
    expect(web.jobs()).toEqual([]);
    expect((await gitLog(web.box.dir)).length).toBe(commits);
  });

  it("refuses a triage press without the page's form token and records nothing", async () => {
    const web = await webFixture();
    writeBacklog(web.box.dir);
    const res = await postForm(
      web.app,
      `/questions/triage?s=${web.link({ page: "questions" }).split("?s=")[1]}`,
      {
        step: "review",
      },
    );
    expect(res.status).toBe(403);
    expect(web.jobs()).toEqual([]);
  });
});
