// What the web tests stand on: a temporary box (real git) with the web app built over it,
// signed links made the way `qbridge link` makes them, and a page's form read like a browser.

import { readdirSync } from "node:fs";
import type { Hono } from "hono";
import { type Config, loadConfig } from "../../src/config.ts";
import { serveMcp } from "../../src/mcp/http.ts";
import { askQuestion } from "../../src/questions/ask.ts";
import { createWebApp } from "../../src/web/app.ts";
import type { WebTransition } from "../../src/web/deps.ts";
import { type LinkScope, loadSecret, signLink } from "../../src/web/links.ts";
import { makeBox, type TestBox } from "../support/box.ts";

export const API_TOKEN = "test-token-0123456789abcdef";

export interface WebFixture {
  box: TestBox;
  app: Hono;
  config: Config;
  secret: Buffer;
  transitions: WebTransition[];
  /** Files a question through the core and returns its id. */
  ask(card: Record<string, unknown>): Promise<string>;
  /** A signed path for a question (or the questions page), as `qbridge link` prints it. */
  link(scope: LinkScope | string, now?: Date): string;
  /** Follow-up job files in the box. */
  jobs(): string[];
  /** The bearer header of the configured API token. */
  auth(token?: string): Record<string, string>;
}

export async function webFixture(
  options: { apiToken?: string | null; time?: string } = {},
): Promise<WebFixture> {
  const box = await makeBox(options.time ? { time: options.time } : {});
  const env: Record<string, string> = { QBRIDGE_WEB_PORT: "0", QBRIDGE_TIMEZONE: "UTC" };
  const token = options.apiToken === undefined ? API_TOKEN : options.apiToken;
  if (token) env.QBRIDGE_API_TOKEN = token;
  const config = loadConfig(env, { box: box.dir });
  const secret = loadSecret(box.box);
  const transitions: WebTransition[] = [];
  const app = createWebApp({
    core: box,
    config,
    secret,
    mcp: serveMcp,
    onTransition: (event) => {
      transitions.push(event);
    },
  });
  return {
    box,
    app,
    config,
    secret,
    transitions,
    async ask(card) {
      return (await askQuestion(box, card, { via: "cli" })).id;
    },
    link(scope, now = box.box.clock.now()) {
      const s = typeof scope === "string" ? { question: scope } : scope;
      const path = "question" in s ? `/q/${encodeURIComponent(s.question)}` : `/${s.page}`;
      return `${path}?s=${signLink(secret, s, now)}`;
    },
    jobs() {
      return readdirSync(box.box.paths.jobsDir).filter((name) => name.endsWith(".job.card"));
    },
    auth(given = API_TOKEN) {
      return { Authorization: `Bearer ${given}` };
    },
  };
}

/** The hidden form token of a page, read from its HTML as a browser would submit it. */
export function formTokenIn(page: string): string {
  const match = /name="form" value="([^"]+)"/.exec(page);
  if (!match) throw new Error("the page has no form");
  return match[1] as string;
}

/** Posts a form to a signed link, the way a browser submits it. */
export function postForm(
  app: Hono,
  link: string,
  fields: Record<string, string>,
): Promise<Response> {
  return Promise.resolve(app.request(link, { method: "POST", body: new URLSearchParams(fields) }));
}

/** A page's link or form action as a browser follows it: resolved against the page's address. */
export function resolvedIn(pageAt: string, href: string): string {
  const url = new URL(href.replaceAll("&amp;", "&"), `http://box${pageAt}`);
  return `${url.pathname}${url.search}`;
}
