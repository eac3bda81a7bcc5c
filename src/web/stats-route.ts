// `/stats` through its own signed link (`qbridge link --stats`): the stats page. Read-only.

import { Hono } from "hono";
import { boxStats } from "../questions/stats/box-stats.ts";
import type { SignedDeps } from "./deps.ts";
import { pageFailure } from "./page-errors.ts";
import { openLink } from "./signed-page.ts";
import { statsPage } from "./stats-page.ts";

export function statsRoute(deps: SignedDeps): Hono {
  const app = new Hono();
  app.get("/stats", (c) => {
    const opened = openLink(c, deps, { page: "stats" });
    if (opened instanceof Response) return opened;
    try {
      return c.html(statsPage(boxStats(deps.core, deps.config.timeZone)));
    } catch (error) {
      return pageFailure(c, deps, error);
    }
  });
  return app;
}
