// `/questions` through its own signed link: what is waiting, then the archive. Each entry
// carries a freshly signed link to its question; the page itself answers nothing.

import { Hono } from "hono";
import { boxState } from "../questions/state.ts";
import type { WebDeps } from "./deps.ts";
import { signLink } from "./links.ts";
import { pageFailure } from "./page-errors.ts";
import { questionsPage } from "./questions-page.ts";
import { pageLinks, questionHref, refuseLink } from "./signed-page.ts";

export function questionsRoute(deps: WebDeps): Hono {
  const app = new Hono();
  const { core, secret } = deps;

  app.get("/questions", (c) => {
    const refused = refuseLink(c, deps, { page: "questions" });
    if (refused) return refused;
    const now = core.box.clock.now();
    try {
      const state = boxState(core);
      return c.html(
        questionsPage(
          state,
          (id) => questionHref(id, signLink(secret, { question: id }, now)),
          now,
          deps.config.timeZone,
          pageLinks(deps, undefined, state),
        ),
      );
    } catch (error) {
      return pageFailure(c, deps, error);
    }
  });

  return app;
}
