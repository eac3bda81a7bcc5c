// The one way the web tests open a page as a phone does: Debian's chromium, headless, with no
// network of its own, and a 390x844 context with JavaScript off (every page works as plain
// forms). Measurements read what the browser laid out, never the HTML's text.

import { type Browser, chromium, type Locator, type Page } from "playwright-core";

export const PHONE = { width: 390, height: 844 };

/** iOS zooms into a control whose text is smaller than this when it gets the focus. */
export const NO_ZOOM_PX = 16;

export function launchPhoneBrowser(): Promise<Browser> {
  return chromium.launch({
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
}

export async function phonePage(
  browser: Browser,
  colorScheme: "light" | "dark" = "light",
): Promise<Page> {
  const context = await browser.newContext({
    viewport: PHONE,
    javaScriptEnabled: false,
    colorScheme,
  });
  return context.newPage();
}

/** Where an element ends on the page, in CSS pixels from the top of the first screen. */
export async function bottomOf(locator: Locator): Promise<number> {
  const found = await locator.boundingBox({ timeout: 10_000 });
  if (!found) throw new Error("the element is not shown on the page");
  return found.y + found.height;
}
