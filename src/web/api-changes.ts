// The API's routes that change a question, each one transition through the same core as the
// CLI (`via: api`), told to the web's listener after it committed: asking, answering (through
// the judge: the API speaks for agents, and names the card's version with If-Match),
// dismissing, extending and withdrawing.

import type { Context } from "hono";
import { askWithReply } from "../questions/ask-reply.ts";
import { dismissQuestion } from "../questions/close.ts";
import { extendQuestion } from "../questions/extend.ts";
import { questionOutcome } from "../questions/outcome.ts";
import { loadQuestion } from "../questions/store.ts";
import { withdrawQuestion } from "../questions/withdraw.ts";
import { judgeAnswer, type Version } from "../slot/judge/by-id.ts";
import { judgePage } from "../slot/judge/page-acts.ts";
import { API_SURFACE } from "../surfaces.ts";
import {
  AnswerBody,
  DismissBody,
  ExtendBody,
  isTrue,
  jsonBody,
  parsed,
  WithdrawBody,
} from "./api-bodies.ts";
import { type ApiContext, maskedJson, routeQuestionId } from "./api-context.ts";
import { announce } from "./deps.ts";

/** `POST /questions[?unless_open=]`: 201 with the ask reply, or 200 with the open question the
 * same prompt already has when `unless_open` is set (in the query or the body). */
export const askOverApi = (api: ApiContext) => async (c: Context) => {
  const body = await jsonBody(c);
  let input = body;
  let unlessOpen = isTrue(c.req.query("unless_open"));
  if (body && typeof body === "object" && !Array.isArray(body) && "unless_open" in body) {
    const { unless_open, ...rest } = body as Record<string, unknown>;
    unlessOpen ||= isTrue(unless_open);
    input = rest;
  }
  const context = { timeZone: api.deps.config, heldUntil: api.heldUntil };
  const reply = await askWithReply(api.core, context, input, { unlessOpen, via: "api" });
  if (reply.deduplicated) return maskedJson(c, reply, 200);
  c.header("Location", `/api/v1/questions/${encodeURIComponent(reply.id)}`);
  return maskedJson(c, reply, 201);
};

/**
 * The version an answer names: If-Match's entity tag (the ETag a GET of the question gave), or
 * none (then a letter or a label is taken only while the card is as it was filed).
 */
function versionOf(ifMatch: string | undefined): Version {
  const tag = ifMatch?.trim().replace(/^W\//, "");
  if (!tag || tag === "*") return { kind: "none", say: "If-Match:" };
  return { kind: "shown", hash: tag.replace(/^"(.*)"$/, "$1") };
}

/** `POST /questions/:id/answer`: the answer as a person would type it, with a note and who. */
export const answerOverApi = (api: ApiContext) => async (c: Context) => {
  const id = routeQuestionId(api, c);
  const body = parsed(AnswerBody, await jsonBody(c));
  const verdict = await judgeAnswer(api.core, {
    kind: "answer",
    from: { surface: API_SURFACE, proof: { kind: "token", by: body.by } },
    questionId: id,
    answer: { text: body.answer, note: body.note },
    version: versionOf(c.req.header("If-Match")),
  });
  if (verdict.kind === "refused") throw verdict.error ?? new Error(verdict.reply);
  await announce(api.deps, { id, action: "answered", via: "api" });
  return c.json(verdict.result);
};

/** `POST /questions/:id/dismiss`: only a pending question; it stays answerable. Through the
 * judge: the API speaks for agents, and only the boxholder declines an agent's request. */
export const dismissOverApi = (api: ApiContext) => async (c: Context) => {
  const id = routeQuestionId(api, c);
  parsed(DismissBody, await jsonBody(c));
  const from = { surface: API_SURFACE, proof: { kind: "token" as const, by: undefined } };
  const verdict = await judgePage(
    api.core,
    { kind: "page", from, act: "dismiss", questionId: id },
    (by) => dismissQuestion(api.core, id, by),
  );
  if (verdict.kind === "refused") throw verdict.error ?? new Error(verdict.reply);
  await announce(api.deps, { id, action: "dismissed", via: "api" });
  return c.json(verdict.value);
};

/** `POST /questions/:id/extend`: more time before a pending question expires (`expires-after`
 * rewritten, one commit). */
export const extendOverApi = (api: ApiContext) => async (c: Context) => {
  const id = routeQuestionId(api, c);
  const body = parsed(ExtendBody, await jsonBody(c));
  const result = await extendQuestion(api.core, id, body.duration, { via: "api", by: body.by });
  await announce(api.deps, { id, action: "extended", via: "api" });
  return c.json(result);
};

/** `POST /questions/:id/withdraw`: the asker takes its question back; answers the outcome
 * (status withdrawn) and the commit. */
export const withdrawOverApi = (api: ApiContext) => async (c: Context) => {
  const { core } = api;
  const id = routeQuestionId(api, c);
  const body = parsed(WithdrawBody, await jsonBody(c));
  const result = await withdrawQuestion(
    core,
    id,
    { via: "api", by: body.by },
    { reason: body.reason },
  );
  await announce(api.deps, { id, action: "withdrawn", via: "api" });
  const { card } = loadQuestion(core, id);
  const outcome = questionOutcome({ id, card }, { now: core.box.clock.now(), link: api.link });
  return c.json({ ...outcome, commit: result.commit });
};
