// The web app as one value: pages, the JSON API and the health probe, with the headers every
// response carries. Built by a factory so tests drive it with `app.request()` and no server.

import { Hono } from "hono";
import { secureHeaders } from "hono/secure-headers";
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

/**
 * No scripts, no frames, no outside resources; forms post only back here. Pages and answers are
 * private: never leaked by Referer, never sniffed as another type, never framed. Only these
 * headers are sent (Hono's other defaults are off).
 */
const PAGE_HEADERS = secureHeaders({
  contentSecurityPolicy: {
    defaultSrc: ["'none'"],
    styleSrc: ["'unsafe-inline'"],
    imgSrc: ["'self'", "data:"],
    formAction: ["'self'"],
    frameAncestors: ["'none'"],
    baseUri: ["'none'"],
  },
  referrerPolicy: "no-referrer",
  xContentTypeOptions: "nosniff",
  xFrameOptions: "DENY",
  crossOriginEmbedderPolicy: false,
  crossOriginResourcePolicy: false,
  crossOriginOpenerPolicy: false,
  originAgentCluster: false,
  strictTransportSecurity: false,
  xDnsPrefetchControl: false,
  xDownloadOptions: false,
  xPermittedCrossDomainPolicies: false,
  xXssProtection: false,
  removePoweredBy: false,
});

/** The pages a signed link opens. */
const SIGNED_PAGES = ["/q/:id", "/questions", "/questions/triage", "/stats"];

export function createWebApp(deps: WebDeps): Hono {
  const app = new Hono();

  app.use("*", async (c, next) => {
    await next();
    // Pages and answers change: never cached.
    c.header("Cache-Control", "no-store");
  });
  app.use("*", PAGE_HEADERS);
  app.use("*", ownHostOnly(deps.listening ?? (() => deps.config.web), deps.config.web.publicUrl));

  app.route("/", healthRoutes(deps.health ?? createHealthProbe(deps.core)));
  app.route("/api/v1", apiRoutes(deps));
  app.route("/mcp", mcpRoute(deps, deps.mcp));
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
