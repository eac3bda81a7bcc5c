// `/questions` through its own signed link: what is waiting, then one page of the archive
// (`page=N`, from 1; a page past the end shows the last). Each entry carries a freshly signed
// link to its question, for the role of the link that opened the page; the page itself answers
// nothing (the triage digest's button only leads to the list of what it would record:
// triage-route.ts, and only on a page opened through the boxholder's link).

import { Hono } from "hono";
import { ARCHIVE_PAGE, archivePage, pendingQuestions } from "../questions/state.ts";
import { settleBeforeListing } from "../questions/transition.ts";
import { boxDigest } from "../slot/triage/triage.ts";
import { formToken } from "./csrf.ts";
import type { SignedDeps } from "./deps.ts";
import { signLink } from "./links.ts";
import { pageFailure } from "./page-errors.ts";
import { questionsPage } from "./questions-page.ts";
import { openLink, pageLinks, questionHref } from "./signed-page.ts";
import { digestSection } from "./triage-page.ts";
import { triageAction } from "./triage-route.ts";

export function questionsRoute(deps: SignedDeps): Hono {
  const app = new Hono();
  const { core, secret } = deps;

  app.get("/questions", async (c) => {
    const opened = openLink(c, deps, { page: "questions" });
    if (opened instanceof Response) return opened;
    const { signature, role } = opened;
    const now = core.box.clock.now();
    try {
      // An answer a killed process left uncommitted is undone first, never listed as recorded.
      await settleBeforeListing(core);
      const { pending, unreadable } = pendingQuestions(core);
      const hrefOf = (id: string) =>
        questionHref(id, signLink(secret, { question: id, role }, now), "");
      const asked = /^[1-9][0-9]{0,8}$/.test(c.req.query("page") ?? "")
        ? Number(c.req.query("page"))
        : 1;
      let archive = archivePage(core, (asked - 1) * ARCHIVE_PAGE);
      const pages = Math.max(1, Math.ceil(archive.total / ARCHIVE_PAGE));
      const at = Math.min(asked, pages);
      if (at !== asked) archive = archivePage(core, (at - 1) * ARCHIVE_PAGE);
      const pageHref = (n: number) =>
        `questions?s=${encodeURIComponent(signature)}${n > 1 ? `&page=${n}` : ""}`;
      // Triage records answers: its form is on the boxholder's page only.
      const digest = at === 1 && role === "boxholder" ? boxDigest(core, pending) : undefined;
      const listing = {
        pending,
        archive,
        unreadable: unreadable.length,
        page: at,
        pages,
        pageHref,
      };
      return c.html(
        questionsPage(
          listing,
          hrefOf,
          now,
          deps.config.timeZone,
          pageLinks(deps, "", role, undefined, { pending, archive: [], unreadable }),
          digest &&
            digestSection(digest, hrefOf, {
              action: triageAction(signature, ""),
              formToken: formToken(secret, { page: "questions" }, signature),
            }),
        ),
      );
    } catch (error) {
      return pageFailure(c, deps, error);
    }
  });

  return app;
}
