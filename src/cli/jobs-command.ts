// `qbridge jobs`: the follow-up jobs answers wrote.

import type { Command } from "commander";
import { listJobs } from "../questions/state.ts";
import { settleBeforeListing } from "../questions/transition.ts";
import { common } from "./box-options.ts";
import { type CommonOptions, printJson, withCore } from "./context.ts";
import { writeOut } from "./output.ts";

export function registerJobsCommand(program: Command): void {
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
