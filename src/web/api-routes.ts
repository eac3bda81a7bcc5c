// The JSON API for agents under /api/v1, behind `Authorization: Bearer $QBRIDGE_API_TOKEN`.
// Without a configured token the API is off and says so. Asking, answering and dismissing go
// through the same core as the CLI (`via: api`); errors are mapped in api-errors.ts only.

import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { STATUSES } from "../card/question.ts";
import { answerQuestion } from "../questions/answer.ts";
import { askWithReply } from "../questions/ask-reply.ts";
import { dismissQuestion } from "../questions/close.ts";
import { extendQuestion } from "../questions/extend.ts";
import { markJobDone, readJob } from "../questions/job-done.ts";
import { type OutcomeLink, questionOutcome } from "../questions/outcome.ts";
import { questionIdOf } from "../questions/question-ids.ts";
import { boxState, pendingQuestions, questionsWithStatus } from "../questions/state.ts";
import { boxStats } from "../questions/stats/box-stats.ts";
import { loadQuestion } from "../questions/store.ts";
import { settleBeforeListing } from "../questions/transition.ts";
import { waitForQuestion } from "../questions/waiter.ts";
import { withdrawQuestion } from "../questions/withdraw.ts";
import { heldUntilOf } from "../slot/attention/held-until.ts";
import {
  AnswerBody,
  BodyProblem,
  DismissBody,
  ExtendBody,
  isTrue,
  jsonBody,
  parsed,
  StatusQuery,
  WithdrawBody,
  waitSeconds,
} from "./api-bodies.ts";
import { failure, failureOf } from "./api-errors.ts";
import { requireBearer, sendFailure } from "./bearer.ts";
import { announce, type WebDeps } from "./deps.ts";
import { linkUrl } from "./links.ts";

export const API_BODY_LIMIT_BYTES = 64 * 1024;

const send = sendFailure;

export function apiRoutes(deps: WebDeps): Hono {
  const api = new Hono();
  const { core } = deps;
  const token = deps.config.apiToken;
  const heldUntil = heldUntilOf(core, deps.config.attention);
  const link: OutcomeLink = (id) =>
    linkUrl(deps.config.web.publicUrl, deps.secret, { question: id }, core.box.clock.now());

  api.use("*", requireBearer(token));

  api.use(
    "*",
    bodyLimit({
      maxSize: API_BODY_LIMIT_BYTES,
      onError: (c) =>
        send(
          c,
          failure(
            413,
            "BodyTooLarge",
            `the body is over the ${API_BODY_LIMIT_BYTES / 1024} KiB limit`,
          ),
        ),
    }),
  );

  api.onError((error, c) => {
    if (error instanceof BodyProblem) return send(c, error.fail);
    const fail = failureOf(error);
    if (fail.status >= 500)
      deps.logger?.error({ err: error, path: c.req.path }, "an API request failed");
    return send(c, fail);
  });

  api.post("/questions", async (c) => {
    const body = await jsonBody(c);
    let input = body;
    let unlessOpen = isTrue(c.req.query("unless_open"));
    if (body && typeof body === "object" && !Array.isArray(body) && "unless_open" in body) {
      const { unless_open, ...rest } = body as Record<string, unknown>;
      unlessOpen ||= isTrue(unless_open);
      input = rest;
    }
    const context = { timeZone: deps.config, heldUntil };
    const reply = await askWithReply(core, context, input, { unlessOpen, via: "api" });
    if (reply.deduplicated) return c.json(reply, 200);
    c.header("Location", `/api/v1/questions/${encodeURIComponent(reply.id)}`);
    return c.json(reply, 201);
  });

  // Stop-asking signals and responsiveness, as `qbridge stats --json` prints them.
  api.get("/stats", (c) => c.json(boxStats(core, deps.config.timeZone)));

  api.get("/questions", async (c) => {
    await settleBeforeListing(core);
    const status = StatusQuery.safeParse(c.req.query("status") || undefined);
    if (!status.success) {
      return send(
        c,
        failure(400, "BadStatus", `status must be one of ${[...STATUSES, "all"].join(", ")}`),
      );
    }
    if (status.data === "all") {
      const state = boxState(core);
      return c.json({
        questions: [...state.pending, ...state.archive],
        unreadable: state.unreadable,
      });
    }
    if (status.data === "pending") {
      const { pending, unreadable } = pendingQuestions(core);
      return c.json({ questions: pending, unreadable });
    }
    return c.json({ questions: questionsWithStatus(core, status.data) });
  });

  // The outcome's fields at the top level, beside the card and its path as before.
  api.get("/questions/:id", async (c) => {
    const id = questionIdOf(core, c.req.param("id"));
    const seconds = waitSeconds(c.req.query("wait"));
    // Also without a wait: a decided card is confirmed under its lock, so a write left half done
    // by a killed process is never reported as an outcome (it may yet be undone).
    const { rel, card } = await waitForQuestion(core, id, seconds, { signal: c.req.raw.signal });
    const outcome = questionOutcome({ id, card }, { now: core.box.clock.now(), link, heldUntil });
    return c.json({ ...outcome, rel, card });
  });

  // The follow-up job an answer wrote, as `qbridge jobs --json` lists it: an agent that reaches
  // the box only through the API must still be able to read what the answer asks of it.
  api.get("/questions/:id/job", async (c) => {
    const id = questionIdOf(core, c.req.param("id"));
    const read = await readJob(core, id);
    if ("missing" in read) return send(c, failure(404, "JobNotFound", read.missing));
    const { found } = read;
    if (found.error) {
      return send(
        c,
        failure(500, "JobUnreadable", `${found.rel} cannot be read as a job: ${found.error}`),
      );
    }
    return c.json(found);
  });

  api.post("/questions/:id/job/done", async (c) => {
    return c.json(await markJobDone(core, questionIdOf(core, c.req.param("id"))));
  });

  api.post("/questions/:id/answer", async (c) => {
    const id = questionIdOf(core, c.req.param("id"));
    const body = parsed(AnswerBody, await jsonBody(c));
    const result = await answerQuestion(
      core,
      id,
      { text: body.answer, note: body.note },
      { via: "api", by: body.by },
    );
    await announce(deps, { id, action: "answered", via: "api" });
    return c.json(result);
  });

  api.post("/questions/:id/dismiss", async (c) => {
    const id = questionIdOf(core, c.req.param("id"));
    parsed(DismissBody, await jsonBody(c));
    const result = await dismissQuestion(core, id, { via: "api" });
    await announce(deps, { id, action: "dismissed", via: "api" });
    return c.json(result);
  });

  // More time before a pending question expires: `expires-after` rewritten, one commit.
  api.post("/questions/:id/extend", async (c) => {
    const id = questionIdOf(core, c.req.param("id"));
    const body = parsed(ExtendBody, await jsonBody(c));
    const result = await extendQuestion(core, id, body.duration, { via: "api", by: body.by });
    await announce(deps, { id, action: "extended", via: "api" });
    return c.json(result);
  });

  // The asker takes its question back; answers the outcome (status withdrawn) and the commit.
  api.post("/questions/:id/withdraw", async (c) => {
    const id = questionIdOf(core, c.req.param("id"));
    const body = parsed(WithdrawBody, await jsonBody(c));
    const result = await withdrawQuestion(
      core,
      id,
      { via: "api", by: body.by },
      { reason: body.reason },
    );
    await announce(deps, { id, action: "withdrawn", via: "api" });
    const { card } = loadQuestion(core, id);
    const outcome = questionOutcome({ id, card }, { now: core.box.clock.now(), link });
    return c.json({ ...outcome, commit: result.commit });
  });

  return api;
}
