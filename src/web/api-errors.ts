// The one place errors become HTTP statuses and JSON bodies `{error: {code, message}}`.
// 400 malformed request, 401 no or wrong token, 403 a permission request (answered only on the
// boxholder's own surfaces), 404 no such question, 409 the transition was
// rejected (naming the current status), 413 body over the limit, 422 the body breaks the schema.

import {
  BoxError,
  CardUnreadable,
  InvalidId,
  InvalidInput,
  NotOwnSurface,
  QbridgeError,
  QuestionNotFound,
  TransitionRejected,
} from "../errors.ts";

export type ApiStatus = 400 | 401 | 403 | 404 | 409 | 413 | 415 | 422 | 500 | 503;

export interface ApiErrorBody {
  error: { code: string; message: string; current?: string };
}

export interface ApiFailure {
  status: ApiStatus;
  body: ApiErrorBody;
}

/** An error the web layer itself names (bad token, bad JSON, oversize body). */
export function failure(status: ApiStatus, code: string, message: string): ApiFailure {
  return { status, body: { error: { code, message } } };
}

function statusOf(error: QbridgeError): ApiStatus {
  if (error instanceof InvalidId) return 400;
  if (error instanceof QuestionNotFound) return 404;
  if (error instanceof NotOwnSurface) return 403;
  if (error instanceof TransitionRejected) return 409;
  if (error instanceof InvalidInput) return 422;
  if (error instanceof CardUnreadable) return 500;
  if (error instanceof BoxError) return 503;
  return 500;
}

export function failureOf(error: unknown): ApiFailure {
  if (!(error instanceof QbridgeError)) {
    return failure(
      500,
      "InternalError",
      "the box failed to handle this request: see the service log",
    );
  }
  const current = error instanceof TransitionRejected ? error.current : undefined;
  const message = error instanceof QuestionNotFound ? notFound(error) : error.message;
  return {
    status: statusOf(error),
    body: { error: { code: error.name, message, ...(current ? { current } : {}) } },
  };
}

// An API caller may have no `qbridge` to run: point it at the API's own list of every id.
function notFound(error: QuestionNotFound): string {
  const closest = error.near.length ? `; the closest: ${error.near.join(", ")}` : "";
  return `no question "${error.id}" in this box${closest}: GET /api/v1/questions?status=all lists the ids`;
}
