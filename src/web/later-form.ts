// "Later" on a question's page: the times a pending question can be put off to (this evening,
// tomorrow morning, next week, in the box's time zone), and the line (at the page's top) saying
// when a put-off question comes back. The ledger keeps the time (the card is untouched); the
// slot, told of the change, shows it on no surface until then. The words name no surface: the
// boxholder may have none but this page.

import { AGENT_WAITS, mayWait } from "../card/question.ts";
import type { Core } from "../questions/core.ts";
import { loadQuestion } from "../questions/store.ts";
import { backAt, LaterStore, laterOption, laterOptions } from "../slot/attention/later.ts";
import { html, type Markup } from "./html.ts";

/**
 * When a put-off question comes back, for the top of its page: right after a Later tap the
 * browser lands there, so the first screen must say what the tap did. Empty when not put off.
 */
export function laterLine(core: Core, id: string, timeZone: string): Markup {
  const now = core.box.clock.now();
  const until = core.ledger.store(LaterStore).until(id);
  if (!until || new Date(until).getTime() <= now.getTime()) return html``;
  return html`<p class="meta" id="later-back">⏰ Put off: back ${backAt(new Date(until), now, timeZone)}.</p>`;
}

/** The Later buttons of a pending question's page. */
export function laterForm(input: {
  core: Core;
  id: string;
  timeZone: string;
  action: string;
  formToken: string;
}): Markup {
  const now = input.core.box.clock.now();
  const buttons = laterOptions(now, input.timeZone).map(
    (o) =>
      html`<button type="submit" class="quiet" name="later" value="${o.choice}">${o.label}</button>`,
  );
  return html`<form method="post" action="${input.action}" id="later"><input type="hidden" name="form" value="${input.formToken}"><input type="hidden" name="action" value="later"><p class="meta">⏰ Later: put it off until</p>${buttons}</form>`;
}

/** Puts a pending question off to a chosen time; the problem in one sentence when it cannot. */
export function putOffFromPage(
  core: Core,
  timeZone: string,
  id: string,
  choice: string | undefined,
): string | undefined {
  if (!mayWait(loadQuestion(core, id).card)) return `Not put off: ${AGENT_WAITS}.`;
  const option = laterOption(choice ?? "", core.box.clock.now(), timeZone);
  if (!option) return "That time has passed or is not one of the choices; pick another.";
  core.ledger.store(LaterStore).put(id, option.until, core.box.clock.iso());
  return undefined;
}
