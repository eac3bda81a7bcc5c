// The agent's commands: `show` (the question and its outcome), `wait` (until it is decided) and
// `withdraw` (the asker takes it back). Each prints the one outcome shape with --json
// (src/questions/outcome.ts).

import type { Command } from "commander";
import { questionFingerprint } from "../card/fingerprint.ts";
import type { Config } from "../config.ts";
import { InvalidInput } from "../errors.ts";
import type { Core } from "../questions/core.ts";
import { type OutcomeLink, type QuestionOutcome, questionOutcome } from "../questions/outcome.ts";
import { loadQuestion } from "../questions/store.ts";
import { loadCommitted } from "../questions/transition.ts";
import { heldUntilOf } from "../slot/attention/held-until.ts";
import { linkSecretIfAny } from "../web/link-secret.ts";
import { type CommonOptions, printJson, withCore } from "./context.ts";
import { EXIT, WAIT_EXIT } from "./exit.ts";
import { writeOut } from "./output.ts";
import { showText } from "./render.ts";

/**
 * A fresh signed link per outcome, when QBRIDGE_PUBLIC_URL is set. The signing code (and node's
 * crypto with it) is loaded only then: most boxes have no public page.
 */
async function outcomeLink(core: Core, config: Config): Promise<OutcomeLink | undefined> {
  const publicUrl = config.web.publicUrl;
  if (!publicUrl) return undefined;
  const { linkUrl, loadSecret } = await import("../web/links.ts");
  const secret = linkSecretIfAny(() => loadSecret(core.box));
  // A read-only box never served has no key: the outcome goes without a link.
  if (!secret) return undefined;
  // Handed to an asker: the page shows the question and answers nothing.
  return (id) => linkUrl(publicUrl, secret, { question: id, role: "asker" }, core.box.clock.now());
}

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

/** `qbridge show ID`: the question and its outcome. */
export async function showQuestion(id: string, options: CommonOptions): Promise<void> {
  await withCore(options, async (core, config) => {
    // Never a write half done (a killed answer the next writer undoes).
    const question = await loadCommitted(core, id);
    if (!options.json) return void writeOut(showText(question));
    const outcome = questionOutcome(question, {
      now: core.box.clock.now(),
      link: await outcomeLink(core, config),
      heldUntil: heldUntilOf(core, config.attention),
    });
    // `hash`: the version of the card an answer names (answer --expect).
    printJson({
      ...outcome,
      hash: questionFingerprint(question.card),
      rel: question.rel,
      card: question.card,
    });
  });
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
      const { waitForOutcome } = await import("../questions/waiter.ts");
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

export function registerOutcomeCommands(program: Command, common: (c: Command) => Command): void {
  common(program.command("show").argument("<id>", "the question id"))
    .description("show one question: prompt, why, options, what the box will learn, its status")
    .addHelpText(
      "after",
      "\nWith --json: the outcome (docs/AGENTS.md) with the card, its path and its version (rel, card, hash:\nwhat answer --expect names).",
    )
    .action(showQuestion);

  common(program.command("wait").argument("<id>", "the question id"))
    .description("wait until a question is no longer pending; print its outcome")
    .option("--timeout <seconds>", "stop waiting after this many seconds (default: no limit)")
    .addHelpText(
      "after",
      `
Exit codes: ${WAIT_EXIT.answered} answered, ${WAIT_EXIT.pending} still pending when the timeout ended the wait,
${WAIT_EXIT.dismissed} dismissed, ${WAIT_EXIT.expired} expired (both still answerable: wait again), ${WAIT_EXIT.withdrawn} withdrawn;
${EXIT.notFound} no such question; ${EXIT.box} its card is broken (fix the file the message names) or the box is unusable.
A timeout is not an answer: the question stays open.`,
    )
    .action(waitForQuestion);

  common(program.command("withdraw").argument("<id>", "the question id"))
    .description("withdraw a question you asked: it is no longer needed and takes no answer")
    .option("--reason <text>", "why, shown to the boxholder in place of the question")
    .addHelpText(
      "after",
      '\nExample:\n  qbridge withdraw 2026-07-10-delete-old-backups-91bc07 --reason "the disk was cleaned up"',
    )
    .action(async (id: string, options: CommonOptions & { reason?: string }) => {
      await withCore(options, async (core, config) => {
        const { withdrawQuestion } = await import("../questions/withdraw.ts");
        await withdrawQuestion(core, id, { via: "cli" }, { reason: options.reason });
        const outcome = questionOutcome(loadQuestion(core, id), {
          now: core.box.clock.now(),
          link: await outcomeLink(core, config),
        });
        if (options.json) return printJson(outcome);
        writeOut(`withdrawn ${id}\n`);
      });
    });
}
