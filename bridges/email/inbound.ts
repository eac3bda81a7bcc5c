// A message read from the mailbox, translated and rendered. The boxholder's reply to the e-mail
// that showed a question becomes a typed-text attempt for the judge (its first line, as typed
// on Telegram); what comes of it is answered in one short e-mail in the thread. Anything else
// changes nothing and is audited: a sender who is not the paired address (told once, unless the
// receiving server failed their domain: a forged From is never written to), a reply tied to no
// e-mail that showed a question, a machine's message. Each message is handled once, by its
// Message-ID, also when the mailbox hands it over again.

import type { Judge, Outcome, Slot } from "../../src/slot/port.ts";
import { confirmNote, replyNote, STRANGER_NOTE } from "./notes.ts";
import type { Sender, Thread } from "./outgoing.ts";
import { pairFromReply } from "./pairing.ts";
import { SURFACE } from "./presenter.ts";
import { type Reply, readReply } from "./reply.ts";

export interface InboundDeps {
  slot: Slot;
  judge: Judge;
  sender: Sender;
  owner: () => string | undefined;
}

export const UNTIED_NOTE =
  "Not recorded: your e-mail does not reply to an e-mail that showed a question. Reply to the question's own e-mail (its first line is read).";

/** The thread a note answering `reply` belongs in. */
function answering(reply: Reply): Thread | undefined {
  const inReplyTo = reply.messageId ?? reply.answers[0];
  if (!inReplyTo) return undefined;
  return { inReplyTo, references: [...reply.answers].reverse() };
}

function auditRefused(deps: InboundDeps, reply: Reply, detail: string, once: boolean): boolean {
  return deps.judge.refuseStranger({
    surface: SURFACE,
    chatId: reply.from ?? "unknown",
    once,
    actor: reply.from,
    action: "reply",
    verbatim: reply.words.slice(0, 500),
    detail,
  });
}

/** Handles one message from the mailbox to its end (the judge's record and the answer sent). */
export async function handleMessage(deps: InboundDeps, uid: number, raw: Buffer): Promise<void> {
  const reply = await readReply(raw);
  const key = `email:${reply.messageId ?? `uid ${uid}`}`;
  if (deps.judge.handledBefore(key)) return;
  await decide(deps, reply);
  deps.judge.handled(key);
}

async function decide(deps: InboundDeps, reply: Reply): Promise<void> {
  const { slot, judge, sender } = deps;
  if (reply.automatic) {
    auditRefused(deps, reply, "an automatic message (auto-reply or bounce): not read", false);
    return;
  }
  if (reply.authFailed) {
    const why = `the receiving server failed the sender's domain (${reply.authFailed}): a forged From?`;
    auditRefused(deps, reply, why, false);
    return;
  }
  const owner = deps.owner();
  if (reply.from === undefined || reply.from !== owner) {
    if (await pairFromReply(deps, reply)) return;
    const first = auditRefused(
      deps,
      reply,
      "a reply from an address that is not the boxholder's",
      true,
    );
    if (first && reply.from)
      await sender.send(reply.from, replyNote("your e-mail", STRANGER_NOTE), answering(reply));
    return;
  }
  if (slot.heard(SURFACE)) await slot.fill();
  const tied = reply.answers.find((id) => judge.quoted(SURFACE, owner, id) !== undefined);
  if (!tied) {
    auditRefused(
      deps,
      reply,
      "a reply tied to no e-mail that showed a question (In-Reply-To, References)",
      false,
    );
    await sender.send(owner, replyNote("your e-mail", UNTIED_NOTE), answering(reply));
    return;
  }
  await judge.attempt(
    {
      kind: "text",
      surface: SURFACE,
      actor: { id: owner, boxholder: true },
      text: reply.firstLine,
      chatId: owner,
      replyTo: reply.answers[0],
    },
    (outcome) => answer(deps, reply, owner, outcome),
  );
}

/** Answers the reply in its thread: what to confirm, or what came of it. */
async function answer(deps: InboundDeps, reply: Reply, owner: string, outcome: Outcome) {
  const { judge, sender } = deps;
  const prompt = outcome.card?.prompt ?? "your reply";
  const thread = answering(reply);
  const { confirm } = outcome;
  if (outcome.kind === "needs-confirmation" && confirm) {
    // The yes that confirms it is a reply to this e-mail; the judge keeps what it confirms.
    const specs = [
      { action: "confirm" as const, label: confirm.text },
      { action: "back" as const, label: confirm.text },
    ];
    await judge.withButtons(confirm.owner, owner, specs, () =>
      sender.send(owner, confirmNote(prompt, outcome.reply), thread),
    );
    return;
  }
  await sender.send(
    owner,
    replyNote(prompt, lineFor(outcome), openNow(deps.slot, outcome)),
    thread,
  );
}

function lineFor(outcome: Outcome): string {
  if (outcome.answer && (outcome.kind === "recorded" || outcome.kind === "replayed")) {
    return `Recorded: ${outcome.answer.text}`;
  }
  return outcome.reply;
}

/** After a reply that came too late: what is open now, so the next reply goes there. */
function openNow(slot: Slot, outcome: Outcome): string | undefined {
  if (outcome.reason !== "late" && outcome.reason !== "nothing-open") return undefined;
  const { top, presented } = slot.waiting();
  if (!top) return "Nothing else is waiting on you.";
  return `${presented ? "Open now" : "Next"}: ${top.card.prompt}`;
}
