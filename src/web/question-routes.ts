// `/q/:id`: one question through its signed link. A link a bridge sent the boxholder opens the
// page with its form, which posts back to the same link with a form token derived from it
// (question-post.ts): answers and the page's other acts go through the judge as `via: web`, then
// the browser is sent back to the page (so a reload never posts twice). A link handed to an
// asker opens the page with no form and no action. A page never answers anything a person did
// not submit.

import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { isValidId } from "../box/paths.ts";
import { inputTypeOf } from "../card/inputs/registry.ts";
import { optionsOf, type Question } from "../card/question.ts";
import { InvalidId } from "../errors.ts";
import { loadCommitted } from "../questions/transition.ts";
import { lastTimeFor } from "../slot/presentation/last-time.ts";
import { formToken } from "./csrf.ts";
import type { SignedDeps } from "./deps.ts";
import { laterForm, laterLine } from "./later-form.ts";
import { pageFailure } from "./page-errors.ts";
import { badRequestPage, tooLargePage } from "./problem-page.ts";
import { questionPage } from "./question-page.ts";
import { postQuestion } from "./question-post.ts";
import { openLink, pageLinks, questionHref } from "./signed-page.ts";

/** Forms carry at most one answer and one note of 20,000 characters each, percent-encoded. */
export const FORM_LIMIT_BYTES = 512 * 1024;

/**
 * The option a link chose (`?pick=ID`, an e-mail's button): chosen on the form and named in a
 * notice, never recorded; the person's tap on the form records it. Nothing for an unknown id.
 */
function pickedOption(card: Question, pick: string | undefined) {
  const option = optionsOf(card).find((o) => o.id === pick);
  if (!option || card.status === "answered" || card.status === "withdrawn") return {};
  // One submit button per choice records the tap itself; otherwise the choice is checked and
  // Send records it.
  const buttons = inputTypeOf(card.input)
    .form(card)
    .some((part) => part.part === "buttons");
  const tap = buttons ? option.label : "Send answer";
  return {
    values: { choices: [option.id] },
    notice: {
      tone: "notice" as const,
      text: `You chose “${option.label}”: tap ${tap} below to record it. Nothing is recorded until you do.`,
    },
  };
}

export function questionRoutes(deps: SignedDeps): Hono {
  const app = new Hono();
  const { core, secret } = deps;

  app.get("/q/:id", async (c) => {
    const id = c.req.param("id");
    if (!isValidId(id)) return c.html(badRequestPage(new InvalidId(id).message), 400);
    const opened = openLink(c, deps, { question: id });
    if (opened instanceof Response) return opened;
    const { signature, role } = opened;
    try {
      // Never a write half done (a killed answer the next writer undoes).
      const view = await loadCommitted(core, id);
      const action = questionHref(id, signature, "../");
      const token = formToken(secret, { question: id }, signature);
      const { timeZone } = deps.config;
      // A link handed to an asker has no form to tap: a chosen option would point at nothing.
      const picked = role === "asker" ? {} : pickedOption(view.card, c.req.query("pick"));
      return c.html(
        questionPage({
          view,
          ...picked,
          action,
          formToken: token,
          now: core.box.clock.now(),
          timeZone,
          links: pageLinks(deps, "../", role, id),
          showOnly: role === "asker",
          later: laterForm({ core, id, timeZone, action, formToken: token }),
          laterBack: laterLine(core, id, timeZone),
          lastTime: view.card.status === "pending" ? lastTimeFor(core, view, timeZone) : undefined,
        }),
      );
    } catch (error) {
      return pageFailure(c, deps, error);
    }
  });

  app.post(
    "/q/:id",
    bodyLimit({
      maxSize: FORM_LIMIT_BYTES,
      onError: (c) => c.html(tooLargePage(FORM_LIMIT_BYTES), 413),
    }),
    (c) => postQuestion(c, deps),
  );

  return app;
}
