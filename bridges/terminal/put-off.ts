// The questions put off with `later`, as the chat tells them: what and until when, and `next`
// bringing the earliest back. A put-off question is pending and counted as waiting; the chat
// must never say nothing waits while one is put off.

import { backAt, loadQuestion, type Slot } from "../../src/slot/port.ts";
import { flat } from "./render.ts";

interface PutOff {
  id: string;
  prompt: string;
  until: Date;
}

/** The pending questions still put off now, the earliest back first. */
export function putOffQuestions(slot: Slot): PutOff[] {
  const now = slot.core.box.clock.now();
  const found: PutOff[] = [];
  for (const id of slot.later.waiting(now)) {
    const until = slot.later.until(id);
    const card = loadQuestion(slot.core, id).card;
    if (until && card.status === "pending") {
      found.push({ id, prompt: card.prompt, until: new Date(until) });
    }
  }
  return found.sort((a, b) => a.until.getTime() - b.until.getTime());
}

/** "1 put off: PROMPT (until tomorrow 09:00)…", or "" when none is. */
export function putOffText(slot: Slot): string {
  const putOff = putOffQuestions(slot);
  if (putOff.length === 0) return "";
  const now = slot.core.box.clock.now();
  const zone = slot.attention.timeZone;
  const lines = putOff.map((q) => `${flat(q.prompt)} (until ${backAt(q.until, now, zone)})`);
  const head = `${putOff.length} put off: `;
  return `${head}${lines.join("; ")}. Type next to bring it back now.\n`;
}

/** Shows the earliest put-off question now; false when none is put off. */
export async function bringBack(slot: Slot): Promise<boolean> {
  const first = putOffQuestions(slot)[0];
  if (!first) return false;
  return slot.exclusive(async (ops) => {
    slot.later.clear(first.id);
    return (await ops.show(first.id)) !== undefined;
  });
}
