// The JSON API for agents under /api/v1, behind `Authorization: Bearer $QBRIDGE_API_TOKEN`.
// Without a configured token the API is off and says so. Asking, answering and dismissing go
// through the same core as the CLI (`via: api`); errors are mapped in api-errors.ts only. This
// file is the route table and the gates every route passes; the routes live in api-reads.ts
// and api-changes.ts.

import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { BodyProblem } from "./api-bodies.ts";
import {
  answerOverApi,
  askOverApi,
  dismissOverApi,
  extendOverApi,
  withdrawOverApi,
} from "./api-changes.ts";
import { apiContext } from "./api-context.ts";
import { failure, failureOf } from "./api-errors.ts";
import {
  listQuestions,
  markFollowUpJobDone,
  readFollowUpJob,
  readQuestion,
  readStats,
} from "./api-reads.ts";
import { requireBearer, sendFailure } from "./bearer.ts";
import type { WebDeps } from "./deps.ts";

export const API_BODY_LIMIT_BYTES = 64 * 1024;

const bodyTooLarge = failure(
  413,
  "BodyTooLarge",
  `the body is over the ${API_BODY_LIMIT_BYTES / 1024} KiB limit`,
);

export function apiRoutes(deps: WebDeps): Hono {
  const api = new Hono();
  api.use("*", requireBearer(deps.config.apiToken));
  api.use(
    "*",
    bodyLimit({ maxSize: API_BODY_LIMIT_BYTES, onError: (c) => sendFailure(c, bodyTooLarge) }),
  );
  api.onError((error, c) => {
    if (error instanceof BodyProblem) return sendFailure(c, error.fail);
    const fail = failureOf(error);
    if (fail.status >= 500) {
      deps.logger?.error({ err: error, path: c.req.path }, "an API request failed");
    }
    return sendFailure(c, fail);
  });

  const context = apiContext(deps);
  api.post("/questions", askOverApi(context));
  api.get("/stats", readStats(context));
  api.get("/questions", listQuestions(context));
  api.get("/questions/:id", readQuestion(context));
  api.get("/questions/:id/job", readFollowUpJob(context));
  api.post("/questions/:id/job/done", markFollowUpJobDone(context));
  api.post("/questions/:id/answer", answerOverApi(context));
  api.post("/questions/:id/dismiss", dismissOverApi(context));
  api.post("/questions/:id/extend", extendOverApi(context));
  api.post("/questions/:id/withdraw", withdrawOverApi(context));
  return api;
}
