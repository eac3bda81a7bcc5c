// The doctor's checks of the layers above the core, composed here so that src/questions knows
// no slot and no chat service: a presentation stuck in the slot, given-up answer webhooks, and
// each bridge that is on with its own check (Telegram: the bot's reachability and webhook).

import type { Config } from "../config.ts";
import type { Core } from "../questions/core.ts";
import type { DoctorCheck, Finding } from "../questions/doctor/doctor.ts";
import { loadQuestion } from "../questions/store.ts";
import { closureOf } from "../slot/presentation/closure.ts";
import { type Presentation, PresentationStore } from "../slot/presentation/records.ts";
import { TokenStore } from "../slot/presentation/tokens.ts";
import { boxReceiverCheck, givenUpWebhooksCheck } from "../webhooks/doctor-check.ts";

/** A claim older than this that was never sent belongs to a process that died sending it. */
const CLAIM_STALE_MS = 60_000;

const RELEASED = "released by qbridge doctor";
const RELEASED_REPLY =
  "This question was released by qbridge doctor: use the newer message. Nothing was done.";

/**
 * The open presentation, when it is stuck: claimed long ago and never sent, presented with no
 * message to update, or presented for a question that is no longer pending (or gone). Releasing
 * it frees the slot; the question, when still pending, is simply shown again.
 */
export const stuckPresentationCheck: DoctorCheck = {
  label: "presentations",
  async examine(core) {
    const presentations = core.ledger.store(PresentationStore);
    const tokens = core.ledger.store(TokenStore);
    const open = presentations.open();
    if (!open) return { findings: [], facts: ["slot: no question presented"] };
    const stuck = whyStuck(core, open);
    if (!stuck) {
      return {
        findings: [],
        facts: [`slot: "${open.questionId}" ${open.state} on ${open.surface}`],
      };
    }
    const now = () => core.box.clock.iso();
    const apply = () => {
      if (presentations.close(open.seq, stuck.state, stuck.outcome, now())) {
        tokens.markPresentationUsed(open.seq, RELEASED_REPLY, now());
      }
    };
    const finding: Finding = {
      kind: "stuck-presentation",
      path: `.qbridge/ledger.sqlite (presentation ${open.seq})`,
      problem: stuck.problem,
      fix: `qbridge doctor --repair releases it; the question, if still pending, is shown again`,
      repairable: true,
      apply,
    };
    return { findings: [finding], facts: [] };
  },
};

/** Why the open presentation is stuck, and how releasing it closes it; undefined when it is not. */
function whyStuck(
  core: Core,
  open: Presentation,
): { problem: string; state: "superseded" | "resolved"; outcome: string } | undefined {
  let card: ReturnType<typeof loadQuestion>["card"] | undefined;
  let unreadable = false;
  try {
    card = loadQuestion(core, open.questionId).card;
  } catch (error) {
    unreadable = (error as Error).name === "CardUnreadable";
  }
  const age = core.box.clock.now().getTime() - new Date(open.createdAt).getTime();
  if (open.state === "queued" && age > CLAIM_STALE_MS) {
    return {
      problem: `question "${open.questionId}" was claimed for ${open.surface} at ${open.createdAt} and never sent: the slot is held and nothing is shown`,
      state: "superseded",
      outcome: RELEASED,
    };
  }
  if (open.state === "presented" && open.messageId === undefined) {
    return {
      problem: `question "${open.questionId}" is recorded as presented on ${open.surface} with no message: nothing can be updated or answered there`,
      state: "superseded",
      outcome: RELEASED,
    };
  }
  if (open.state === "presented" && !unreadable && card?.status !== "pending") {
    return {
      problem: `question "${open.questionId}" is still presented on ${open.surface} but is ${card ? card.status : "gone from the box"}: the slot is held by a closed question`,
      state: card ? "resolved" : "superseded",
      outcome: closureOf(card).text,
    };
  }
  return undefined;
}

export async function doctorChecks(config: Config): Promise<DoctorCheck[]> {
  const checks = [
    stuckPresentationCheck,
    givenUpWebhooksCheck,
    boxReceiverCheck(config.webhooks.url),
  ];
  // Each bridge loads its network library only here, when it is on and asked.
  for (const bridge of config.bridges) {
    const check = await bridge.check();
    if (check) checks.push(check);
  }
  return checks;
}
