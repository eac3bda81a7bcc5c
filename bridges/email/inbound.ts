// A message read from the mailbox, translated and rendered. Every reply from an address is a
// typed-text attempt for the judge (its first line, as typed on Telegram) with what it shows of
// its sender as the proof: the address and the e-mail of ours it answers. The judge decides who
// that is (the paired address replying to an e-mail that showed a question is the boxholder)
// and audits what it refuses; what comes of it is answered in one short e-mail in the thread (a
// stranger once). A machine's message, or one whose sender's domain the receiving server failed
// (a forged From is never written to), is no attempt: audited, never answered. Each message is
// handled once, by its Message-ID, also when the mailbox hands it over again.

import type { Door, Outcome, Proof } from "../../src/slot/port.ts";
import { confirmNote, replyNote, STRANGER_NOTE } from "./notes.ts";
import type { Sender, Thread } from "./outgoing.ts";
import { pairFromReply } from "./pairing.ts";
import { type Reply, readReply } from "./reply.ts";

export interface InboundDeps {
  door: Door;
  sender: Sender;
}

export const UNTIED_NOTE =
  "Not recorded: your e-mail does not reply to an e-mail that showed a question. Reply to the question's own e-mail (its first line is read).";

/** The thread a note answering `reply` belongs in. */
function answering(reply: Reply): Thread | undefined {
  const inReplyTo = reply.messageId ?? reply.answers[0];
  if (!inReplyTo) return undefined;
  return { inReplyTo, references: [...reply.answers].reverse() };
}

/** Audits a message that is no attempt (a machine's, one the receiving server failed). */
function auditRefused(deps: InboundDeps, reply: Reply, detail: string): void {
  deps.door.refuseStranger({
    chatId: reply.from ?? "unknown",
    once: false,
    actor: reply.from,
    action: "reply",
    verbatim: reply.words.slice(0, 500),
    detail,
  });
}

/**
 * What the reply shows of its sender, for the judge: the address, and the e-mail of ours it
 * answers that showed a question in their thread (the nearest in In-Reply-To, then References;
 * a reply to our confirming e-mail names the question's there), else its In-Reply-To as it is.
 */
export function proofOf(door: Door, reply: Reply & { from: string }): Proof {
  const shown = reply.answers.find((id) => door.quoted(reply.from, id) !== undefined);
  return { kind: "address", sender: reply.from, inReplyTo: shown ?? reply.answers[0] };
}

/** Handles one message from the mailbox to its end (the judge's record and the answer sent). */
export async function handleMessage(deps: InboundDeps, uid: number, raw: Buffer): Promise<void> {
  const reply = await readReply(raw);
  const key = `email:${reply.messageId ?? `uid ${uid}`}`;
  if (deps.door.handledBefore(key)) return;
  await decide(deps, reply);
  deps.door.handled(key);
}

async function decide(deps: InboundDeps, reply: Reply): Promise<void> {
  const { door } = deps;
  if (reply.automatic) {
    auditRefused(deps, reply, "an automatic message (auto-reply or bounce): not read");
    return;
  }
  if (reply.authFailed) {
    const why = `the receiving server failed the sender's domain (${reply.authFailed}): a forged From?`;
    auditRefused(deps, reply, why);
    return;
  }
  const from = reply.from;
  if (from === undefined) {
    auditRefused(deps, reply, "a message that names no sender");
    return;
  }
  if (await pairFromReply(deps, reply)) return;
  const proof = proofOf(door, { ...reply, from });
  if (door.heard(proof)) await door.fill();
  await door.attempt(
    {
      kind: "text",
      proof,
      text: reply.firstLine,
      chatId: from,
      // The e-mail it answers (the question's, or our confirming e-mail's or a note's), and
      // the question's e-mail in its thread: a reply to a note there is never for another.
      replyTo: reply.answers[0],
      thread: proof.kind === "address" ? proof.inReplyTo : undefined,
    },
    (outcome) => answer(deps, { ...reply, from }, outcome),
  );
}

/** A reply the judge refused for who sent it: the paired address is told how to reply; a stranger once. */
async function answerStranger(deps: InboundDeps, reply: Reply & { from: string }): Promise<void> {
  const { door, sender } = deps;
  if (reply.from === door.owner()) {
    await sender.send(reply.from, replyNote("your e-mail", UNTIED_NOTE), answering(reply));
  } else if (door.refuseOnce(reply.from)) {
    await sender.send(reply.from, replyNote("your e-mail", STRANGER_NOTE), answering(reply));
  }
}

/** Answers the reply in its thread: what to confirm, or what came of it. */
async function answer(deps: InboundDeps, reply: Reply & { from: string }, outcome: Outcome) {
  const { door, sender } = deps;
  if (outcome.reason === "stranger") return answerStranger(deps, reply);
  const prompt = outcome.card?.prompt ?? "your reply";
  const thread = answering(reply);
  const { confirm } = outcome;
  if (outcome.kind === "needs-confirmation" && confirm) {
    // The yes that confirms it is a reply to this e-mail; the judge keeps what it confirms.
    const specs = [
      { action: "confirm" as const, label: confirm.text },
      { action: "back" as const, label: confirm.text },
    ];
    await door.withButtons(confirm.owner, reply.from, specs, () =>
      sender.send(reply.from, confirmNote(prompt, outcome.reply), thread),
    );
    return;
  }
  await sender.send(
    reply.from,
    replyNote(prompt, lineFor(outcome), openNow(door, outcome)),
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
function openNow(door: Door, outcome: Outcome): string | undefined {
  if (outcome.reason !== "late" && outcome.reason !== "nothing-open") return undefined;
  const { top, presented } = door.waiting();
  if (!top) return "Nothing else is waiting on you.";
  return `${presented ? "Open now" : "Next"}: ${top.card.prompt}`;
}
