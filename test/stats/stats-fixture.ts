// A box whose answer times are known to the second, for checking the stats exactly. The box
// clock is T0 (2026-07-10T09:00:00Z, 11:00 in Europe/Berlin); the 30-day window opens on 10 Jun.

import { serializeCard } from "../../src/card/codec.ts";
import { makeBox, type TestBox, textCard, writeCardFile } from "../support/box.ts";

export const ZONE = "Europe/Berlin";
export const REPEATED = "Should I archive the 2019 invoices?";

interface Spec {
  id: string;
  by: string;
  askedAt: string;
  status: "pending" | "answered" | "dismissed" | "expired";
  /** Seconds from asked-at to the closing. */
  after?: number;
  via?: string;
  ref?: string;
  prompt?: string;
}

const plus = (iso: string, seconds: number) =>
  `${new Date(Date.parse(iso) + seconds * 1000).toISOString().slice(0, 19)}Z`;

function cardOf(s: Spec): Record<string, unknown> {
  const card: Record<string, unknown> = {
    ...textCard({ prompt: s.prompt ?? `What about ${s.id}?` }),
    status: s.status,
    "asked-at": s.askedAt,
    "asked-by": s.by,
  };
  if (s.ref) card.learning = { sink: "guide", ref: s.ref, proposal: "Write it down." };
  const closed = plus(s.askedAt, s.after ?? 0);
  if (s.status === "answered") {
    card.answer = { text: "Yes" };
    card["answered-at"] = closed;
    card["answered-via"] = s.via ?? "cli";
  }
  if (s.status === "dismissed") card["dismissed-at"] = closed;
  if (s.status === "expired") card["expired-at"] = closed;
  return card;
}

export const SPECS: Spec[] = [
  // answered in the window; asked 10:xx Berlin (a1-a3) and 22:00 Berlin (a4, a5)
  {
    id: "a1",
    by: "sorter",
    askedAt: "2026-07-09T08:00:00Z",
    status: "answered",
    after: 120,
    via: "telegram",
    ref: "guide/receipts",
  },
  {
    id: "a2",
    by: "sorter",
    askedAt: "2026-07-08T08:00:00Z",
    status: "answered",
    after: 600,
    via: "web",
    ref: "guide/receipts",
  },
  {
    id: "a3",
    by: "sorter",
    askedAt: "2026-07-07T08:30:00Z",
    status: "answered",
    after: 3600,
    via: "telegram",
  },
  {
    id: "a4",
    by: "filer",
    askedAt: "2026-07-06T20:00:00Z",
    status: "answered",
    after: 7200,
    via: "cli",
  },
  {
    id: "a5",
    by: "filer",
    askedAt: "2026-07-05T20:00:00Z",
    status: "answered",
    after: 30,
    via: "telegram",
  },
  // answered before the window: counts per asker, not for responsiveness
  {
    id: "a6",
    by: "filer",
    askedAt: "2026-05-01T08:00:00Z",
    status: "answered",
    after: 100_000,
    via: "telegram",
  },
  { id: "p1", by: "filer", askedAt: "2026-07-10T08:00:00Z", status: "pending" },
  // the same prompt, written differently: answered once, then closed unanswered three times
  {
    id: "r1",
    by: "archiver",
    askedAt: "2026-06-01T08:00:00Z",
    status: "answered",
    after: 3600,
    via: "web",
    prompt: "should i archive the 2019 invoices",
  },
  {
    id: "r2",
    by: "archiver",
    askedAt: "2026-06-20T08:00:00Z",
    status: "dismissed",
    after: 3600,
    prompt: "Should I  archive the 2019 INVOICES?!",
  },
  {
    id: "r3",
    by: "archiver",
    askedAt: "2026-06-25T08:00:00Z",
    status: "expired",
    after: 864_000,
    prompt: REPEATED,
  },
  {
    id: "r4",
    by: "archiver",
    askedAt: "2026-07-01T08:00:00Z",
    status: "dismissed",
    after: 7200,
    prompt: REPEATED,
  },
  // dismissed only twice: no signal
  {
    id: "d1",
    by: "sorter",
    askedAt: "2026-07-09T07:00:00Z",
    status: "dismissed",
    after: 60,
    prompt: "Rename the scans folder?",
  },
  {
    id: "d2",
    by: "sorter",
    askedAt: "2026-07-08T07:00:00Z",
    status: "dismissed",
    after: 60,
    prompt: "Rename the scans folder?",
  },
];

export async function statsBox(specs: Spec[] = SPECS): Promise<TestBox> {
  const box = await makeBox();
  for (const s of specs) writeCardFile(box.dir, s.id, serializeCard(cardOf(s), ""));
  return box;
}

/** `count` answers to questions asked at 11:xx Berlin on past days, taking 60, 120, ... seconds. */
export function hourElevenAnswers(count: number): Spec[] {
  return Array.from({ length: count }, (_, i) => ({
    id: `h${i + 1}`,
    by: "sorter",
    askedAt: `2026-07-0${1 + (i % 9)}T09:${String(i).padStart(2, "0")}:00Z`,
    status: "answered" as const,
    after: 60 * (i + 1),
    via: "telegram",
  }));
}
