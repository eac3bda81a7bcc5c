// Story: the boxholder opens each kind of question on a 390x844 phone in Debian's chromium.
// Every control is at least 16 px (iOS zooms into smaller ones) and large enough to tap; the
// Send button is on the first screen, also under a four-option select with every extra; an
// MCP form comes with the server's defaults filled in, and says its refusal and the recorded
// answer in words; an MCP tool's permission reads as the sentence it was filed with and shows
// the tool's arguments as lines, never as JSON.

import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config.ts";
import { elicitationCard } from "../../src/hooks/elicitation-question.ts";
import { askQuestion } from "../../src/questions/ask.ts";
import { loadQuestion } from "../../src/questions/store.ts";
import { loadSecret, signLink } from "../../src/web/links.ts";
import { type RunningWeb, startWeb } from "../../src/web/server.ts";
import { cleanupBoxes, makeBox, type TestBox } from "../support/box.ts";
import { launchPhoneBrowser, NO_ZOOM_PX, phonePage } from "./phone-browser.ts";

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
