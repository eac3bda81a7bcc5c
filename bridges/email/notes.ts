// The short e-mails besides a question: what closed a question shown by e-mail (answered
// elsewhere, withdrawn...), the answer to a reply (recorded, refused, what to confirm), a nudge,
// the questions that expired, and the pairing code. Plain text, one or two sentences each: an
// e-mail client shows them as they are, so nothing here is markup and nothing needs escaping.

import type { Closure } from "../../src/slot/port.ts";
import { flat, subjectOf } from "./compose.ts";

/** A plain-text e-mail: the subject and the body. */
export interface Note {
  subject: string;
  text: string;
}

function upperFirst(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** "Re: <prompt>": the subject of an e-mail in a question's thread. */
export function threadSubject(prompt: string): string {
  return subjectOf(`Re: ${flat(prompt)}`);
}

/** What closed a question shown by e-mail, told in its thread: "Answered via telegram: Finance." */
export function closureNote(prompt: string, closure: Omit<Closure, "card">): Note {
  const text = `${upperFirst(closure.text)}.`;
  return {
    subject: threadSubject(prompt),
    text: `${text}\n\nA reply to the e-mail above records nothing now.`,
  };
}

/** The answer to a reply: one line of what came of it (recorded, refused, why). */
export function replyNote(prompt: string, line: string, more?: string): Note {
  return { subject: threadSubject(prompt), text: more ? `${line}\n\n${more}` : line };
}

/** Asked before recording an irreversible answer or a lone character: reply yes to record it. */
export function confirmNote(prompt: string, question: string): Note {
  return {
    subject: threadSubject(prompt),
    text: `${question}\n\nReply yes to this e-mail to record it, or no to leave the question open.`,
  };
}

export function nudgeNote(prompt: string, days: number): Note {
  const age = `${days} day${days === 1 ? "" : "s"}`;
  return {
    subject: threadSubject(prompt),
    text: `This question has waited ${age} for your answer: ${flat(prompt)}\n\nReply to the e-mail that asked it.`,
  };
}

/** One e-mail for the questions that expired unanswered, each with its page when there is one. */
export function expiredNote(
  questions: readonly { id: string; prompt: string; link: string | undefined }[],
): Note {
  const count = questions.length;
  const lines = questions
    .slice(0, 20)
    .map(({ id, prompt, link }) => `- ${flat(prompt)}\n  ${link ?? `(qbridge link ${id})`}`);
  const more = count > 20 ? [`... and ${count - 20} more`] : [];
  return {
    subject: `${count} question${count === 1 ? "" : "s"} expired unanswered`,
    text: [
      `${count === 1 ? "This question" : "These questions"} expired unanswered; ${count === 1 ? "it stays" : "they stay"} answerable on the web:`,
      "",
      ...lines,
      ...more,
    ].join("\n"),
  };
}

/** The pairing e-mail `qbridge pair --email` sends: the code, and how to send it back. */
export function pairingNote(code: string, minutes: number): Note {
  return {
    subject: `Your question-bridge pairing code: ${code}`,
    text: `Reply to this e-mail with the code ${code} on the first line to receive your questions at this address.\n\nThe code works once and for ${minutes} minutes. If you did not ask for it, ignore this e-mail: nothing changes.`,
  };
}

export const PAIRED_NOTE =
  "Paired: questions will come to this address one at a time. Reply to a question's e-mail to answer it.";

export const STRANGER_NOTE =
  "Sorry, this address answers only its owner's questions. Nothing was recorded. If that is you, run qbridge pair --email with your address on the server and reply with the code.";
