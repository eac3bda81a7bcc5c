// The daily digest of what waits, an option (QBRIDGE_EMAIL_DIGEST_AT): once a day, at or after
// the set time on the box's clock and in its time zone, one e-mail to the boxholder saying how
// many questions wait and which is open or next, with the links to them. Sent only when
// something waits then and a boxholder is paired; the day is kept in the ledger once its time
// has passed, so a restart never sends a second one that day, and a question filed later that
// day waits for tomorrow's. It answers nothing and changes no question.

import { flat, subjectOf } from "./compose.ts";
import type { Note } from "./notes.ts";
import type { Sender } from "./outgoing.ts";
import type { DigestTime } from "./settings.ts";

/** The bridge's own record (door.meta key) of the last day, in the box's time zone, it went out. */
export const DIGEST_DAY_KEY = "digest-day";

/** What the digest reads of what waits: the count and the question open or next. */
export interface DigestWaiting {
  count: number;
  top: { id: string; card: { prompt: string } } | undefined;
  presented: unknown;
}

export interface DigestDeps {
  at: DigestTime;
  sender: Sender;
  owner: () => string | undefined;
  waiting: () => DigestWaiting;
  now: () => Date;
  timeZone: string;
  /** The last day a digest went out, and its record. */
  day: { get(): string | undefined; set(day: string): void };
  link: (questionId: string) => string | undefined;
  questionsLink: () => string | undefined;
}

/** The day ("2026-07-10") and the minute of the day at `now` in `timeZone`. */
export function localDay(now: Date, timeZone: string): { day: string; minute: number } {
  const parts = new Intl.DateTimeFormat("en-CA", {
    timeZone,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
  }).formatToParts(now);
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? "";
  const minute = Number(part("hour")) * 60 + Number(part("minute"));
  return { day: `${part("year")}-${part("month")}-${part("day")}`, minute };
}

const two = (n: number) => String(n).padStart(2, "0");

/** The digest's e-mail: the count, the question open (or next) with its link, the list's link. */
export function digestNote(
  waiting: DigestWaiting & { top: NonNullable<DigestWaiting["top"]> },
  links: { top: string | undefined; all: string | undefined },
  at: DigestTime,
): Note {
  const { count, top, presented } = waiting;
  const many = count === 1 ? "1 question waits" : `${count} questions wait`;
  const lines = [
    `${many} on you.`,
    "",
    `${presented ? "Open now" : "Next"}: ${flat(top.card.prompt)}`,
    ...(links.top ? [links.top] : []),
    ...(links.all ? ["", `All that waits: ${links.all}`] : []),
    "",
    `This digest comes each day at ${two(at.hour)}:${two(at.minute)} while something waits (QBRIDGE_EMAIL_DIGEST_AT; unset it to stop).`,
  ];
  return { subject: subjectOf(`${many} on you`), text: lines.join("\n") };
}

/**
 * Sends today's digest when it is due and not sent yet; true when it went out. Once the time has
 * passed the day is done, also when nothing waited then; a send that failed is tried again.
 */
export async function sendDigestIfDue(deps: DigestDeps): Promise<boolean> {
  const { day, minute } = localDay(deps.now(), deps.timeZone);
  if (minute < deps.at.hour * 60 + deps.at.minute || deps.day.get() === day) return false;
  const to = deps.owner();
  const waiting = deps.waiting();
  const { top } = waiting;
  const send = to !== undefined && waiting.count > 0 && top !== undefined;
  if (send) {
    const links = { top: deps.link(top.id), all: deps.questionsLink() };
    await deps.sender.send(to, digestNote({ ...waiting, top }, links, deps.at));
  }
  deps.day.set(day);
  return send;
}
