// Story: a box that has answered more questions than one page holds. The questions page shows
// what is waiting first, then the most recently closed questions, one page of them, with a link
// to the older ones; the next page shows the rest and links back. A page reads its own cards
// only: the archive is never read whole to show one page of it.

import { afterEach, describe, expect, it } from "vitest";
import { serializeCard } from "../../src/card/codec.ts";
import { ARCHIVE_PAGE, archivePage } from "../../src/questions/state.ts";
import { cleanupBoxes, selectCard, T0, writeCardFile } from "../support/box.ts";
import { resolvedIn, webFixture } from "./web-support.ts";

afterEach(cleanupBoxes);

const CLOSED = ARCHIVE_PAGE + 20;

/** Closed cards written by hand, answered one minute apart: closed-000 the most recent. */
function writeClosedCards(dir: string): void {
  for (let i = 0; i < CLOSED; i++) {
    const at = new Date(Date.parse(T0) - (i + 1) * 60_000).toISOString();
    const fields = {
      ...selectCard({ prompt: `Where does receipt ${i} go?` }),
      status: "answered",
      "asked-at": "2026-07-01T09:00:00Z",
      answer: { text: "Finance", selected: "finance" },
      "answered-at": at,
      "answered-via": "cli",
    };
    delete (fields as Record<string, unknown>).id;
    writeCardFile(dir, `closed-${String(i).padStart(3, "0")}`, serializeCard(fields));
  }
}

/** The ids the page lists under `section` ("pending" or "archive"), in order. */
function listed(page: string, section: string): string[] {
  const start = page.indexOf(`id="${section}"`);
  if (start < 0) return [];
  const list = page.slice(start, page.indexOf("</ul>", start));
  return [...list.matchAll(/href="q\/([^?"]+)\?s=/g)].map((m) => m[1] as string);
}

const ids = (from: number, to: number) =>
  Array.from({ length: to - from }, (_, i) => `closed-${String(from + i).padStart(3, "0")}`);

describe("the questions page of a box with a long archive", () => {
  it("shows what waits, then one page of the archive with a link to the next, which shows the rest", async () => {
    const web = await webFixture();
    const waiting = await web.ask(selectCard({ prompt: "Which folder for invoices?" }));
    writeClosedCards(web.box.dir);

    const first = await (await web.app.request(web.link({ page: "questions" }))).text();
    expect(listed(first, "pending")).toEqual([waiting]);
    expect(first).toContain("Waiting on you (1)");
    expect(first).toContain(`Archive (${CLOSED})`);
    expect(listed(first, "archive")).toEqual(ids(0, ARCHIVE_PAGE));
    expect(first).not.toContain('rel="prev"');
    const next = /<a rel="next" href="([^"]+)"/.exec(first)?.[1];
    expect(next).toBeDefined();

    const second = await web.app.request(
      resolvedIn("/questions", (next as string).replace(/&amp;/g, "&")),
    );
    expect(second.status).toBe(200);
    const rest = await second.text();
    expect(listed(rest, "archive")).toEqual(ids(ARCHIVE_PAGE, CLOSED));
    expect(listed(rest, "pending")).toEqual([]);
    expect(rest).toContain("Waiting on you (1)");
    expect(rest).not.toContain('rel="next"');
    expect(rest).toMatch(/<a rel="prev" href="questions\?s=[^"]+"/);
  });

  it("reads one page of the archive, not every closed card", async () => {
    const web = await webFixture();
    writeClosedCards(web.box.dir);
    const page = archivePage(web.box, ARCHIVE_PAGE, ARCHIVE_PAGE);
    expect(page.total).toBe(CLOSED);
    expect(page.views.map((v) => v.id)).toEqual(ids(ARCHIVE_PAGE, CLOSED));
  });

  it("answers a page past the end with the last page, and a page that is no number with the first", async () => {
    const web = await webFixture();
    writeClosedCards(web.box.dir);
    const link = web.link({ page: "questions" });
    const past = await (await web.app.request(`${link}&page=99`)).text();
    expect(listed(past, "archive")).toEqual(ids(ARCHIVE_PAGE, CLOSED));
    const bad = await (await web.app.request(`${link}&page=abc`)).text();
    expect(listed(bad, "archive")).toEqual(ids(0, ARCHIVE_PAGE));
  });
});
