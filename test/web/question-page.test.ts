// The boxholder opens a question through its signed link: what they see, and what a link
// that was changed, has expired, or belongs to another question gets instead.

import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { answerQuestion } from "../../src/questions/answer.ts";
import { dismissQuestion, expireQuestion } from "../../src/questions/close.ts";
import { cleanupBoxes, confirmCard, selectCard, textCard } from "../support/box.ts";
import { resolvedIn, webFixture } from "./web-support.ts";

afterEach(cleanupBoxes);

const EIGHT_DAYS_MS = 8 * 24 * 3_600_000;

/** The link with one character of its signature's first bytes changed. */
/** What a person reads: the page without its tags. */
function textOf(page: string): string {
  return page.replace(/<[^>]+>/g, "");
}

function tamper(link: string): string {
  const at = link.indexOf(".", link.indexOf("?s=")) + 5;
  const swapped = link[at] === "x" ? "y" : "x";
  return `${link.slice(0, at)}${swapped}${link.slice(at + 1)}`;
}

describe("a signed link", () => {
  it("opens its question with the prompt, the memo, the learning proposal and a form", async () => {
    const web = await webFixture();
    const id = await web.ask(
      selectCard({ recommended: "finance", "while-waiting": "Keep the receipt in intake." }),
    );
    const res = await web.app.request(web.link(id));
    expect(res.status).toBe(200);
    const page = await res.text();
    expect(page).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
    expect(page).toContain("Where do photographed receipts belong?");
    expect(page).toContain("A receipt came in at intake");
    expect(page).toContain("What the box will learn from your answer");
    expect(page).toContain("Receipts go in finance/receipts/.");
    expect(page).toContain("Recommended:</span> Finance");
    expect(page).toContain("Keep the receipt in intake.");
    expect(page).toContain('type="radio" name="choice" value="finance"');
    expect(page).toContain('type="radio" name="choice" value="_other"');
    expect(page).toContain('name="other"');
    expect(page).toContain("Dismiss");
    expect(page).not.toContain("<script");
  });

  it("shows Yes and No with a note for a confirm question", async () => {
    const web = await webFixture();
    const id = await web.ask(confirmCard());
    const page = await (await web.app.request(web.link(id))).text();
    expect(page).toContain('name="choice" value="yes"');
    expect(page).toContain('name="choice" value="no"');
    expect(page).toContain('name="note"');
    expect(page).not.toContain('type="radio"');
  });

  it("shows a text area for a text question", async () => {
    const web = await webFixture();
    const id = await web.ask(textCard());
    const page = await (await web.app.request(web.link(id))).text();
    expect(page).toContain('<textarea id="text" name="text" required');
    expect(page).not.toContain('name="choice"');
  });

  it("shows context refs with their text", async () => {
    const web = await webFixture();
    const id = await web.ask(
      selectCard({
        context: [
          { ref: "intake/receipt-0042.jpg", text: "Coffee, 4.50 CHF" },
          { ref: "https://example.org/policy" },
        ],
      }),
    );
    const page = await (await web.app.request(web.link(id))).text();
    expect(page).toContain("<code>intake/receipt-0042.jpg</code>");
    expect(page).toContain("Coffee, 4.50 CHF");
    expect(page).toContain('<a href="https://example.org/policy" rel="noopener noreferrer"');
  });

  it("is never cached, never sent on as a Referer, never framed, and runs no script", async () => {
    const web = await webFixture();
    const id = await web.ask(selectCard());
    const res = await web.app.request(web.link(id));
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.headers.get("referrer-policy")).toBe("no-referrer");
    expect(res.headers.get("x-frame-options")).toBe("DENY");
    expect(res.headers.get("content-security-policy")).toContain("default-src 'none'");
    expect(res.headers.get("content-security-policy")).not.toContain("script-src");
  });

  it("is refused with a 403 page when its signature was changed", async () => {
    const web = await webFixture();
    const id = await web.ask(selectCard());
    const res = await web.app.request(tamper(web.link(id)));
    expect(res.status).toBe(403);
    const page = await res.text();
    expect(page).toContain("signature does not match");
    expect(page).toContain("/waiting");
    expect(page).toContain(`<code>qbridge link ${id}</code>`);
    expect(page).not.toContain("Where do photographed receipts belong?");
  });

  it("is refused with a 403 page once it has expired, naming the command that makes a fresh one", async () => {
    const web = await webFixture();
    const id = await web.ask(selectCard());
    const now = web.box.box.clock.now();
    const old = web.link(id, new Date(now.getTime() - EIGHT_DAYS_MS));
    const res = await web.app.request(old);
    expect(res.status).toBe(403);
    const page = await res.text();
    expect(page).toContain("This link has expired");
    expect(page).toContain(`<code>qbridge link ${id}</code>`);
    expect(page).not.toContain("Where do photographed receipts belong?");
  });

  it("opens only the question it was made for: another question's signature is refused", async () => {
    const web = await webFixture();
    const first = await web.ask(selectCard());
    const second = await web.ask(confirmCard());
    const signature = web.link(first).split("?s=")[1];
    const res = await web.app.request(`/q/${second}?s=${signature}`);
    expect(res.status).toBe(403);
    const page = await res.text();
    expect(page).toContain("This link is for another question");
    expect(page).not.toContain("May I delete backups");
  });

  it("is refused when the signature is missing or cut short", async () => {
    const web = await webFixture();
    const id = await web.ask(selectCard());
    expect((await web.app.request(`/q/${id}`)).status).toBe(403);
    const cut = web.link(id).slice(0, -5);
    const res = await web.app.request(cut);
    expect(res.status).toBe(403);
    expect(await res.text()).toContain("incomplete");
  });

  it("the questions page's link does not open a question", async () => {
    const web = await webFixture();
    const id = await web.ask(selectCard());
    const signature = web.link({ page: "questions" }).split("?s=")[1];
    expect((await web.app.request(`/q/${id}?s=${signature}`)).status).toBe(403);
  });

  it("answers a path-traversal id with a 400 and reads no file", async () => {
    const web = await webFixture();
    const res = await web.app.request("/q/..%2F..%2Fetc%2Fpasswd?s=abc.def");
    expect(res.status).toBe(400);
    const page = await res.text();
    expect(page).toContain("is not a question id");
    expect(page).not.toContain("root:");
  });

  it("answers a signed link to a question that is gone with a 404", async () => {
    const web = await webFixture();
    const res = await web.app.request(web.link("2026-07-10-no-such-question"));
    expect(res.status).toBe(404);
    expect(await res.text()).toContain("no longer in the box");
  });
  it("says a card cannot be read, and how to find out why, instead of guessing", async () => {
    const web = await webFixture();
    const id = "2026-07-10-broken";
    writeFileSync(
      join(web.box.box.paths.questionsDir, `${id}.question.card`),
      "---\nstatus: [\n---\n",
    );
    const res = await web.app.request(web.link(id));
    expect(res.status).toBe(500);
    const page = await res.text();
    expect(page).toContain("This question's card cannot be read");
    expect(page).toContain("qbridge doctor");
  });
});

describe("the page of a question that is no longer pending", () => {
  it("shows the recorded answer, when and via which surface, and the proposal, without a form", async () => {
    const web = await webFixture();
    const id = await web.ask(selectCard());
    await answerQuestion(web.box, id, { text: "b", note: "paper ones only" }, { via: "telegram" });
    const page = await (await web.app.request(web.link(id))).text();
    expect(page).toContain("Recorded answer");
    expect(page).toContain("<strong>Taxes</strong>");
    expect(page).toContain("Note: paper ones only");
    expect(textOf(page)).toContain("Answered via telegram just now (10 Jul 2026, 09:00)");
    expect(page).toContain("What the box learns from your answer");
    expect(page).toContain("Receipts go in finance/receipts/.");
    expect(page).not.toContain('<form method="post"');
  });

  it("still shows the form for a dismissed question, without Dismiss", async () => {
    const web = await webFixture();
    const id = await web.ask(selectCard());
    await dismissQuestion(web.box, id, { via: "cli" });
    const page = await (await web.app.request(web.link(id))).text();
    expect(textOf(page)).toContain(
      "Dismissed just now (10 Jul 2026, 09:00). You can still answer it",
    );
    expect(page).toContain('name="choice" value="finance"');
    expect(page).not.toContain('value="dismiss"');
  });

  it("still shows the form for an expired question", async () => {
    const web = await webFixture();
    const id = await web.ask(confirmCard());
    await expireQuestion(web.box, id);
    const page = await (await web.app.request(web.link(id))).text();
    expect(textOf(page)).toContain("Expired just now (10 Jul 2026, 09:00) without an answer");
    expect(page).toContain('name="choice" value="yes"');
  });
});

describe("card text on the page", () => {
  const evil = (field: string) => `<script>alert("${field}")</script><img src=x onerror=1>&`;

  it("is escaped in every field: prompt, memo, options, learning, guidance, directive, context, answer", async () => {
    const web = await webFixture();
    const id = await web.ask(
      selectCard({
        prompt: evil("prompt"),
        memo: evil("memo"),
        input: {
          type: "select",
          options: [
            { id: "a1", label: evil("label-a") },
            { id: "b1", label: evil("label-b") },
            { id: "_other", label: evil("other") },
          ],
        },
        learning: { sink: "guide", ref: evil("ref"), proposal: evil("proposal") },
        directive: evil("directive"),
        "while-waiting": evil("while-waiting"),
        recommended: "a1",
        context: [{ ref: evil("context-ref"), text: evil("context-text") }],
        "asked-by": evil("asked-by"),
      }),
    );
    const pending = await (await web.app.request(web.link(id))).text();
    await answerQuestion(
      web.box,
      id,
      { text: "_other", note: evil("answer") },
      { via: "cli", by: evil("by") },
    );
    const answered = await (await web.app.request(web.link(id))).text();
    const list = await (await web.app.request(web.link({ page: "questions" }))).text();
    for (const page of [pending, answered, list]) {
      expect(page).not.toContain("<script>");
      expect(page).not.toContain("<img");
    }
    for (const field of [
      "prompt",
      "memo",
      "label-a",
      "label-b",
      "other",
      "ref",
      "proposal",
      "directive",
      "while-waiting",
      "context-ref",
      "context-text",
      "asked-by",
    ]) {
      expect(pending).toContain(`&lt;script&gt;alert(&quot;${field}&quot;)&lt;/script&gt;`);
    }
    for (const field of ["answer", "by"]) {
      expect(answered).toContain(`&lt;script&gt;alert(&quot;${field}&quot;)&lt;/script&gt;`);
    }
  });
});

describe("finding the way on a phone", () => {
  it("puts the answer form before the folded context, and cuts a long memo at a sentence", async () => {
    const web = await webFixture();
    const memo = `${"A receipt came in at intake and no rule says where receipts go. ".repeat(8)}The last sentence is folded.`;
    const id = await web.ask(
      selectCard({ memo, context: [{ ref: "notes/receipts.md", text: "What was tried." }] }),
    );
    const page = await (await web.app.request(web.link(id))).text();
    const form = page.indexOf('<form method="post"');
    expect(form).toBeGreaterThan(-1);
    expect(form).toBeLessThan(page.indexOf('id="context"'));
    expect(form).toBeLessThan(page.indexOf('id="directive"'));
    expect(page).toMatch(/<details class="card" id="context">/);
    const head = page.slice(page.indexOf('id="memo"'), page.indexOf("<details>"));
    expect(textOf(head).length).toBeLessThan(420);
    expect(page).toContain("<summary>Read the rest</summary>");
    expect(page).toContain("The last sentence is folded.");
  });

  it("links to the next waiting question and to all questions, each through a fresh signed link", async () => {
    const web = await webFixture();
    const first = await web.ask(selectCard({ priority: "high" }));
    const second = await web.ask(confirmCard());
    const page = await (await web.app.request(web.link(first))).text();
    const nextHref = (/<a href="([^"]+)" id="next-question"/.exec(page) ?? [])[1] ?? "";
    const allHref = (/<a href="([^"]+)" id="all-questions"/.exec(page) ?? [])[1] ?? "";
    const at = web.link(first);
    expect(resolvedIn(at, nextHref).startsWith(`/q/${second}?s=`)).toBe(true);
    expect((await web.app.request(resolvedIn(at, nextHref))).status).toBe(200);
    expect((await web.app.request(resolvedIn(at, allHref))).status).toBe(200);
    const all = await (await web.app.request(resolvedIn(at, allHref))).text();
    expect(all).toContain('id="next-question"');
  });

  it("names a link made for a question whose card no longer parses as one for another question", async () => {
    // The refusal reads only the names in the questions folder, never the cards: a well-formed
    // but wrong signature from anyone must not cost a parse of the whole box.
    const web = await webFixture();
    const broken = await web.ask(selectCard({ prompt: "Soon unreadable?" }));
    const other = await web.ask(confirmCard());
    const signature = web.link(broken).split("?s=")[1];
    writeFileSync(join(web.box.box.paths.questionsDir, `${broken}.question.card`), "not a card");
    const res = await web.app.request(`/q/${other}?s=${signature}`);
    expect(res.status).toBe(403);
    expect(await res.text()).toContain("This link is for another question");
  });

  it("says when a question was asked in words and in the box's time zone", async () => {
    const web = await webFixture({ time: "2026-07-13T09:00:00Z" });
    const id = await web.ask(selectCard({ "asked-at": "2026-07-10T09:00:00Z" }));
    const page = textOf(await (await web.app.request(web.link(id))).text());
    expect(page).toContain("asked 3 days ago (10 Jul 2026, 09:00)");
  });

  it("tells apart a changed link, an expired one and one made for another question", async () => {
    const web = await webFixture();
    const first = await web.ask(selectCard());
    const second = await web.ask(confirmCard());
    const changed = await (await web.app.request(tamper(web.link(first)))).text();
    expect(changed).toContain("This link was changed");
    const elsewhere = `/q/${second}?s=${web.link(first).split("?s=")[1]}`;
    expect(await (await web.app.request(elsewhere)).text()).toContain(
      "This link is for another question",
    );
    const old = web.link(first, new Date(web.box.box.clock.now().getTime() - EIGHT_DAYS_MS));
    expect(await (await web.app.request(old)).text()).toContain("This link has expired");
  });

  it("answers GET / with a small page that says how to get a link", async () => {
    const web = await webFixture();
    const res = await web.app.request("/");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/html");
    const page = await res.text();
    expect(page).toContain("qbridge link ID");
    expect(page).toContain("/waiting");
  });
});
