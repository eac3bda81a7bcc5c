// What every API route is built from: the web's deps, the core, and the two views every
// outcome needs (until when a pending question is held, and a fresh signed link), made once
// per app. Also the one way a route reads its question id: as the CLI takes it.

import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { maskingCallbacks } from "../card/mask-url.ts";
import type { Core } from "../questions/core.ts";
import type { OutcomeContext, OutcomeLink } from "../questions/outcome.ts";
import { questionIdOf } from "../questions/question-ids.ts";
import { heldUntilOf } from "../slot/attention/held-until.ts";
import type { WebDeps } from "./deps.ts";
import { linkUrl } from "./links.ts";

export interface ApiContext {
  deps: WebDeps;
  core: Core;
  heldUntil: NonNullable<OutcomeContext["heldUntil"]>;
  link: OutcomeLink;
}

export function apiContext(deps: WebDeps): ApiContext {
  const { core } = deps;
  return {
    deps,
    core,
    heldUntil: heldUntilOf(core, deps.config.attention),
    link: (id) =>
      // Handed to an asker: the page shows the question and answers nothing.
      linkUrl(
        deps.config.web.publicUrl,
        deps.secret,
        { question: id, role: "asker" },
        core.box.clock.now(),
      ),
  };
}

/** The full id the route's `:id` stands for (a unique beginning or the 6-character end). */
export function routeQuestionId(api: ApiContext, c: Context): string {
  return questionIdOf(api.core, c.req.param("id") ?? "");
}

/** `c.json(value)` with every card's callback shown masked (src/card/mask-url.ts), as everywhere. */
export function maskedJson(
  c: Context,
  value: unknown,
  status: ContentfulStatusCode = 200,
): Response {
  return c.body(JSON.stringify(value, maskingCallbacks), status, {
    "Content-Type": "application/json",
  });
}
