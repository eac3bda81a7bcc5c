// The `/q/:id` POST: a question's form sent back to its signed link. Read the post (the link,
// the form token, the fields; a link handed to an asker is refused before anything is read),
// decide what it asks (dismiss, extend, later, answer), have the judge do it (as every
// surface's attempts), and render: a redirect to the page, or the page again with the form as
// sent and a line saying why nothing changed. Never records what the person did not submit.

import type { Context } from "hono";
import { isValidId } from "../box/paths.ts";
import {
  inputTypeOf,
  isPermissionQuestion,
  OTHER_OPTION,
  optionsOf,
  type Question,
} from "../card/question.ts";
import { BoxError, CardChanged, InvalidId, InvalidInput, TransitionRejected } from "../errors.ts";
import { dismissQuestion } from "../questions/close.ts";
import { EXTEND_STEP } from "../questions/deadline.ts";
import { extendQuestion } from "../questions/extend.ts";
import type { QuestionView } from "../questions/state.ts";
import { loadQuestion } from "../questions/store.ts";
import { judgeAnswer } from "../slot/judge/by-id.ts";
import { judgePage, type PageVerdict } from "../slot/judge/page-acts.ts";
import type { From } from "../slot/judge/proof.ts";
import { WEB_SURFACE } from "../surfaces.ts";
import type { FormValues } from "./answer-fields.ts";
import { checkFormToken, formToken } from "./csrf.ts";
import { announce, type SignedDeps } from "./deps.ts";
import { formFieldsText } from "./form-fields.ts";
import { laterForm, laterLine, putOffFromPage } from "./later-form.ts";
import { pageFailure } from "./page-errors.ts";
import { badRequestPage, staleFormPage } from "./problem-page.ts";
import { questionPage } from "./question-page.ts";
import { openForPost, pageLinks, questionHref } from "./signed-page.ts";

/** A post that passed the link and form-token checks. */
interface Post {
  id: string;
  /** Whoever posted, as the web saw them: the holder of a link signed for the boxholder. */
  from: From;
  body: Record<string, unknown>;
  /** The page's own address: where every outcome sends the browser back. */
  action: string;
  formToken: string;
  values: FormValues;
}

function field(body: Record<string, unknown>, name: string): string | undefined {
  const value = body[name];
  return typeof value === "string" ? value : undefined;
}

/** The values a field was sent with: one, several (checkboxes), or none. */
function fieldValues(body: Record<string, unknown>, name: string): string[] {
  const value = body[name];
  const values = Array.isArray(value) ? value : [value];
  return values.filter((v): v is string => typeof v === "string" && v !== "");
}

export async function postQuestion(c: Context, deps: SignedDeps): Promise<Response> {
  const post = await readPost(c, deps);
  if (post instanceof Response) return post;
  try {
    return await act(c, deps, post);
  } catch (error) {
    return failed(c, deps, post, error);
  }
}

/** The post, once its link and form token hold; else the page that refuses it. */
async function readPost(c: Context, deps: SignedDeps): Promise<Post | Response> {
  const id = c.req.param("id") as string;
  if (!isValidId(id)) return c.html(badRequestPage(new InvalidId(id).message), 400);
  const scope = { question: id };
  // `all`: checkboxes send one `choice` per pick; a field sent twice otherwise is no string.
  const body = (await c.req.parseBody({ all: true }).catch(() => ({}))) as Record<string, unknown>;
  // A link that expired while the answer was typed: the words come back on the refusal.
  const typed = ["other", "text", "note"]
    .map((name) => field(body, name)?.trim())
    .filter((text): text is string => Boolean(text));
  const opened = openForPost(c, deps, scope, typed);
  if (opened instanceof Response) return opened;
  const { signature, role } = opened;
  if (!checkFormToken(deps.secret, scope, signature, field(body, "form"))) {
    return c.html(staleFormPage(), 403);
  }
  const values: FormValues = {
    choices: fieldValues(body, "choice"),
    other: field(body, "other"),
    note: field(body, "note"),
    // An elicitation's form sends its fields one by one; the answer is their JSON.
    text: field(body, "text") ?? formFieldsText(body),
  };
  return {
    id,
    from: { surface: WEB_SURFACE, proof: { kind: "link", role } },
    body,
    action: questionHref(id, signature, "../"),
    formToken: formToken(deps.secret, scope, signature),
    values,
  };
}

/** Does what the post asks; a redirect back to the page, or the page with why not. */
async function act(c: Context, deps: SignedDeps, post: Post): Promise<Response> {
  const { core } = deps;
  const { id, from } = post;
  const asked = field(post.body, "action");
  if (asked === "dismiss") {
    const done = await judgePage(
      core,
      { kind: "page", from, act: "dismiss", questionId: id },
      (by) => dismissQuestion(core, id, by),
    );
    return settled(c, deps, post, done, "dismissed");
  }
  if (asked === "extend") {
    const done = await judgePage(
      core,
      { kind: "page", from, act: "extend", questionId: id },
      (by) => extendQuestion(core, id, EXTEND_STEP, by),
    );
    return settled(c, deps, post, done, "extended");
  }
  const view = loadQuestion(core, id);
  if (asked === "later") {
    if (view.card.status !== "pending") {
      const text = `Nothing changed: this question is already ${view.card.status}.`;
      return refusal(c, deps, post, view, text, 409);
    }
    const done = await judgePage(
      core,
      { kind: "page", from, act: "later", questionId: id },
      async () => putOffFromPage(core, deps.config.timeZone, id, field(post.body, "later")),
    );
    if (done.kind === "done" && done.value) return refusal(c, deps, post, view, done.value, 422);
    return settled(c, deps, post, done, "later");
  }
  return answer(c, deps, post, view);
}

/** After the judge: the page again when it refused, else the serving slot told and the page. */
async function settled(
  c: Context,
  deps: SignedDeps,
  post: Post,
  verdict: PageVerdict<unknown>,
  action: "dismissed" | "extended" | "later",
): Promise<Response> {
  if (verdict.kind === "refused") {
    return failed(c, deps, post, verdict.error ?? new Error(verdict.reply));
  }
  await announce(deps, { id: post.id, action, via: "web" });
  return c.redirect(post.action, 303);
}

/**
 * A permission's edited command has its own field: a note beside it is never the command (the
 * select's own rule would take the note for own words).
 */
function editedCommandProblem(card: Question, values: FormValues): string | undefined {
  if (!isPermissionQuestion(card) || !values.choices?.includes(OTHER_OPTION)) return undefined;
  if (values.other?.trim()) return undefined;
  const label = optionsOf(card).find((o) => o.id === OTHER_OPTION)?.label ?? "Other";
  return `Type the command next to “${label}” (a note is not taken for it); nothing was recorded.`;
}

/** The form's answer, judged as every surface's is: by what the page showed (`shown`). */
async function answer(c: Context, deps: SignedDeps, post: Post, view: QuestionView) {
  const { card } = view;
  const edited = editedCommandProblem(card, post.values);
  if (edited) return refusal(c, deps, post, view, edited, 422);
  const read = inputTypeOf(card.input).fromForm(card.input, {
    ...post.values,
    choices: post.values.choices ?? [],
  });
  if ("problem" in read) return refusal(c, deps, post, view, read.problem, 422);
  const shown = field(post.body, "shown");
  const outcome = await judgeAnswer(deps.core, {
    kind: "answer",
    from: post.from,
    questionId: post.id,
    answer: read.attempt,
    // The page's `shown`; a client that rendered no page names none, and picks by id.
    version: shown === undefined ? { kind: "none", say: "shown" } : { kind: "shown", hash: shown },
  });
  if (outcome.kind !== "recorded") {
    return failed(c, deps, post, outcome.error ?? new Error(outcome.reply));
  }
  await announce(deps, { id: post.id, action: "answered", via: "web" });
  return c.redirect(post.action, 303);
}

/** What a post that changed nothing shows, by why. */
function failed(c: Context, deps: SignedDeps, post: Post, error: unknown): Response {
  try {
    // InvalidInput covers an answer that does not resolve and one the card cannot hold (a
    // pasted control character): both are the person's to fix, with the form kept.
    if (error instanceof TransitionRejected || error instanceof InvalidInput) {
      const text =
        error instanceof CardChanged
          ? "This question was edited after you opened it; nothing was recorded. Read it again below and answer anew."
          : error instanceof TransitionRejected
            ? `Nothing changed: this question is already ${error.current}. What is recorded is shown below.`
            : `${error.message}. Nothing was recorded.`;
      const status = error instanceof TransitionRejected ? 409 : 422;
      return refusal(c, deps, post, loadQuestion(deps.core, post.id), text, status);
    }
    if (error instanceof BoxError) {
      // The box could not commit (a git lock, a read-only disk): the form comes back with
      // what was typed, since a phone's back button reloads a no-store page empty.
      deps.logger?.error({ err: error, path: c.req.path }, "a web answer was not committed");
      const text = `Nothing was recorded: ${error.message}. Your answer is kept below to send again (qbridge doctor on the box's machine says how to fix this).`;
      return refusal(c, deps, post, loadQuestion(deps.core, post.id), text, 503);
    }
  } catch (reload) {
    return pageFailure(c, deps, reload);
  }
  return pageFailure(c, deps, error);
}

/** The question again, with the form as it was sent and a line saying why nothing changed. */
function refusal(
  c: Context,
  deps: SignedDeps,
  post: Post,
  view: QuestionView,
  text: string,
  status: 409 | 422 | 503,
): Response {
  const { core } = deps;
  const { timeZone } = deps.config;
  const { action, formToken: token } = post;
  return c.html(
    questionPage({
      view,
      action,
      formToken: token,
      values: post.values,
      notice: { tone: "problem", text },
      now: core.box.clock.now(),
      timeZone,
      links: pageLinks(deps, "../", "boxholder", post.id),
      later: laterForm({ core, id: post.id, timeZone, action, formToken: token }),
      laterBack: laterLine(core, post.id, timeZone),
    }),
    status,
  );
}
