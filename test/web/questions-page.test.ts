// The questions page: what is waiting first, in slot order, then the archive with what was
// recorded for each, every entry a working signed link. The page needs a signed link itself.

import { afterEach, describe, expect, it } from "vitest";
import { answerQuestion } from "../../src/questions/answer.ts";
import { dismissQuestion, expireQuestion } from "../../src/questions/close.ts";
import { cleanupBoxes, confirmCard, selectCard, textCard } from "../support/box.ts";
import { formTokenIn, postForm, resolvedIn, webFixture } from "./web-support.ts";

afterEach(cleanupBoxes);

describe("the questions page", () => {
  it("lists pending questions first in slot order, then the archive with each recorded answer", async () => {
    const web = await webFixture();
    const low = await web.ask(textCard({ priority: "low" }));
    const high = await web.ask(confirmCard({ priority: "high" }));
    const answered = await web.ask(selectCard({ prompt: "Which folder for invoices?" }));
    const dismissed = await web.ask(textCard({ prompt: "Who is Bob?" }));
    const expired = await web.ask(confirmCard({ prompt: "Rename the archive?" }));
    await answerQuestion(web.box, answered, { text: "taxes", note: "all of them" }, { via: "api" });
    await dismissQuestion(web.box, dismissed, { via: "cli" });
    await expireQuestion(web.box, expired);

    const res = await web.app.request(web.link({ page: "questions" }));
    expect(res.status).toBe(200);
    const page = await res.text();
    const pending = page.slice(page.indexOf('id="pending"'), page.indexOf('id="archive"'));
    const archive = page.slice(page.indexOf('id="archive"'));
    expect(pending.indexOf(high)).toBeGreaterThan(-1);
    expect(pending.indexOf(high)).toBeLessThan(pending.indexOf(low));
    expect(page).toContain("Waiting on you (2)");
    expect(page).toContain("Archive (3)");
    const archiveText = archive.replace(/<[^>]+>/g, "");
    expect(archiveText).toContain(
      "answered “Taxes” (note: all of them) via api just now (10 Jul 2026, 09:00)",
    );
    expect(archiveText).toContain("dismissed just now (10 Jul 2026, 09:00), still answerable");
    expect(archiveText).toContain(
      "expired just now (10 Jul 2026, 09:00) without an answer, still answerable",
    );
    for (const id of [low, high, answered, dismissed, expired])
      expect(page).toContain(`href="q/${id}?s=`);
  });

  it("links each entry through a signed link that opens that question", async () => {
    const web = await webFixture();
    const id = await web.ask(selectCard());
    const page = await (await web.app.request(web.link({ page: "questions" }))).text();
    const href = new RegExp(`href="(q/${id}\\?s=[^"]+)"`).exec(page)?.[1];
    expect(href).toBeDefined();
    const opened = await web.app.request(resolvedIn("/questions", href as string));
    expect(opened.status).toBe(200);
    expect(await opened.text()).toContain("Where do photographed receipts belong?");
  });

  it("says so when nothing is waiting", async () => {
    const web = await webFixture();
    const page = await (await web.app.request(web.link({ page: "questions" }))).text();
    expect(page).toContain("Nothing is waiting on you.");
  });

  it("is refused without a signed link, or with a question's link", async () => {
    const web = await webFixture();
    const id = await web.ask(selectCard());
    expect((await web.app.request("/questions")).status).toBe(403);
    const signature = web.link(id).split("?s=")[1];
    const res = await web.app.request(`/questions?s=${signature}`);
    expect(res.status).toBe(403);
    expect(await res.text()).not.toContain("Where do photographed receipts belong?");
  });

  it("is refused once its link has expired", async () => {
    const web = await webFixture();
    const old = new Date(web.box.box.clock.now().getTime() - 8 * 24 * 3_600_000);
    const res = await web.app.request(web.link({ page: "questions" }, old));
    expect(res.status).toBe(403);
    const page = await res.text();
    expect(page).toContain("<code>qbridge link --questions</code>");
    expect(page).not.toContain("qbridge link ID");
  });
});

describe("behind a reverse proxy that serves the pages under a path", () => {
  it("every link, form and redirect stays under that path", async () => {
    const web = await webFixture();
    const ids: string[] = [];
    for (const n of [1, 2, 3, 4, 5]) {
      ids.push(await web.ask(selectCard({ prompt: `Receipt ${n}?`, recommended: "finance" })));
    }
    const site = "https://q.example.org/qbridge";
    const targets: { from: string; to: string }[] = [];
    const collect = (from: string, page: string) => {
      for (const m of page.matchAll(/(?:href|action)="([^"]+)"/g)) {
        targets.push({ from, to: (m[1] as string).replaceAll("&amp;", "&") });
      }
    };

    const all = web.link({ page: "questions" });
    const list = await (await web.app.request(all)).text();
    collect(all, list);
    const question = web.link(ids[0] as string);
    const page = await (await web.app.request(question)).text();
    collect(question, page);
    const answered = await postForm(web.app, question, {
      form: formTokenIn(page),
      action: "answer",
      choice: "taxes",
    });
    targets.push({ from: question, to: answered.headers.get("location") as string });
    const triage = list.match(/action="([^"]+)"/)?.[1]?.replaceAll("&amp;", "&") as string;
    const triageFrom = new URL(triage, `http://x${all}`);
    const review = await postForm(web.app, `${triageFrom.pathname}${triageFrom.search}`, {
      form: formTokenIn(list),
      step: "review",
    });
    collect(triageFrom.pathname, await review.text());

    expect(targets.length).toBeGreaterThan(10);
    for (const { from, to } of targets) {
      expect(new URL(to, `${site}${from}`).href.startsWith(`${site}/`), `${to} from ${from}`).toBe(
        true,
      );
    }
  });
});
