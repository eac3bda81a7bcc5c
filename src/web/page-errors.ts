// The one place page errors become HTTP statuses and pages (the API has its own, api-errors.ts).

import type { Context } from "hono";
import { CardUnreadable, InvalidId, QuestionNotFound } from "../errors.ts";
import type { WebDeps } from "./deps.ts";
import { badRequestPage, failurePage, notFoundPage, unreadablePage } from "./problem-page.ts";

export function pageFailure(c: Context, deps: WebDeps, error: unknown): Response {
  if (error instanceof InvalidId) return c.html(badRequestPage(error.message), 400);
  if (error instanceof QuestionNotFound) {
    return c.html(notFoundPage("This question is no longer in the box."), 404);
  }
  if (error instanceof CardUnreadable) {
    return c.html(unreadablePage(error.message), 500);
  }
  deps.logger?.error({ err: error, path: c.req.path }, "a web page failed");
  return c.html(failurePage(), 500);
}
