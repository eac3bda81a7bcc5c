// The questions put off with `later`, as the chat tells them: what and until when. A put-off
// question is pending and counted as waiting; the chat must never say nothing waits while one
// is put off. (`next` brings the earliest back: the judge's box command.)

import { backAt, type PutOff } from "../../src/slot/port.ts";
import { flat } from "./render.ts";

/** "1 put off: PROMPT (until tomorrow 09:00)…", or "" when none is. */
export function putOffText(putOff: readonly PutOff[], now: Date, timeZone: string): string {
  if (putOff.length === 0) return "";
  const lines = putOff.map((q) => `${flat(q.prompt)} (until ${backAt(q.until, now, timeZone)})`);
  const head = `${putOff.length} put off: `;
  return `${head}${lines.join("; ")}. Type next to bring it back now.\n`;
}
