// Presenting one question: the first ready presenter that shows it holds the slot. The claim
// is taken in the ledger before the message is sent and released when nothing was shown, so
// two processes never present at once; what the message offers (overnight news, "Last time",
// more time) is decided here, once, for every bridge.

import { questionFingerprint } from "../../card/fingerprint.ts";
import { mayWait } from "../../card/question.ts";
import type { Core } from "../../questions/core.ts";
import { deadlineOf, extendOffer } from "../../questions/deadline.ts";
import type { QuestionView } from "../../questions/state.ts";
import { type Attention, sendDecision } from "../attention/attention.ts";
import type { LaterStore } from "../attention/later.ts";
import { overnightNews, overnightTold } from "../attention/overnight.ts";
import type { Reach } from "../reach.ts";
import type { Registry } from "../registry.ts";
import type { SlotLogger } from "../slot-ops.ts";
import { lastTimeFor } from "./last-time.ts";
import { ChatRefuses } from "./presenter.ts";
import type { Presentation, PresentationStore } from "./records.ts";
import type { Repeats } from "./repeats.ts";

export interface PresentDeps {
  core: Core;
  presentations: PresentationStore;
  registry: Registry;
  later: LaterStore;
  logger: SlotLogger;
  now: () => string;
  attention: Attention;
  reach: Reach;
  repeats: Repeats;
}

/**
 * Presents `question` (`pending` is the queue it heads) through the first ready presenter that
 * shows it, skipping one whose chat is held off as refusing messages unless `anyway` (/next).
 * A presenter that threw has its claim released and nothing else is tried: its surface is held
 * off (reach.ts, which logs it), longer for a chat that refused than for a service that failed.
 * A question tried again and again is held off itself (repeats.ts), unless `anyway` or
 * `asked` (a person asked for this question: their Show, Extend or `next` is never held off).
 */
export async function present(
  deps: PresentDeps,
  question: QuestionView,
  pending: QuestionView[],
  { anyway = false, asked = false } = {},
): Promise<{ presented?: Presentation | undefined }> {
  const { core, presentations, registry, later, logger, now, attention, reach, repeats } = deps;
  if (!anyway && !asked && !repeats.mayPresent(question.id)) return {};
  const ready = registry.presenters
    .filter((p) => p.ready() && (anyway || reach.open(p.surface)))
    // A second channel (e-mail beside Telegram) presents only where no first one is ready.
    .sort((a, b) => Number(a.second !== undefined) - Number(b.second !== undefined));
  if (ready.length === 0) return {};
  const cardHash = questionFingerprint(question.card);
  const behind = pending.length - 1;
  const { silent } = sendDecision(question.card, core.box.clock.now(), attention);
  const news = overnightNews(core, attention, pending);
  const overnight = news?.count ? { overnight: news.count } : {};
  const lastTime = lastTimeFor(core, question, attention);
  const extendBy = mayWait(question.card)
    ? extendOffer(question.card, core.box.clock.now())
    : undefined;
  const deadline = deadlineOf(question.card).toISOString();
  const offers = { ...(lastTime ? { lastTime } : {}), ...(extendBy ? { extendBy } : {}) };
  for (const presenter of ready) {
    let seq: number | undefined;
    try {
      const holder = await registry.holderFor(presenter);
      seq = presentations.claim(question.id, presenter.surface, cardHash, now(), holder, deadline);
      if (seq === undefined) return {};
      const request = { seq, question, behind, silent, ...overnight, ...offers };
      const address = await presenter.present(request);
      // A presenter that threw holds its surface off (below); one that answered counts a try.
      repeats.tried(question.id);
      if (address) {
        presentations.presented(seq, address, now());
        presentations.unpark(question.id);
        later.clear(question.id);
        if (news) overnightTold(core, news);
        reach.reached(presenter.surface);
        logger.info({ question: question.id, surface: presenter.surface }, "presented");
        return { presented: presentations.get(seq) };
      }
      presentations.release(seq);
    } catch (error) {
      if (seq !== undefined) presentations.release(seq);
      if (error instanceof ChatRefuses) {
        reach.refused(presenter.surface, error);
        return {};
      }
      reach.failed(presenter.surface, error, question.id);
      return {};
    }
  }
  return {};
}
