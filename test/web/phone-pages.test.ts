// Story: the boxholder opens each kind of question on a 390x844 phone in Debian's chromium.
// Every control is at least 16 px (iOS zooms into smaller ones) and large enough to tap; the
// Send button is on the first screen, also under a four-option select with every extra; an
// MCP form comes with the server's defaults filled in, and says its refusal and the recorded
// answer in words; an MCP tool's permission reads as the sentence it was filed with and shows
// the tool's arguments as lines, never as JSON.

import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { requestOf } from "../../src/card/agent-request.ts";
import { loadConfig } from "../../src/config.ts";
import { claude } from "../../src/hooks/agents/claude.ts";
import { elicitationCard } from "../../src/hooks/elicitation-question.ts";
import { mcpSentence } from "../../src/hooks/mcp-tool-sentence.ts";
import { hookOffers, hookRequest } from "../../src/hooks/permission-question.ts";
import { askQuestion } from "../../src/questions/ask.ts";
import { askPermission } from "../../src/questions/ask-permission.ts";
import { permissionCard } from "../../src/questions/permission/card.ts";
import { loadQuestion } from "../../src/questions/store.ts";
import { raw } from "../../src/web/html.ts";
import { page } from "../../src/web/layout.ts";
import { loadSecret, signLink } from "../../src/web/links.ts";
import { markdownHtml } from "../../src/web/markdown-html.ts";
import { type RunningWeb, startWeb } from "../../src/web/server.ts";
import { cleanupBoxes, makeBox, selectCard, type TestBox } from "../support/box.ts";
import { bottomOf, launchPhoneBrowser, NO_ZOOM_PX, PHONE, phonePage } from "./phone-browser.ts";

let box: TestBox;
let web: RunningWeb;
let browser: Browser;

beforeAll(async () => {
  box = await makeBox();
  web = await startWeb({
    core: box,
    config: loadConfig({ QBRIDGE_WEB_PORT: "0", QBRIDGE_TIMEZONE: "UTC" }, { box: box.dir }),
  });
  browser = await launchPhoneBrowser();
});

afterAll(async () => {
  await browser?.close();
  await web?.close();
  cleanupBoxes();
});

function linkTo(id: string): string {
  const s = signLink(loadSecret(box.box), { question: id }, box.box.clock.now());
  return `${web.url}/q/${id}?s=${s}`;
}

async function opened(id: string): Promise<Page> {
  const page = await phonePage(browser);
  await page.goto(linkTo(id));
  await page.locator("h1").waitFor({ timeout: 10_000 });
  return page;
}

/** Each control a person types into or taps, with its text size and the height of its target. */
interface Control {
  what: string;
  fontPx: number;
  targetPx: number;
}

/** A radio or checkbox is tapped through its label: the label is its target. */
function controlsOf(page: Page): Promise<Control[]> {
  return page.evaluate(`[...document.querySelectorAll("main input:not([type=hidden]), main select, main textarea, main button, main summary")]
    .filter((e) => e.getClientRects().length > 0)
    .map((e) => {
      const target = e.closest("label") ?? e;
      return {
        what: e.outerHTML.slice(0, 80),
        fontPx: parseFloat(getComputedStyle(e).fontSize),
        targetPx: target.getBoundingClientRect().height,
      };
    })`) as Promise<Control[]>;
}

async function expectPhoneControls(page: Page): Promise<void> {
  const controls = await controlsOf(page);
  expect(controls.length).toBeGreaterThan(0);
  expect(controls.filter((c) => c.fontPx < NO_ZOOM_PX)).toEqual([]);
  expect(controls.filter((c) => c.targetPx < 44)).toEqual([]);
}

describe("a question page on a 390x844 phone", () => {
  it("a four-option select with a two-line memo, the learning, a recommendation and a safe action keeps Send on the first screen, the rest below it and escaped", async () => {
    const id = (
      await askQuestion(
        box,
        selectCard({
          prompt: "Where do photographed receipts from the hardware store belong?",
          memo: "A receipt from the hardware store came in at intake and no rule says where it goes.\nThe last two such receipts were filed by hand, one in each of two <b>folders</b>.",
          input: {
            type: "select",
            options: [
              { id: "finance", label: "Finance" },
              { id: "taxes", label: "Taxes" },
              { id: "household", label: "Household" },
              { id: "_other", label: "Somewhere else" },
            ],
          },
          learning: {
            sink: "guide",
            ref: "/_config/finance.guide.card",
            proposal: "Receipts from the hardware store go in finance/receipts/hardware/.",
          },
          recommended: "finance",
          "while-waiting": "Keep the receipt in intake.",
        }),
      )
    ).id;
    const page = await opened(id);
    const sendButton = page.getByRole("button", { name: "Send answer" });
    const send = await bottomOf(sendButton);
    expect(send).toBeLessThanOrEqual(PHONE.height);
    // What the box will learn comes before the choice; the rest follows Send, whole and escaped.
    expect(await bottomOf(page.locator(".learn"))).toBeLessThan(send);
    const memo = page.locator("#memo");
    expect(await memo.textContent()).toContain(
      "The last two such receipts were filed by hand, one in each of two <b>folders</b>.",
    );
    expect(await memo.locator("b").count()).toBe(0);
    expect(await bottomOf(memo)).toBeGreaterThan(send);
    const guidance = page.locator("#guidance");
    expect(await guidance.textContent()).toBe(
      "Recommended: FinanceWhile waiting: Keep the receipt in intake.",
    );
    expect(await bottomOf(guidance)).toBeGreaterThan(send);
    await expectPhoneControls(page);
    await page.context().close();
  });
});

const FORM_SCHEMA = {
  type: "object",
  properties: {
    environment: {
      type: "string",
      title: "Environment",
      enum: ["staging", "production"],
      enumNames: ["Staging", "Production"],
      default: "staging",
    },
    replicas: { type: "integer", title: "Replicas", minimum: 1, maximum: 10, default: 2 },
    notify: { type: "boolean", title: "Tell the on-call channel", default: true },
    reason: { type: "string", title: "Reason", description: "One line for the deploy log" },
  },
  required: ["environment", "replicas", "reason"],
};

describe("an MCP form on a 390x844 phone", () => {
  it("comes with the form's defaults filled in and 16 px controls, and says a refusal and the recorded answer in words", async () => {
    const ask = {
      sessionId: "s1",
      cwd: "/home/ada/work/api",
      server: "deploy-tools",
      message: "Deploy settings for release 2.4.1",
      mode: "form" as const,
      url: undefined,
      schema: FORM_SCHEMA,
    };
    const { id } = await askQuestion(box, elicitationCard(ask, 600), {
      via: "hook",
      agentPrompt: { kind: "elicitation", requestedSchema: FORM_SCHEMA },
    });
    const page = await opened(id);
    expect(await page.getByLabel("Environment").inputValue()).toBe("staging");
    expect(await page.getByLabel("Replicas").inputValue()).toBe("2");
    expect(await page.getByLabel("Tell the on-call channel").inputValue()).toBe("true");
    expect(await page.getByLabel("Reason").inputValue()).toBe("");
    await expectPhoneControls(page);
    const send = await bottomOf(page.getByRole("button", { name: "Send answer" }));
    expect(send).toBeLessThanOrEqual(PHONE.height);

    await page.getByLabel("Reason").fill("Release 2.4.1");
    await page.getByLabel("Replicas").fill("0");
    await page.getByRole("button", { name: "Send answer" }).click();
    const refusal = await page.locator("[role=status]").textContent({ timeout: 10_000 });
    expect(refusal).toContain("Replicas must be 1 or more");
    expect(refusal).not.toMatch(/[{}]|"replicas"/);
    expect(loadQuestion(box, id).card.status).toBe("pending");
    expect(await page.getByLabel("Reason").inputValue()).toBe("Release 2.4.1");

    await page.getByLabel("Replicas").fill("3");
    await page.getByRole("button", { name: "Send answer" }).click();
    const recorded = (await page.locator("#recorded").textContent({ timeout: 10_000 })) ?? "";
    for (const line of [
      "Environment: Staging",
      "Replicas: 3",
      "Tell the on-call channel: Yes",
      "Reason: Release 2.4.1",
    ]) {
      expect(recorded).toContain(line);
    }
    expect(recorded).not.toMatch(/[{}]/);
    await page.context().close();
  });
});

describe("an MCP tool's permission on a 390x844 phone", () => {
  const input = { environment: "staging", version: "2.4.1" };
  const tool = "mcp__deploy-tools__deploy";
  const ask = {
    agent: "claude" as const,
    sessionId: "s1",
    cwd: "/home/ada/work/api",
    tool,
    input,
    description: undefined,
    always: [],
    callId: undefined,
  };

  /** Files the hook's card for the call, with `prompt` where given, and opens its page. */
  async function permissionPage(call: string, prompt?: string): Promise<Page> {
    const card = permissionCard(hookRequest(claude, ask), hookOffers(claude, ask, tool), 600);
    const { id } = await askPermission(
      box,
      prompt === undefined ? card : { ...card, prompt },
      { agent: "claude", sessionId: "s1", tool, input, call },
      "hook",
      { whole: requestOf(input) },
    );
    return opened(id);
  }

  async function expectArgumentsAsLines(page: Page): Promise<void> {
    const request = (await page.locator("#request").textContent()) ?? "";
    expect(request).toContain("environment: staging");
    expect(request).toContain("version: 2.4.1");
    expect(request).not.toMatch(/[{}]/);
  }

  it("reads as the sentence it was filed with, shows the arguments as lines and never as JSON, with Send on the first screen", async () => {
    const sentence = mcpSentence({ server: "deploy-tools", tool: "deploy" }, input);
    // The sentence alone, and the sentence ending with the whole input (a call short enough).
    for (const prompt of [sentence, `${sentence.slice(0, -1)}: ${requestOf(input)}?`]) {
      const page = await permissionPage(`call ${prompt.length}`, prompt);
      expect(await page.locator("h1").textContent()).toBe("Run deploy-tools' deploy on staging?");
      await expectArgumentsAsLines(page);
      expect(await page.locator("main").textContent()).not.toContain("Allow mcp__");
      const send = await bottomOf(page.getByRole("button", { name: "Send answer" }));
      expect(send).toBeLessThanOrEqual(PHONE.height);
      await expectPhoneControls(page);
      await page.context().close();
    }
  });

  it("never heads the page with the tool's input as JSON, whatever prompt the hook filed", async () => {
    const page = await permissionPage("call as filed");
    expect(await page.locator("h1").textContent()).not.toMatch(/[{}]/);
    await expectArgumentsAsLines(page);
    await page.context().close();
  });
});

describe("the shared page shell on a 390x844 phone", () => {
  it("Markdown in a card (a plan) wraps its code, scrolls only a wide table, and never the page sideways", async () => {
    const plan = [
      "## Plan",
      "1. Move `archive/finance_receipts/photographed_2026/intake_from_phone_scans` aside.",
      "",
      "```sh",
      `rsync -a --delete ${"archive/finance_receipts/photographed_2026/".repeat(3)} /mnt/backup/`,
      "```",
      "",
      "| step | command | expected output | who checks |",
      "| --- | --- | --- | --- |",
      `| 1 | ${"make check ".repeat(6)}| ${"all green ".repeat(6)}| ${"the boxholder ".repeat(3)}|`,
    ].join("\n");
    const html = page(
      "A plan",
      raw(`<h1>A plan</h1><div class="card">${markdownHtml(plan)}</div>`),
    );
    const phone = await phonePage(browser);
    await phone.setContent(html);
    const widths = (await phone.evaluate(
      "[document.documentElement.scrollWidth, document.querySelector('pre').getBoundingClientRect().right]",
    )) as number[];
    expect(widths[0]).toBeLessThanOrEqual(PHONE.width);
    expect(widths[1]).toBeLessThanOrEqual(PHONE.width);
    expect(await phone.locator(".card h2").evaluate((e) => getComputedStyle(e).textTransform)).toBe(
      "none",
    );
    await phone.context().close();
  });
});
