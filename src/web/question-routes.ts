// `/q/:id`: one question through its signed link. The form posts back to the same link with a
// form token derived from it; answers and dismissals go through the core as `via: web`, then
// the browser is sent back to the page (so a reload never posts twice). A page never answers
// anything a person did not submit.

import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { isValidId } from "../box/paths.ts";
import { OTHER_OPTION, optionsOf, type Question } from "../card/question.ts";
import type { AnswerAttempt } from "../card/resolve.ts";
import { BoxError, CardChanged, InvalidId, InvalidInput, TransitionRejected } from "../errors.ts";
import { answerQuestion } from "../questions/answer.ts";
import { dismissQuestion } from "../questions/close.ts";
import { EXTEND_STEP } from "../questions/deadline.ts";
import { extendQuestion } from "../questions/extend.ts";
import type { QuestionView } from "../questions/state.ts";
import { loadQuestion } from "../questions/store.ts";
import { loadCommitted } from "../questions/transition.ts";
import { lastTimeFor } from "../slot/presentation/last-time.ts";
import { checkFormToken, formToken } from "./csrf.ts";
import { announce, type SignedDeps } from "./deps.ts";
import { formFieldsText } from "./form-fields.ts";
import { laterForm, laterLine, putOffFromPage } from "./later-form.ts";
import { pageFailure } from "./page-errors.ts";
import { badRequestPage, staleFormPage, tooLargePage } from "./problem-page.ts";
import { type FormValues, questionPage } from "./question-page.ts";
import { pageLinks, questionHref, refuseLink } from "./signed-page.ts";

/** Forms carry at most one answer and one note of 20,000 characters each, percent-encoded. */
export const FORM_LIMIT_BYTES = 512 * 1024;

function field(body: Record<string, unknown>, name: string): string | undefined {
  const value = body[name];
  return typeof value === "string" ? value : undefined;
}

/** The form's fields turned into the answer attempt every surface hands the core. */
function attemptOf(type: string, values: FormValues): AnswerAttempt | undefined {
  if (type === "text") return values.text?.trim() ? { text: values.text } : undefined;
  if (!values.choice) return undefined;
  // A radio names its option by id: `option` keeps it from being read as a label or letter.
  if (type === "select" && values.choice === OTHER_OPTION) {
    // The own words are the answer; a note written beside them stays a note.
    return { text: values.choice, option: values.choice, other: values.other, note: values.note };
  }
  if (type === "select") return { text: values.choice, option: values.choice, note: values.note };
  return { text: values.choice, note: values.note };
}

/** Why nothing was recorded, in the words of the form the person sees. */
function missingAnswer(card: Question, values: FormValues): string | undefined {
  if (card.input.type === "text") {
    return values.text?.trim() ? undefined : "Write an answer first; nothing was recorded.";
  }
  if (!values.choice) return "Pick one of the choices first; nothing was recorded.";
  const options = optionsOf(card);
  const label = options.find((o) => o.id === OTHER_OPTION)?.label ?? "Other";
  // Without own words the note stands in for them (resolveAnswer); with neither, ask.
  if (values.choice === OTHER_OPTION && !values.other?.trim() && !values.note?.trim()) {
    return `Type your own words next to “${label}”; nothing was recorded.`;
  }
  // Typing into the own-words field does not pick its radio (the page has no script): words
  // beside another pick are a question to ask, never words to drop.
  const picked = options.find((o) => o.id === values.choice);
  if (picked && picked.id !== OTHER_OPTION && values.other?.trim()) {
    return `You typed your own words for “${label}” but picked “${picked.label}”: pick “${label}” to send your words, or clear them to send “${picked.label}”; nothing was recorded.`;
  }
  return undefined;
}

export function questionRoutes(deps: SignedDeps): Hono {
  const app = new Hono();
  const { core, secret } = deps;

  app.get("/q/:id", async (c) => {
    const id = c.req.param("id");
    if (!isValidId(id)) return c.html(badRequestPage(new InvalidId(id).message), 400);
    const refused = refuseLink(c, deps, { question: id });
    if (refused) return refused;
    const signature = c.req.query("s") as string;
    try {
      // Never a write half done (a killed answer the next writer undoes).
      const view = await loadCommitted(core, id);
      const action = questionHref(id, signature, "../");
      const token = formToken(secret, { question: id }, signature);
      const { timeZone } = deps.config;
      return c.html(
        questionPage({
          view,
          action,
          formToken: token,
          now: core.box.clock.now(),
          timeZone,
          links: pageLinks(deps, "../", id),
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
    async (c) => {
      const id = c.req.param("id");
      if (!isValidId(id)) return c.html(badRequestPage(new InvalidId(id).message), 400);
      const scope = { question: id };
      const body = (await c.req.parseBody().catch(() => ({}))) as Record<string, unknown>;
      // A link that expired while the answer was typed: the words come back on the refusal.
      const typed = ["other", "text", "note"]
        .map((name) => field(body, name)?.trim())
        .filter((text): text is string => Boolean(text));
      const refused = refuseLink(c, deps, scope, typed);
      if (refused) return refused;
      const signature = c.req.query("s") as string;
      if (!checkFormToken(secret, scope, signature, field(body, "form"))) {
        return c.html(staleFormPage(), 403);
      }
      const action = questionHref(id, signature, "../");
      const token = formToken(secret, scope, signature);
      const values: FormValues = {
        choice: field(body, "choice"),
        other: field(body, "other"),
        note: field(body, "note"),
        // An elicitation's form sends its fields one by one; the answer is their JSON.
        text: field(body, "text") ?? formFieldsText(body),
      };
      // The question again, with the form as it was sent and a line saying why nothing changed.
      const refusal = (view: QuestionView, text: string, status: 409 | 422 | 503) =>
        c.html(
          questionPage({
            view,
            action,
            formToken: token,
            values,
            notice: { tone: "problem", text },
            now: core.box.clock.now(),
            timeZone: deps.config.timeZone,
            links: pageLinks(deps, "../", id),
            later: laterForm({
              core,
              id,
              timeZone: deps.config.timeZone,
              action,
              formToken: token,
            }),
            laterBack: laterLine(core, id, deps.config.timeZone),
          }),
          status,
        );
      try {
        if (field(body, "action") === "dismiss") {
          await dismissQuestion(core, id, { via: "web" });
          await announce(deps, { id, action: "dismissed", via: "web" });
          return c.redirect(action, 303);
        }
        if (field(body, "action") === "extend") {
          await extendQuestion(core, id, EXTEND_STEP, { via: "web" });
          await announce(deps, { id, action: "extended", via: "web" });
          return c.redirect(action, 303);
        }
        const view = loadQuestion(core, id);
        if (field(body, "action") === "later") {
          if (view.card.status !== "pending") {
            return refusal(
              view,
              `Nothing changed: this question is already ${view.card.status}.`,
              409,
            );
          }
          const problem = putOffFromPage(core, deps.config.timeZone, id, field(body, "later"));
          if (problem) return refusal(view, problem, 422);
          await announce(deps, { id, action: "later", via: "web" });
          return c.redirect(action, 303);
        }
        const missing = missingAnswer(view.card, values);
        const attempt = attemptOf(view.card.input.type, values);
        if (missing || !attempt) {
          return refusal(view, missing ?? "Nothing was recorded.", 422);
        }
        // The page's fingerprint: options edited after the page was opened refuse the answer.
        await answerQuestion(
          core,
          id,
          attempt,
          { via: "web" },
          { fingerprint: field(body, "shown") },
        );
        await announce(deps, { id, action: "answered", via: "web" });
        return c.redirect(action, 303);
      } catch (error) {
        // InvalidInput covers an answer that does not resolve and one the card cannot hold (a
        // pasted control character): both are the person's to fix, with the form kept.
        if (error instanceof TransitionRejected || error instanceof InvalidInput) {
          try {
            const view = loadQuestion(core, id);
            const text =
              error instanceof CardChanged
                ? "This question was edited after you opened it; nothing was recorded. Read it again below and answer anew."
                : error instanceof TransitionRejected
                  ? `Nothing changed: this question is already ${error.current}. What is recorded is shown below.`
                  : `${error.message}. Nothing was recorded.`;
            return refusal(view, text, error instanceof TransitionRejected ? 409 : 422);
          } catch (reload) {
            return pageFailure(c, deps, reload);
          }
        }
        if (error instanceof BoxError) {
          // The box could not commit (a git lock, a read-only disk): the form comes back with
          // what was typed, since a phone's back button reloads a no-store page empty.
          deps.logger?.error({ err: error, path: c.req.path }, "a web answer was not committed");
          try {
            const text = `Nothing was recorded: ${error.message}. Your answer is kept below to send again (qbridge doctor on the box's machine says how to fix this).`;
            return refusal(loadQuestion(core, id), text, 503);
          } catch (reload) {
            return pageFailure(c, deps, reload);
          }
        }
        return pageFailure(c, deps, error);
      }
    },
  );

  return app;
}
