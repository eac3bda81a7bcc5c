// Marking a follow-up job done: step 3 of every job. One committed rewrite of the job's
// `status` (and `done-at`) under the question's lock, so an agent that reaches the box only
// through the CLI, the API or MCP can close its job without editing files and running git.

import { applyAndCommit } from "../box/commit.ts";
import { rewriteCardText } from "../card/codec.ts";
import { CardUnreadable, InvalidInput } from "../errors.ts";
import type { Core } from "./core.ts";
import { type JobView, jobOf, readJobText } from "./state.ts";
import { loadQuestion } from "./store.ts";
import { settleQuestion, withQuestionLock } from "./transition.ts";

export interface JobDone {
  id: string;
  rel: string;
  doneAt: string;
  /** The commit, or null when the job was already done (nothing written). */
  commit: string | null;
}

/**
 * The follow-up job of question `id` for an agent to read, once a write of it a killed process
 * left half done is settled (a job about to be undone is never handed out); or why it has none.
 */
export async function readJob(
  core: Core,
  id: string,
): Promise<{ found: JobView } | { missing: string }> {
  await settleQuestion(core, id);
  const { card } = loadQuestion(core, id);
  const found = jobOf(core, id);
  if (found) return { found };
  return {
    missing: `question "${id}" has no follow-up job: it is ${card.status}, and a job is written only when it is answered`,
  };
}

export async function markJobDone(core: Core, id: string): Promise<JobDone> {
  return withQuestionLock(core, id, async () => {
    const { card } = loadQuestion(core, id);
    const found = jobOf(core, id);
    if (!found) {
      throw new InvalidInput(
        `question "${id}" has no follow-up job to mark done: it is ${card.status}, and a job is written only when it is answered`,
      );
    }
    if (found.error || !found.job) {
      throw new CardUnreadable(found.rel, found.error ?? "not a follow-up job");
    }
    const previous = found.job["done-at"];
    if (found.job.status === "done") {
      return {
        id,
        rel: found.rel,
        doneAt: typeof previous === "string" ? previous : "",
        commit: null,
      };
    }
    const doneAt = core.box.clock.iso();
    const text = readJobText(core, found.rel);
    const content = rewriteCardText(text, { status: "done", "done-at": doneAt });
    const commit = await applyAndCommit(core.box, id, {
      writes: [{ rel: found.rel, content }],
      message: `job done: ${found.job.prompt.replace(/\s+/g, " ").slice(0, 60)}`,
      trailers: { Question: id },
    });
    return { id, rel: found.rel, doneAt, commit };
  });
}
