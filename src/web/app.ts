// The web app as one value: pages, the JSON API and the health probe, with the headers every
// response carries. Built by a factory so tests drive it with `app.request()` and no server.

import { Hono } from "hono";
import { apiRoutes } from "./api-routes.ts";
import type { WebDeps } from "./deps.ts";
import { createHealthProbe, healthRoutes } from "./health.ts";
import { mcpRoute } from "./mcp-route.ts";
import { ownHostOnly } from "./own-host.ts";
import { failurePage, homePage, noLinkKeyPage, notFoundPage } from "./problem-page.ts";
import { questionRoutes } from "./question-routes.ts";
import { questionsRoute } from "./questions-route.ts";
import { statsRoute } from "./stats-route.ts";
import { triageRoute } from "./triage-route.ts";

export type { TransitionListener, WebDeps, WebTransition } from "./deps.ts";

/** No scripts, no frames, no outside resources; forms post only back here. */
const PAGE_POLICY =
  "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

/** The pages a signed link opens. */
const SIGNED_PAGES = ["/q/:id", "/questions", "/questions/triage", "/stats"];

export function createWebApp(deps: WebDeps): Hono {
  const app = new Hono();

  app.use("*", async (c, next) => {
    await next();
    // Pages and answers are private and change: never cached, never leaked by Referer.
    c.header("Cache-Control", "no-store");
    c.header("Referrer-Policy", "no-referrer");
    c.header("X-Content-Type-Options", "nosniff");
    c.header("X-Frame-Options", "DENY");
    c.header("Content-Security-Policy", PAGE_POLICY);
  });
  app.use("*", ownHostOnly(deps.listening ?? (() => deps.config.web), deps.config.web.publicUrl));

  app.route("/", healthRoutes(deps.health ?? createHealthProbe(deps.core)));
  app.route("/api/v1", apiRoutes(deps));
  app.route("/mcp", mcpRoute(deps));
  const { secret } = deps;
  if (secret) {
    const signed = { ...deps, secret };
    app.route("/", questionRoutes(signed));
    app.route("/", questionsRoute(signed));
    app.route("/", triageRoute(signed));
    app.route("/", statsRoute(signed));
  } else {
    // No key (a read-only box never served): no link can open a page, so each says why rather
    // than call every link changed.
    for (const path of SIGNED_PAGES) app.all(path, (c) => c.html(noLinkKeyPage(), 503));
  }

  app.get("/", (c) => c.html(homePage()));

  app.notFound((c) => {
    if (c.req.path === "/api" || c.req.path.startsWith("/api/")) {
      return c.json(
        { error: { code: "NoSuchRoute", message: `no API route ${c.req.method} ${c.req.path}` } },
        404,
      );
    }
    return c.html(notFoundPage("There is no page at this address."), 404);
  });

  app.onError((error, c) => {
    deps.logger?.error({ err: error, path: c.req.path }, "a web request failed");
    return c.req.path.startsWith("/api/") || c.req.path.startsWith("/mcp")
      ? c.json(
          {
            error: {
              code: "InternalError",
              message: "the box failed to handle this request: see the service log",
            },
          },
          500,
        )
      : c.html(failurePage(), 500);
  });

  return app;
}
