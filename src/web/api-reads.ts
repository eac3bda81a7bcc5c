// The API's reading routes: the list, one question (optionally waiting for its answer), the
// follow-up job an answer wrote and marking it done, and the box's stats. Reading never changes
// the box, except `job/done`, the job's own last step.

import type { Context } from "hono";
import { questionFingerprint } from "../card/fingerprint.ts";
import { STATUSES } from "../card/question.ts";
import { markJobDone, readJob } from "../questions/job-done.ts";
import { questionOutcome } from "../questions/outcome.ts";
import { boxState, pendingQuestions, questionsWithStatus } from "../questions/state.ts";
import { boxStats } from "../questions/stats/box-stats.ts";
import { settleBeforeListing } from "../questions/transition.ts";
import { waitForQuestion } from "../questions/waiter.ts";
import { StatusQuery, waitSeconds } from "./api-bodies.ts";
import { type ApiContext, maskedJson, routeQuestionId } from "./api-context.ts";
import { failure } from "./api-errors.ts";
import { sendFailure } from "./bearer.ts";

/** `GET /questions[?status=]`: pending by default, any status, or all. */
export const listQuestions = (api: ApiContext) => async (c: Context) => {
  const { core } = api;
  await settleBeforeListing(core);
  const status = StatusQuery.safeParse(c.req.query("status") || undefined);
  if (!status.success) {
    return sendFailure(
      c,
      failure(400, "BadStatus", `status must be one of ${[...STATUSES, "all"].join(", ")}`),
    );
  }
  if (status.data === "all") {
    const state = boxState(core);
    return maskedJson(c, {
      questions: [...state.pending, ...state.archive],
      unreadable: state.unreadable,
    });
  }
  if (status.data === "pending") {
    const { pending, unreadable } = pendingQuestions(core);
    return maskedJson(c, { questions: pending, unreadable });
  }
  return maskedJson(c, { questions: questionsWithStatus(core, status.data) });
};

/** `GET /questions/:id[?wait=]`: the outcome's fields at the top level, beside the card and its
 * path as before; the card's version (its fingerprint) as the ETag an answer's If-Match names. */
export const readQuestion = (api: ApiContext) => async (c: Context) => {
  const { core, link, heldUntil } = api;
  const id = routeQuestionId(api, c);
  const seconds = waitSeconds(c.req.query("wait"));
  // Also without a wait: a decided card is confirmed under its lock, so a write left half done
  // by a killed process is never reported as an outcome (it may yet be undone).
  const { rel, card } = await waitForQuestion(core, id, seconds, { signal: c.req.raw.signal });
  const outcome = questionOutcome({ id, card }, { now: core.box.clock.now(), link, heldUntil });
  c.header("ETag", `"${questionFingerprint(card)}"`);
  return maskedJson(c, { ...outcome, rel, card });
};

/** `GET /questions/:id/job`: the follow-up job an answer wrote, as `qbridge jobs --json` lists
 * it: an agent that reaches the box only through the API must still read what it asks. */
export const readFollowUpJob = (api: ApiContext) => async (c: Context) => {
  const read = await readJob(api.core, routeQuestionId(api, c));
  if ("missing" in read) return sendFailure(c, failure(404, "JobNotFound", read.missing));
  const { found } = read;
  if (found.error) {
    return sendFailure(
      c,
      failure(500, "JobUnreadable", `${found.rel} cannot be read as a job: ${found.error}`),
    );
  }
  return c.json(found);
};

/** `POST /questions/:id/job/done`: the job's last step, one commit (none when done already). */
export const markFollowUpJobDone = (api: ApiContext) => async (c: Context) =>
  c.json(await markJobDone(api.core, routeQuestionId(api, c)));

/** `GET /stats`: stop-asking signals and responsiveness, as `qbridge stats --json` prints them. */
export const readStats = (api: ApiContext) => (c: Context) =>
  c.json(boxStats(api.core, api.deps.config.timeZone));
