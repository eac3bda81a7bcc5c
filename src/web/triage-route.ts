// `POST /questions/triage` through the questions page's signed link (the boxholder's: a link
// handed to an asker answers nothing) and form token: the first press lists exactly what would
// be recorded (the offer, kept in the ledger with each card's fingerprint), the second records
// it through the core as `via: web`. Each press is an attempt the judge lets through first.
// Nothing is recorded without that second press.

import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import type { Question } from "../card/question.ts";
import { QbridgeError } from "../errors.ts";
import { answerQuestion, type Surface } from "../questions/answer.ts";
import type { Core } from "../questions/core.ts";
import { boxState } from "../questions/state.ts";
import { loadQuestion } from "../questions/store.ts";
import { judgePage } from "../slot/judge/page-acts.ts";
import type { From } from "../slot/judge/proof.ts";
import { TriageOffers } from "../slot/triage/offers.ts";
import { type AnswerPath, boxDigest } from "../slot/triage/triage.ts";
import { WEB_SURFACE } from "../surfaces.ts";
import { checkFormToken, formToken } from "./csrf.ts";
import { announce, type SignedDeps } from "./deps.ts";
import { pageFailure } from "./page-errors.ts";
import { staleFormPage, tooLargePage } from "./problem-page.ts";
import { openForPost, pageLinks, type ToRoot } from "./signed-page.ts";
import { decisionPage, nothingToAcceptPage, reviewPage } from "./triage-page.ts";

const SCOPE = { page: "questions" } as const;
/** A triage form carries a step, an offer id and its token. */
const TRIAGE_FORM_BYTES = 4 * 1024;

export function triageAction(signature: string, toRoot: ToRoot): string {
  return `${toRoot}questions/triage?s=${signature}`;
}

/** `POST /questions/triage`: the review of an offer, then its recording. */
export function triageRoute(deps: SignedDeps): Hono {
  const app = new Hono();
  const { core, secret } = deps;
  const offers = core.ledger.store(TriageOffers);

  const load = (id: string) => cardIfReadable(core, id);

  app.post(
    "/questions/triage",
    bodyLimit({
      maxSize: TRIAGE_FORM_BYTES,
      onError: (c) => c.html(tooLargePage(TRIAGE_FORM_BYTES), 413),
    }),
    async (c) => {
      const opened = openForPost(c, deps, SCOPE);
      if (opened instanceof Response) return opened;
      const { signature, role } = opened;
      const from: From = { surface: WEB_SURFACE, proof: { kind: "link", role } };
      const body = (await c.req.parseBody().catch(() => ({}))) as Record<string, unknown>;
      const given = (name: string) => (typeof body[name] === "string" ? body[name] : undefined);
      if (!checkFormToken(secret, SCOPE, signature, given("form"))) {
        return c.html(staleFormPage(), 403);
      }
      const form = {
        action: triageAction(signature, "../"),
        formToken: formToken(secret, SCOPE, signature),
      };
      const now = core.box.clock.iso();
      try {
        const offerId = given("offer");
        if (given("step") === "confirm" && offerId) {
          const verdict = await judgePage(core, { kind: "page", from, act: "accept" }, (by) =>
            offers.decide(offerId, webAnswerPath(deps, by), load, now),
          );
          if (verdict.kind === "refused") return c.html(staleFormPage(), 403);
          return c.html(decisionPage(verdict.value, pageLinks(deps, "../", role)));
        }
        const verdict = await judgePage(core, { kind: "page", from, act: "triage" }, async (by) => {
          const state = boxState(core);
          const digest = boxDigest(core, state.pending);
          if (!digest?.offer.length) return { state, offered: undefined };
          return {
            state,
            offered: { items: digest.offer, id: offers.save(digest.offer, by.via, now) },
          };
        });
        if (verdict.kind === "refused") return c.html(staleFormPage(), 403);
        const { state, offered } = verdict.value;
        const links = pageLinks(deps, "../", role, undefined, state);
        if (!offered) return c.html(nothingToAcceptPage(links));
        return c.html(reviewPage(offered.items, offered.id, form, links));
      } catch (error) {
        return pageFailure(c, deps, error);
      }
    },
  );

  return app;
}

/** The card as it is now; undefined when it is gone or cannot be read. */
function cardIfReadable(core: Core, id: string): Question | undefined {
  try {
    return loadQuestion(core, id).card;
  } catch (error) {
    if (error instanceof QbridgeError) return undefined;
    throw error;
  }
}

/** The web's way into the core: each answer its own transition, then the serving slot is told. */
function webAnswerPath(deps: SignedDeps, by: Surface): AnswerPath {
  return async (id, attempt, options) => {
    const result = await answerQuestion(deps.core, id, attempt, by, options);
    await announce(deps, { id, action: "answered", via: "web" });
    return result;
  };
}
