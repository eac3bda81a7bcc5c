// What a committed transition owes the answer webhooks: the outcome, once per receiver (the
// question's own `callback`, this process's QBRIDGE_WEBHOOK_URL, and the box-wide receiver
// `qbridge serve` recorded: box-receiver.ts), put in the ledger's outbox. It runs as
// the transition's "committed" step, which rides in the undo journal: a writer killed between
// its commit and this step has it done by whoever finishes its journal, so no transition is
// lost, and the outbox takes each key and URL once, so none is owed twice.

import { readFileSync } from "node:fs";
import type { Committed } from "../box/commit.ts";
import type { Core } from "../questions/core.ts";
import { questionOutcome } from "../questions/outcome.ts";
import { loadQuestion, locateQuestion } from "../questions/store.ts";
import { recordedBoxReceiver } from "./box-receiver.ts";
import { enqueueDelivery } from "./outbox.ts";

const OWED_ACTIONS = new Set(["answer", "dismiss", "expire", "withdraw"]);

function mayHaveCallback(core: Core, id: string): boolean {
  try {
    return readFileSync(core.box.paths.abs(locateQuestion(core, id)), "utf8").includes("callback");
  } catch {
    return true;
  }
}

/** The box-wide receivers: this process's own setting and the one serve recorded. */
function boxWide(core: Core): string[] {
  const urls = [core.webhooks?.url, recordedBoxReceiver(core.ledger)];
  return urls.filter((u): u is string => u !== undefined);
}

/** The receivers of a question's outcomes: its callback, then the box-wide URLs. */
function receivers(callback: string | undefined, everyQuestion: string[]): string[] {
  const urls = [callback, ...everyQuestion].filter((u): u is string => u !== undefined);
  return [...new Set(urls)];
}

/** Owes the outcome of the transition `record` describes; never fails the transition. */
export function oweWebhooks(core: Core): Committed {
  return (_commit, record) => {
    const id = record.questionId;
    if (typeof id !== "string" || !OWED_ACTIONS.has(String(record.action))) return;
    try {
      // Without a box-wide URL only a card's own callback is owed: skip the parse when the
      // card has none (every transition passes here).
      const everyQuestion = boxWide(core);
      if (everyQuestion.length === 0 && !mayHaveCallback(core, id)) return;
      const loaded = loadQuestion(core, id);
      const urls = receivers(loaded.card.callback, everyQuestion);
      if (urls.length === 0) return;
      const outcome = questionOutcome(loaded, { now: core.box.clock.now() });
      const body = JSON.stringify(outcome);
      for (const url of urls) {
        enqueueDelivery(core.ledger, {
          key: `${id}:${outcome.status}`,
          url,
          body,
          createdAt: core.box.clock.iso(),
          nextTryAt: Date.now(),
        });
      }
    } catch {
      // The commit holds the change; an outbox that cannot be written loses the webhook only.
    }
  };
}
