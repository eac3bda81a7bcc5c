// The box commands: init, ask, list, show, answer, dismiss, age, waiting, jobs.

import type { Command } from "commander";
import { initBox } from "../box/box.ts";
import { INPUT_TYPES } from "../card/inputs/registry.ts";
import { listJobs, pendingQuestions } from "../questions/state.ts";
import type { AskCommandOptions } from "./ask-command.ts";
import { type CommonOptions, configFor, printJson, progress, withCore } from "./context.ts";
import { registerListCommand, waitingOnMe } from "./list-command.ts";
import { registerOutcomeCommands } from "./outcome-commands.ts";
import { writeErr, writeOut } from "./output.ts";
import { showText } from "./render.ts";
import { settleBeforeListing } from "./settled.ts";

/** The modules of the commands that change the box, on first use (box-changes.ts). */
const changes = () => import("./box-changes.ts");

function common(command: Command): Command {
  return command
    .option("--box <dir>", "the box directory (default: $QBRIDGE_BOX or ./box)")
    .option("--json", "print machine-readable JSON");
}

export function registerQuestionCommands(program: Command): void {
  registerInit(program);
  registerAsk(program);
  registerListCommand(program, common);
  registerOutcomeCommands(program, common);
  registerAnswer(program);
  registerDismiss(program);
  registerAge(program);
  registerWaiting(program);
  registerJobs(program);
}

function registerInit(program: Command): void {
  common(program.command("init"))
    .description("make a box: a git repository with _bookkeeping/questions/ and _bookkeeping/jobs/")
    .action(initAction);
}

/** Makes what is missing of the box and prints what it made, or that it was a box already. */
async function initAction(options: CommonOptions): Promise<void> {
  const config = configFor(options);
  const done = await initBox(config.boxDir);
  if (options.json) return printJson({ box: config.boxDir, done });
  writeOut(
    done.length
      ? `${config.boxDir}: ${done.join(", ")}\n`
      : `${config.boxDir} is already a box; nothing to do\n`,
  );
}

function registerAsk(program: Command): void {
  common(program.command("ask"))
    .description(
      "file a question (flags, or one JSON card on standard input when --prompt is not given)",
    )
    .option("--prompt <text>", "the question itself")
    .option("--memo <text>", "why you ask: enough to answer without looking anything up")
    .option("--type <type>", `${INPUT_TYPES.join(", ")} (default: select with --option, else text)`)
    .option(
      "--option <choice>",
      'an option, "id=Label" or "Label" (repeat; select and multiselect only)',
      collect,
      [],
    )
    .option("--directive <text>", "what the answer unblocks")
    .option("--learning-sink <sink>", "where the learning goes: guide, briefing or personality")
    .option("--learning-ref <ref>", "the card the learning is recorded in (optional)")
    .option("--proposal <text>", "what the box will learn from the answer")
    .option("--context <ref>", 'material to read, "ref" or "ref=text" (repeat)', collect, [])
    .option(
      "--expires-after <duration>",
      "ISO-8601 duration overriding the 30-day expiry, e.g. P7D",
    )
    .option("--priority <level>", "high, medium or low (default medium)")
    .option(
      "--recommended <option>",
      "the option you recommend: its id or its label (yes or no for confirm)",
    )
    .option("--while-waiting <text>", "the safe action while no answer exists")
    .option("--irreversible", "the directive cannot be undone: a tap must be confirmed")
    .option("--task <id>", "an id of the asking system's task (repeat)", collect, [])
    .option("--asked-by <name>", "who asks (an agent's name)")
    .option("--id <id>", "the question id (default: date, prompt words and a random suffix)")
    .option("--unless-open", "file nothing when an open question has the same prompt; print its id")
    .option(
      "--callback <url>",
      "POST the outcome here on each change (signed; needs QBRIDGE_WEBHOOK_SECRET; docs/AGENTS.md)",
    )
    .addHelpText(
      "after",
      `
With a JSON card on standard input, the flags beside it that set one field (--priority, --id,
--asked-by, --expires-after, --task, --type, ...) are set on the card, over its own value.

Examples:
  qbridge ask --prompt "Where do receipts go?" --memo "A receipt arrived at intake." \\
    --option finance=Finance --option taxes=Taxes --directive "Move the receipt there."
  echo '{"prompt":"Delete old backups?","memo":"Disk is full.","input":{"type":"confirm"},"directive":"Delete them."}' | qbridge ask --json`,
    )
    .action(async (options: AskCommandOptions) =>
      (await import("./ask-command.ts")).askCommand(options),
    );
}

function registerAnswer(program: Command): void {
  common(
    program
      .command("answer")
      .argument("<id>", "the question id")
      .argument("<answer>", "the answer"),
  )
    .description(
      'answer a question: a letter, label or option id; several separated by commas ("a, c"); yes/no; or text',
    )
    .option("--note <text>", "a note with the answer (the own words for an 'other' option)")
    .addHelpText(
      "after",
      `
Examples:
  qbridge answer 2026-07-10-where-do-receipts-go-3fa2c1 b
  qbridge answer 2026-07-10-where-do-receipts-go-3fa2c1 Finance --note "only the paper ones"
  qbridge answer 2026-07-10-delete-old-backups-91bc07 yes`,
    )
    .action(answerAction);
}

/** Records the answer through the core and says whether a follow-up job was written. */
async function answerAction(
  id: string,
  answer: string,
  options: CommonOptions & { note?: string },
): Promise<void> {
  const { answerQuestion } = await changes();
  await withCore(options, async (core) => {
    const result = await answerQuestion(
      core,
      id,
      { text: answer, note: options.note },
      { via: "cli" },
    );
    if (options.json) return printJson(result);
    writeOut(
      result.jobRel
        ? `answered ${id}: ${result.answer.text}\nfollow-up job: ${result.jobRel}\n`
        : `answered ${id}: ${result.answer.text}\nthe waiting agent reads the answer (no follow-up job)\n`,
    );
  });
}

function registerDismiss(program: Command): void {
  common(program.command("dismiss").argument("<id>", "the question id"))
    .description("dismiss a pending question (it stays answerable later)")
    .action(dismissAction);
}

/** Dismisses the question through the core; it stays answerable. */
async function dismissAction(id: string, options: CommonOptions): Promise<void> {
  const { dismissQuestion } = await changes();
  await withCore(options, async (core) => {
    const result = await dismissQuestion(core, id, { via: "cli" });
    if (options.json) return printJson(result);
    writeOut(`dismissed ${id}\n`);
  });
}

function registerAge(program: Command): void {
  common(program.command("age"))
    .description("run the aging sweep once: expire questions past their time, report nudges due")
    .action(ageAction);
}

/** Runs one aging sweep and reports what expired and which nudges are due (serve sends them). */
async function ageAction(options: CommonOptions): Promise<void> {
  const { ageQuestions } = await changes();
  await withCore(options, async (core) => {
    const report = await ageQuestions(core, {
      onProgress: options.json ? undefined : progress("aging"),
    });
    if (options.json) return printJson(report);
    writeOut(
      `checked ${report.checked} pending; expired ${report.expired.length}; nudges due ${report.nudgeDue.length} (sent by qbridge serve)\n`,
    );
    for (const id of report.expired) writeOut(`expired ${id}\n`);
    for (const id of report.nudgeDue) writeOut(`nudge due ${id}\n`);
  });
}

function registerWaiting(program: Command): void {
  common(program.command("waiting"))
    .description("what is waiting on me: the count and the top question alone")
    .action(waitingAction);
}

/** Prints the count waiting and the top question alone, after settling a half-done write. */
async function waitingAction(options: CommonOptions): Promise<void> {
  await withCore(options, async (core) => {
    await settleBeforeListing(core);
    const { count, top, pastDeadline } = waitingOnMe(core, pendingQuestions(core).pending);
    if (options.json) return printJson({ count, top: top ?? null });
    if (pastDeadline > 0) {
      writeErr(
        `note: ${pastDeadline} past its deadline and not counted: "qbridge age" (or a running serve) expires it\n`,
      );
    }
    if (!top)
      return void writeOut(
        count ? `${count} waiting, all put off until later\n` : "nothing is waiting on you\n",
      );
    writeOut(`${count} waiting. Top:\n\n${showText(top)}`);
  });
}

function registerJobs(program: Command): void {
  common(program.command("jobs"))
    .description("list follow-up jobs written by answers")
    .action(jobsAction);
}

/** Lists the follow-up jobs (an unreadable one with its error), after settling a half-done write. */
async function jobsAction(options: CommonOptions): Promise<void> {
  await withCore(options, async (core) => {
    await settleBeforeListing(core);
    const jobs = listJobs(core);
    if (options.json) return printJson(jobs);
    if (jobs.length === 0) return void writeOut("no follow-up jobs\n");
    for (const { rel, job, error } of jobs) {
      writeOut(
        job
          ? `${rel}  [${job.status}]  ${job["question-id"]} → ${job.answer.text}\n`
          : `${rel}  unreadable: ${error}\n`,
      );
    }
  });
}

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}
