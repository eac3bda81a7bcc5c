// The boxholder answers in a real browser (Debian's chromium, headless) against the real
// server on 127.0.0.1: a phone-sized page, forms without JavaScript, and answers that land in
// git once, however often the back button and the submit button are pressed.

import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { type Browser, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config.ts";
import { askQuestion } from "../../src/questions/ask.ts";
import { loadQuestion } from "../../src/questions/store.ts";
import { loadSecret, signLink } from "../../src/web/links.ts";
import { type RunningWeb, startWeb } from "../../src/web/server.ts";
import {
  cleanupBoxes,
  confirmCard,
  gitLog,
  makeBox,
  multiselectCard,
  ROOT,
  selectCard,
  type TestBox,
  textCard,
} from "../support/box.ts";

const OUTPUT = join(ROOT, "test-output");
const PHONE = { width: 390, height: 844 };

let box: TestBox;
let web: RunningWeb;
let browser: Browser;

beforeAll(async () => {
  box = await makeBox();
  web = await startWeb({
    core: box,
    config: loadConfig({ QBRIDGE_WEB_PORT: "0" }, { box: box.dir }),
  });
  browser = await chromium.launch({
    executablePath: "/usr/bin/chromium",
    headless: true,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
});

afterAll(async () => {
  await browser?.close();
  await web?.close();
  cleanupBoxes();
});

async function ask(card: Record<string, unknown>): Promise<string> {
  return (await askQuestion(box, card)).id;
}

function linkTo(id: string): string {
  const s = signLink(loadSecret(box.box), { question: id }, box.box.clock.now());
  return `${web.url}/q/${id}?s=${s}`;
}

async function phonePage(colorScheme: "light" | "dark" = "light"): Promise<Page> {
  const context = await browser.newContext({
    viewport: PHONE,
    javaScriptEnabled: false,
    colorScheme,
  });
  return context.newPage();
}

/** The widest element's right edge, to catch anything a phone would scroll sideways for. */
function widestRightEdge(page: Page): Promise<number> {
  return page.evaluate(
    "Math.max(...[...document.querySelectorAll('body *')].map((e) => e.getBoundingClientRect().right))",
  ) as Promise<number>;
}

/** The text of an element, once the page that has it has loaded (bounded by the timeout). */
async function textOf(page: Page, selector: string): Promise<string> {
  const element = page.locator(selector).first();
  await element.waitFor({ timeout: 10_000 });
  return (await element.textContent()) ?? "";
}

function jobsFor(id: string): Promise<string[]> {
  return box.box.git
    .raw(["ls-files", "_bookkeeping/jobs"])
    .then((out) => out.split("\n").filter((rel) => rel.includes(id)));
}

describe("answering in the browser", () => {
  it("opens a signed link, picks an option, submits, and sees the recorded answer; git has it once, via web", async () => {
    const id = await ask(
      selectCard({ recommended: "finance", "while-waiting": "Keep the receipt in intake." }),
    );
    const page = await phonePage();
    await page.goto(linkTo(id));
    expect(await textOf(page, "h1")).toBe("Where do photographed receipts belong?");
    mkdirSync(OUTPUT, { recursive: true });
    await page.screenshot({ path: join(OUTPUT, "question-page-390x844.png") });
    await page.screenshot({ path: join(OUTPUT, "question-page-full.png"), fullPage: true });

    await page.getByLabel("Taxes").check();
    await page.getByRole("button", { name: "Send answer" }).click();

    expect(await textOf(page, "#recorded")).toContain("Taxes");
    expect(await textOf(page, "#recorded")).toContain("Answered via web");
    const card = loadQuestion(box, id).card;
    expect(card.status).toBe("answered");
    expect(card["answered-via"]).toBe("web");
    expect(card.answer).toEqual({ text: "Taxes", selected: "taxes" });
    expect(await jobsFor(id)).toHaveLength(1);
    const answers = await gitLog(
      box.dir,
      "%(trailers:key=Answered-Via,valueonly,separator=%x20)|%(trailers:key=Question,valueonly,separator=%x20)",
    );
    expect(answers.filter((line) => line.endsWith(`|${id}`) && !line.startsWith("|"))).toEqual([
      `web|${id}`,
    ]);
    await page.screenshot({ path: join(OUTPUT, "answered-page-390x844.png"), fullPage: true });
    await page.context().close();
  });

  it("the back button and a resubmit from a stale page create nothing new", async () => {
    const id = await ask(selectCard({ prompt: "Which folder for invoices?" }));
    const page = await phonePage();
    const stale = await page.context().newPage();
    await stale.goto(linkTo(id));
    await page.goto(linkTo(id));
    await page.getByLabel("Finance").check();
    await page.getByRole("button", { name: "Send answer" }).click();
    expect(await textOf(page, "#recorded")).toContain("Finance");
    const commits = (await gitLog(box.dir)).length;

    await page.goBack();
    expect(await textOf(page, "#recorded")).toContain("Finance");
    expect(await page.locator("form#answer").count()).toBe(0);

    await stale.getByLabel("Taxes").check();
    await stale.getByRole("button", { name: "Send answer" }).click();
    expect(await textOf(stale, "[role=status]")).toContain(
      "Nothing changed: this question is already answered",
    );
    expect(await textOf(stale, "#recorded")).toContain("Finance");

    expect(await gitLog(box.dir)).toHaveLength(commits);
    expect(await jobsFor(id)).toHaveLength(1);
    expect(loadQuestion(box, id).card.answer?.text).toBe("Finance");
    await page.context().close();
  });

  it("answers a confirm with a note", async () => {
    const id = await ask(confirmCard());
    const page = await phonePage();
    await page.goto(linkTo(id));
    await page.screenshot({ path: join(OUTPUT, "confirm-page-390x844.png"), fullPage: true });
    await page.getByLabel("Note (optional)").fill("keep the ones from 2024");
    await page.getByRole("button", { name: "No", exact: true }).click();
    expect(await textOf(page, "#recorded")).toContain("No");
    expect(await textOf(page, "#recorded")).toContain("Note: keep the ones from 2024");
    expect(loadQuestion(box, id).card.answer).toEqual({
      text: "No",
      selected: "no",
      note: "keep the ones from 2024",
    });
    await page.context().close();
  });

  it("answers a text question", async () => {
    const id = await ask(textCard());
    const page = await phonePage();
    await page.goto(linkTo(id));
    await page.getByLabel("Your answer").fill("Anna Muster");
    await page.getByRole("button", { name: "Send answer" }).click();
    expect(await textOf(page, "#recorded")).toContain("Anna Muster");
    const card = loadQuestion(box, id).card;
    expect(card.answer).toEqual({ text: "Anna Muster" });
    expect(card["answered-via"]).toBe("web");
    await page.context().close();
  });

  it("after Later, the first screen says when the question comes back", async () => {
    const id = await ask(selectCard({ prompt: "Where do bus tickets go?" }));
    const page = await phonePage();
    await page.goto(linkTo(id));
    await page.getByRole("button", { name: /^Tomorrow morning/ }).click();
    expect(await textOf(page, "#later-back")).toContain("Put off: back tomorrow at 09:00");
    const line = await page.locator("#later-back").boundingBox();
    expect((line?.y ?? Number.POSITIVE_INFINITY) + (line?.height ?? 0)).toBeLessThanOrEqual(
      PHONE.height,
    );
    await page.context().close();
  });

  it("dismisses a question, which stays answerable", async () => {
    const id = await ask(selectCard({ prompt: "Where do parking tickets go?" }));
    const page = await phonePage();
    await page.goto(linkTo(id));
    await page.getByRole("button", { name: /^Dismiss/ }).click();
    expect(await textOf(page, "#recorded")).toContain("Dismissed just now");
    expect(await page.getByRole("button", { name: "Send answer" }).isVisible()).toBe(true);
    expect(await page.getByRole("button", { name: /^Dismiss/ }).count()).toBe(0);
    expect(loadQuestion(box, id).card.status).toBe("dismissed");
    expect(await jobsFor(id)).toHaveLength(0);
    await page.context().close();
  });
});

describe("on a phone's first screen, in light and dark", () => {
  const LONG_MEMO = `${"A receipt came in at intake and no rule says where receipts go yet. ".repeat(9)}It matters for the tax return.`;

  for (const scheme of ["light", "dark"] as const) {
    it(`shows the choices and the send button above the fold with a long memo and context (${scheme})`, async () => {
      const id = await ask(
        selectCard({
          prompt: `Where do receipts go (${scheme})?`,
          memo: LONG_MEMO,
          recommended: "finance",
          context: [
            { ref: "notes/receipts.md", text: "What was tried before. ".repeat(20) },
            { ref: "https://example.org/policy", text: "The policy page." },
          ],
        }),
      );
      const page = await phonePage(scheme);
      await page.goto(linkTo(id));
      await page.locator("h1").waitFor({ timeout: 10_000 });
      mkdirSync(OUTPUT, { recursive: true });
      await page.screenshot({ path: join(OUTPUT, `question-page-390x844-${scheme}.png`) });

      const send = await page.getByRole("button", { name: "Send answer" }).boundingBox();
      const firstChoice = await page.getByLabel("Finance").boundingBox();
      expect(firstChoice?.y ?? Number.POSITIVE_INFINITY).toBeLessThan(PHONE.height);
      expect((send?.y ?? Number.POSITIVE_INFINITY) + (send?.height ?? 0)).toBeLessThanOrEqual(
        PHONE.height,
      );
      expect(await page.locator("details#context").getAttribute("open")).toBeNull();
      expect(await widestRightEdge(page)).toBeLessThanOrEqual(PHONE.width);

      const background = await page.evaluate("getComputedStyle(document.body).backgroundColor");
      const [r, g, b] = String(background).match(/\d+/g)?.map(Number) ?? [];
      const brightness = ((r ?? 0) + (g ?? 0) + (b ?? 0)) / 3;
      if (scheme === "dark") expect(brightness).toBeLessThan(64);
      else expect(brightness).toBeGreaterThan(192);
      await page.context().close();
    });
  }

  it("a select of four options shows the learning, then the choice and Send on the first screen; the rarer actions come after", async () => {
    const id = await ask(
      selectCard({
        prompt: "Where do photographed receipts from the hardware store belong?",
        input: {
          type: "select",
          options: [
            { id: "finance", label: "Finance" },
            { id: "taxes", label: "Taxes" },
            { id: "household", label: "Household" },
            { id: "_other", label: "Somewhere else" },
          ],
        },
        recommended: "finance",
        "while-waiting": "Keep the receipt in intake.",
      }),
    );
    const page = await phonePage();
    await page.goto(linkTo(id));
    await page.locator("h1").waitFor({ timeout: 10_000 });
    mkdirSync(OUTPUT, { recursive: true });
    await page.screenshot({ path: join(OUTPUT, "select-page-390x844.png") });

    const box = async (locator: ReturnType<Page["locator"]>) => {
      const found = await locator.boundingBox();
      if (!found) throw new Error("an element of the page is not shown");
      return found;
    };
    const learning = await box(page.locator(".learn"));
    const firstChoice = await box(page.getByLabel("Finance"));
    const send = await box(page.getByRole("button", { name: "Send answer" }));
    const dismiss = await box(page.getByRole("button", { name: /^Dismiss/ }));
    const later = await box(page.locator("form#later"));
    expect(await page.getByText("Recommended:").isVisible()).toBe(true);
    expect(await page.getByText("While waiting:").isVisible()).toBe(true);
    expect(learning.y + learning.height).toBeLessThanOrEqual(firstChoice.y);
    expect(send.y).toBeGreaterThan(learning.y + learning.height);
    expect(send.y + send.height).toBeLessThanOrEqual(PHONE.height);
    expect(dismiss.y).toBeGreaterThan(send.y);
    expect(later.y).toBeGreaterThan(send.y);
    // The own-words field takes room only once its option is picked; Send still works then.
    const ownWords = page.locator("input.other");
    expect(await ownWords.isVisible()).toBe(false);
    await page.locator('input[name="choice"][value="_other"]').check();
    await ownWords.fill("The hardware folder");
    await page.getByRole("button", { name: "Send answer" }).click();
    expect(await textOf(page, "#recorded")).toContain("The hardware folder");
    await page.context().close();
  });

  it("a multi-select shows its checkboxes and Send on the first screen, and records the boxes ticked", async () => {
    const id = await ask(multiselectCard({ recommended: "unit" }));
    const page = await phonePage();
    await page.goto(linkTo(id));
    await page.locator("h1").waitFor({ timeout: 10_000 });
    mkdirSync(OUTPUT, { recursive: true });
    await page.screenshot({ path: join(OUTPUT, "multiselect-page-390x844.png") });
    const send = await page.getByRole("button", { name: "Send answer" }).boundingBox();
    expect(send).not.toBeNull();
    expect((send?.y ?? 0) + (send?.height ?? 0)).toBeLessThanOrEqual(PHONE.height);
    expect(await page.locator('input[type="checkbox"][name="choice"]').count()).toBe(3);

    await page.getByLabel("Unit tests").check();
    await page.getByLabel("Type check").check();
    await page.getByRole("button", { name: "Send answer" }).click();

    expect(await textOf(page, "#recorded")).toContain("Unit tests, Type check");
    expect(loadQuestion(box, id).card.answer).toEqual({
      text: "Unit tests, Type check",
      selected: "unit,types",
    });
    expect(await jobsFor(id)).toHaveLength(1);
    await page.context().close();
  });

  it("wraps long unbroken words (paths, an agent's name) instead of scrolling sideways", async () => {
    const path = "archive/finance_receipts/photographed_2026/intake_from_phone_scans/unsorted";
    const id = await ask(
      selectCard({
        prompt: `Move ${path}_by_vendor?`,
        input: {
          type: "select",
          options: [
            { id: "finance", label: `${path}_by_vendor` },
            { id: "_other", label: `${path}_elsewhere` },
          ],
        },
        recommended: "finance",
        "while-waiting": `Leave it in ${path}_inbox.`,
        "asked-by": "intake_sorter_on_buildhost_example_internal_nightly_run",
        learning: { sink: "guide", ref: `guides/${path}.md`, proposal: "Receipts go there." },
      }),
    );
    const page = await phonePage();
    await page.goto(linkTo(id));
    await page.locator("h1").waitFor({ timeout: 10_000 });
    expect(await widestRightEdge(page)).toBeLessThanOrEqual(PHONE.width);
    await page.locator("#all-questions").click();
    await page.locator("#pending").waitFor({ timeout: 10_000 });
    expect(await widestRightEdge(page)).toBeLessThanOrEqual(PHONE.width);

    // ...while words that fit are never cut: "(recommended)" on a 320-pixel phone's Yes button.
    const confirm = await ask(
      confirmCard({ prompt: "Delete the 2019 backups?", recommended: "yes" }),
    );
    await page.setViewportSize({ width: 320, height: PHONE.height });
    await page.goto(linkTo(confirm));
    await page.locator("h1").waitFor({ timeout: 10_000 });
    const lines = await page.evaluate(`(() => {
      const button = [...document.querySelectorAll("button")].find((b) => b.textContent.includes("recommended"));
      const text = button.firstChild;
      const range = document.createRange();
      range.setStart(text, text.data.indexOf("(recommended)"));
      range.setEnd(text, text.data.indexOf("(recommended)") + "(recommended)".length);
      return range.getClientRects().length;
    })()`);
    expect(lines).toBe(1);
    await page.context().close();
  });

  it("the next-question link opens the next waiting question", async () => {
    const first = await ask(selectCard({ prompt: "First of two?", priority: "high" }));
    await ask(confirmCard({ prompt: "Second of two?", priority: "high" }));
    const page = await phonePage("dark");
    await page.goto(linkTo(first));
    await page.locator("#next-question").click();
    expect(await textOf(page, "h1")).not.toBe("First of two?");
    await page.locator("#all-questions").click();
    expect(await textOf(page, "h1")).toBe("Questions");
    await page.screenshot({ path: join(OUTPUT, "questions-page-390x844-dark.png") });
    await page.context().close();
  });
});
