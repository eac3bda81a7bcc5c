// `qbridge wait ID`: until the question is decided or the timeout ends the wait; prints the one
// outcome shape with --json (src/questions/outcome.ts) and exits with the outcome's code.

import type { Command } from "commander";
import { InvalidInput } from "../errors.ts";
import type { QuestionOutcome } from "../questions/outcome.ts";
import { waitForOutcome } from "../questions/waiter.ts";
import { heldUntilOf } from "../slot/attention/held-until.ts";
import { common } from "./box-options.ts";
import { type CommonOptions, printJson, withCore } from "./context.ts";
import { EXIT, WAIT_EXIT } from "./exit.ts";
import { outcomeLink } from "./outcome-link.ts";
import { writeOut } from "./output.ts";
import { resolveIdArgument } from "./question-ids.ts";

/** "45 s", "5 min", "3 h", "12 days": how long ago a question was asked, for a person. */
function ageWords(seconds: number): string {
  if (seconds < 120) return `${seconds} s`;
  if (seconds < 120 * 60) return `${Math.floor(seconds / 60)} min`;
  if (seconds < 48 * 3600) return `${Math.floor(seconds / 3600)} h`;
  return `${Math.floor(seconds / 86_400)} days`;
}

/**
 * How a wait ended, in words. A pending outcome's `waitedSeconds` is the question's age (asked
 * to now), not how long this wait lasted: the line names both, so `--timeout 1` on an old
 * question does not read as a wait of minutes.
 */
function outcomeLine(outcome: QuestionOutcome, waited: WaitEnd): string {
  switch (outcome.status) {
    case "answered": {
      const note = outcome.answer?.note ? ` (note: ${outcome.answer.note})` : "";
      const late = outcome.late ? " (late)" : "";
      return `answered "${outcome.answer?.text ?? ""}"${note} via ${outcome.answeredVia}${late}`;
    }
    case "pending": {
      const how = waited === "stopped" ? "when the wait was stopped" : `after waiting ${waited} s`;
      return `still pending ${how} (asked ${ageWords(outcome.waitedSeconds)} ago); the question stays open`;
    }
    default:
      return outcome.status;
  }
}

/** What ended a wait that found the question still pending: its timeout, or a signal. */
type WaitEnd = number | "stopped";

function timeoutSeconds(text: string | undefined): number {
  if (text === undefined) return Number.POSITIVE_INFINITY;
  if (!/^\d{1,9}$/.test(text)) {
    throw new InvalidInput(`--timeout takes a whole number of seconds, not "${text}"`);
  }
  return Number(text);
}

/** `qbridge wait ID`: until the question is decided or the timeout ends the wait. */
export async function waitForQuestion(
  id: string,
  options: CommonOptions & { timeout?: string },
): Promise<void> {
  const seconds = timeoutSeconds(options.timeout);
  await withCore(options, async (core, config) => {
    const stop = new AbortController();
    const onSignal = () => stop.abort();
    process.once("SIGINT", onSignal);
    process.once("SIGTERM", onSignal);
    try {
      const outcome = await waitForOutcome(core, id, seconds, {
        signal: stop.signal,
        link: await outcomeLink(core, config),
        heldUntil: heldUntilOf(core, config.attention),
      });
      if (options.json) printJson(outcome);
      else {
        const ended: WaitEnd = stop.signal.aborted ? "stopped" : seconds;
        writeOut(`${id}: ${outcomeLine(outcome, ended)}\n`);
      }
      process.exitCode = WAIT_EXIT[outcome.status];
    } finally {
      process.off("SIGINT", onSignal);
      process.off("SIGTERM", onSignal);
    }
  });
}

export function registerWaitCommand(program: Command): void {
  common(program.command("wait").argument("<id>", "the question id"))
    .description("wait until a question is no longer pending; print its outcome")
    .option("--timeout <seconds>", "stop waiting after this many seconds (default: no limit)")
    .addHelpText(
      "after",
      `
Exit codes: ${WAIT_EXIT.answered} answered, ${WAIT_EXIT.pending} still pending when the timeout ended the wait,
${WAIT_EXIT.dismissed} dismissed, ${WAIT_EXIT.expired} expired (both still answerable, but a wait on them ends at once:
read a late answer later with qbridge show, or ask with --callback), ${WAIT_EXIT.withdrawn} withdrawn;
${EXIT.notFound} no such question; ${EXIT.box} its card is broken (fix the file the message names) or the box is unusable.
A timeout is not an answer: the question stays open.`,
    )
    .hook("preAction", resolveIdArgument)
    .action(waitForQuestion);
}
