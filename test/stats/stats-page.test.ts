// The stats page behind its own signed link: the fixture's numbers in the text equivalents,
// card text escaped, and in Debian's chromium at 390x844 in light and dark mode nothing wider
// than the phone, with a screenshot of each in test-output/.

import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config.ts";
import { createWebApp } from "../../src/web/app.ts";
import { loadSecret, signLink } from "../../src/web/links.ts";
import { type RunningWeb, startWeb } from "../../src/web/server.ts";
import { cleanupBoxes, ROOT, runCli, type TestBox } from "../support/box.ts";
import { launchPhoneBrowser, PHONE } from "../web/phone-browser.ts";
import { SPECS, statsBox, ZONE } from "./stats-fixture.ts";

const OUTPUT = join(ROOT, "test-output");
const HOSTILE = '<img src=x onerror="alert(1)">';

let box: TestBox;
let web: RunningWeb;
let browser: Browser;

beforeAll(async () => {
  box = await statsBox([
    ...SPECS,
    { id: "x1", by: HOSTILE, askedAt: "2026-07-09T10:00:00Z", status: "pending", prompt: HOSTILE },
  ]);
  const config = loadConfig({ QBRIDGE_WEB_PORT: "0", QBRIDGE_TIMEZONE: ZONE }, { box: box.dir });
  web = await startWeb({ core: box, config });
  browser = await launchPhoneBrowser();
});

afterAll(async () => {
  await browser?.close();
  await web?.close();
  cleanupBoxes();
});

const statsPath = () =>
  `/stats?s=${signLink(loadSecret(box.box), { page: "stats" }, box.box.clock.now())}`;

describe("the stats page", () => {
  it("opens only through its own signed link and shows the fixture's numbers, card text escaped", async () => {
    const config = loadConfig({ QBRIDGE_TIMEZONE: ZONE }, { box: box.dir });
    const app = createWebApp({ core: box, config, secret: loadSecret(box.box) });
    expect((await app.request("/stats")).status).toBe(403);
    const questionsLink = signLink(loadSecret(box.box), { page: "questions" }, box.box.clock.now());
    expect((await app.request(`/stats?s=${questionsLink}`)).status).toBe(403);
    const res = await app.request(statsPath());
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).toContain(
      "<strong>5</strong> answers: half came within <strong>10m</strong>, nine in ten within <strong>2h</strong>",
    );
    expect(text).toContain("<tr><td>telegram</td><td>3</td><td>2m</td><td>1h</td></tr>");
    expect(text).toContain("<tr><td>22:00</td><td>2</td><td>30s</td><td>2h</td></tr>");
    expect(text).toContain("<tr><td>07-09</td><td>1</td><td>1</td><td>0</td></tr>");
    expect(text).toContain("<tr><td>1-6 hours</td><td>2</td></tr>");
    expect(text).not.toContain(HOSTILE);
    expect(text).toContain("&lt;img src=x onerror=&quot;alert(1)&quot;&gt;");
    expect(text).not.toMatch(/<script/i);
  });

  it("qbridge link --stats prints a signed link that opens the stats page", async () => {
    const res = await runCli(["link", "--stats", "--json", "--box", box.dir]);
    expect(res.code).toBe(0);
    const url = new URL(JSON.parse(res.stdout).url);
    expect(url.pathname).toBe("/stats");
    expect((await fetch(`${web.url}${url.pathname}${url.search}`)).status).toBe(200);
  });

  it("with no answers in the window says so instead of a median of nothing", async () => {
    const empty = await statsBox([
      { id: "p1", by: "sorter", askedAt: "2026-07-09T10:00:00Z", status: "pending" },
    ]);
    const config = loadConfig({ QBRIDGE_TIMEZONE: ZONE }, { box: empty.dir });
    const app = createWebApp({ core: empty, config, secret: loadSecret(empty.box) });
    const link = signLink(loadSecret(empty.box), { page: "stats" }, empty.box.clock.now());
    const summary = (await (await app.request(`/stats?s=${link}`)).text()).match(
      /<div class="card" id="summary">.*?<\/div>/s,
    )?.[0];
    expect(summary).toContain("no answers yet");
    expect(summary).not.toContain("within");
    expect(summary).not.toContain("-</strong>");
  });

  it("at 390 px no table header breaks inside a word", async () => {
    const context = await browser.newContext({ viewport: PHONE, javaScriptEnabled: false });
    try {
      const page = await context.newPage();
      await page.goto(`${web.url}${statsPath()}`);
      await page.locator("table.nums th").first().waitFor({ timeout: 10_000 });
      // Each word of each header cell is laid out on one line: one client rect per word.
      const broken = await page.locator("table.nums th").evaluateAll((cells) =>
        cells.flatMap((cell) => {
          const text = cell.firstChild as Text;
          const words = [...text.data.matchAll(/\S+/g)];
          return words
            .filter((word) => {
              const range = document.createRange();
              range.setStart(text, word.index ?? 0);
              range.setEnd(text, (word.index ?? 0) + word[0].length);
              return range.getClientRects().length !== 1;
            })
            .map((word) => word[0]);
        }),
      );
      expect(broken).toEqual([]);
      const widest = await page
        .locator("body *")
        .evaluateAll((elements) =>
          Math.max(...elements.map((e) => e.getBoundingClientRect().right)),
        );
      expect(widest).toBeLessThanOrEqual(PHONE.width);
    } finally {
      await context.close();
    }
  });

  for (const colorScheme of ["light", "dark"] as const) {
    it(`at 390x844 in ${colorScheme} mode every chart has its text equivalent and nothing is wider than the phone`, async () => {
      const context = await browser.newContext({
        viewport: PHONE,
        javaScriptEnabled: false,
        colorScheme,
      });
      try {
        const page = await context.newPage();
        await page.goto(`${web.url}${statsPath()}`);
        for (const [chart, table] of [
          ["#chart-days", "#days"],
          ["#chart-distribution", "#distribution"],
          ["#chart-hours", "#hours"],
        ] as const) {
          const svg = page.locator(chart);
          expect(await svg.getAttribute("aria-label")).toBeTruthy();
          expect(await svg.locator("title").textContent()).toBe(
            await svg.getAttribute("aria-label"),
          );
          expect(await page.locator(`${table} tbody tr`).count()).toBeGreaterThan(0);
          expect((await svg.boundingBox())?.width).toBeGreaterThan(300);
        }
        expect(await page.locator("#hours tbody tr").count()).toBe(2);
        expect(await page.locator("#unanswered li").count()).toBe(1);
        const widest = await page
          .locator("body *")
          .evaluateAll((elements) =>
            Math.max(...elements.map((e) => e.getBoundingClientRect().right)),
          );
        expect(widest).toBeLessThanOrEqual(PHONE.width);
        mkdirSync(OUTPUT, { recursive: true });
        await page.screenshot({
          path: join(OUTPUT, `stats-page-${colorScheme}.png`),
          fullPage: true,
        });
      } finally {
        await context.close();
      }
    });
  }
});
