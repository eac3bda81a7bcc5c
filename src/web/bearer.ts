// The bearer-token gate shared by the JSON API and the MCP endpoint: without a configured
// QBRIDGE_API_TOKEN both are off and say so; a missing or wrong token is refused. The token is
// compared in constant time and never logged.

import { createHash, timingSafeEqual } from "node:crypto";
import type { Context, MiddlewareHandler } from "hono";
import { type ApiFailure, failure } from "./api-errors.ts";

export function sendFailure(c: Context, fail: ApiFailure): Response {
  if (fail.status === 401) c.header("WWW-Authenticate", 'Bearer realm="qbridge"');
  return c.json(fail.body, fail.status);
}

function sameToken(given: string, wanted: string): boolean {
  const a = createHash("sha256").update(given).digest();
  const b = createHash("sha256").update(wanted).digest();
  return timingSafeEqual(a, b);
}

/** Lets a request through only with `Authorization: Bearer <token>`. */
export function requireBearer(token: string | undefined): MiddlewareHandler {
  return async (c, next) => {
    if (!token) {
      return sendFailure(
        c,
        failure(
          503,
          "ApiOff",
          "the API is off: no QBRIDGE_API_TOKEN is configured on the box's machine; set one (at least 16 characters) and restart",
        ),
      );
    }
    const header = c.req.header("authorization") ?? "";
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (!match) {
      return sendFailure(
        c,
        failure(401, "Unauthorized", "send the API token as: Authorization: Bearer TOKEN"),
      );
    }
    if (!sameToken(match[1] as string, token)) {
      return sendFailure(c, failure(401, "Unauthorized", "the bearer token is wrong"));
    }
    await next();
  };
}
