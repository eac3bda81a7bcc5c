// The one place errors become HTTP statuses and JSON bodies `{error: {code, message}}`.
// 400 malformed request, 401 no or wrong token, 403 a question an agent's hook filed (answered
// only by the boxholder, on a surface that proves it), 404 no such question, 409 the transition
// was rejected (naming the current status), 412 the card is not the version If-Match named, 413
// body over the limit, 422 the body breaks the schema, 428 a letter or a label for a card edited
// since it was asked, with no If-Match.

import {
  BoxError,
  CardChanged,
  CardUnreadable,
  InvalidId,
  InvalidInput,
  NotOwnSurface,
  QbridgeError,
  QuestionNotFound,
  TransitionRejected,
  VersionNeeded,
} from "../errors.ts";

export type ApiStatus = 400 | 401 | 403 | 404 | 409 | 412 | 413 | 415 | 422 | 428 | 500 | 503;

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
  if (error instanceof CardChanged) return 412;
  if (error instanceof VersionNeeded) return 428;
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
