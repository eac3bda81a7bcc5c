// The doctor's checks of the box's files: cards that cannot be read, what writers that died
// left behind (journals of interrupted writes, locks nobody holds), and files git holds that
// no commit does (a follow-up job of an answer that never finished, staged files). Each
// repairable finding carries its repair; none discards a change someone made by hand.

import { existsSync, readdirSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { journalPaths, pendingJournals, recover } from "../../box/commit.ts";
import { withCommitLock } from "../../box/commit-lock.ts";
import { isValidId, JOB_SUFFIX, JOBS_DIR } from "../../box/paths.ts";
import type { Core } from "../core.ts";
import { listJobs } from "../state.ts";
import { withQuestionLock } from "../transition.ts";
import type { DoctorCheck, Finding } from "./check.ts";

export const unreadableCardsCheck: DoctorCheck = {
  label: "cards",
  async examine(core, seen) {
    const cards = seen.state().unreadable.map(
      (bad): Finding => ({
        kind: "unreadable-card",
        path: bad.rel,
        problem: bad.reason,
        fix: bad.sameId
          ? `git rm one of the ${bad.sameId.length}, or rename one (git mv) to an id of its own`
          : "edit the file so it is a valid card (see README: card format), or remove it with git rm",
        repairable: false,
      }),
    );
    // A job file that cannot be read as a file (a link, a FIFO, over the size limit) is named
    // like a card. A readable file with a broken text is not: a stray one is the stray-job
    // check's to remove, and one an answer wrote is the agent's to read.
    const jobs = listJobs(core).flatMap((job): Finding[] => {
      if (job.refused === undefined) return [];
      return [
        {
          kind: "unreadable-card",
          path: job.rel,
          problem: `follow-up job: ${job.refused}`,
          fix: "remove the file (git rm, or rm if git does not hold it); answering the question again writes it anew",
          repairable: false,
        },
      ];
    });
    return { findings: [...cards, ...jobs], facts: [] };
  },
};

/** Writes a writer began and never finished, and locks whose holder is gone. */
export const leftoverWritesCheck: DoctorCheck = {
  label: "interrupted writes and locks",
  async examine(core) {
    const { box } = core;
    const findings: Finding[] = [];
    for (const key of pendingJournals(box)) {
      findings.push({
        kind: "interrupted-write",
        path: `.qbridge/journal/${key}.json`,
        problem: `a write to question "${key}" was interrupted before it was committed or undone`,
        fix: "qbridge doctor --repair finishes it (keeps it if it was committed, else puts the files back)",
        repairable: true,
        // Under the question's lock, which settles the question's journal; a journal of no
        // question (a box-wide write) is recovered on its own.
        apply: async () => {
          if (isValidId(key)) await withQuestionLock(core, key, async () => undefined);
          else await recover(box, key);
        },
      });
    }
    if (existsSync(box.paths.locksDir)) {
      for (const name of readdirSync(box.paths.locksDir)) {
        if (!name.endsWith(".lock")) continue;
        const path = `.qbridge/locks/${name}`;
        // A lock released between the listing and this look is gone: nothing to say of it.
        const mtimeMs = statSync(join(box.paths.locksDir, name), {
          throwIfNoEntry: false,
        })?.mtimeMs;
        if (mtimeMs === undefined) continue;
        const age = Date.now() - mtimeMs;
        if (age > box.locks.staleMs) {
          findings.push({
            kind: "stale-lock",
            path,
            problem: `a lock not refreshed for ${Math.round(age / 1000)} s: its holder is gone`,
            fix: "qbridge doctor --repair removes it (the next writer would also take it over)",
            repairable: true,
            apply: () => rmSync(join(box.paths.root, path), { recursive: true, force: true }),
          });
        }
      }
    }
    return { findings, facts: [] };
  },
};

/** Git's changed files that no interrupted write owns: stray follow-up jobs and staged files. */
export const uncommittedFilesCheck: DoctorCheck = {
  label: "uncommitted files",
  async examine(core, seen) {
    const { box } = core;
    // Files an interrupted write touched are its own to settle (kept if committed, else put
    // back): reporting them again as uncommitted changes would advise committing a half-write.
    const interrupted = new Set(pendingJournals(box).flatMap((key) => journalPaths(box, key)));
    const answered = new Set(
      seen
        .state()
        .archive.filter((v) => v.card.status === "answered")
        .map((v) => v.id),
    );
    const findings: Finding[] = [];
    // Git's view of the files, unless git could not give it (the git check reports why).
    for (const file of (await seen.git()).status ?? []) {
      const rel = file.path;
      // A temporary file of an interrupted write (its writer died mid-write) is its to remove.
      if (interrupted.has(rel.replace(/\.\d+\.tmp$/, ""))) continue;
      const isJob = rel.startsWith(`${JOBS_DIR}/`) && rel.endsWith(JOB_SUFFIX);
      const id = isJob ? rel.slice(JOBS_DIR.length + 1, -JOB_SUFFIX.length) : undefined;
      if (isJob && id && isValidId(id) && !answered.has(id) && file.index === "?") {
        findings.push(strayJob(core, rel, id));
        continue;
      }
      const staged = file.index !== " " && file.index !== "?";
      findings.push({
        kind: "dirty-index",
        path: rel,
        problem: staged
          ? "staged but not committed"
          : file.index === "?"
            ? "not committed (untracked)"
            : "changed but not committed",
        fix: staged
          ? "qbridge doctor --repair unstages it (the file itself is kept); then commit or discard it by hand"
          : `review it, then "git -C '${box.paths.root}' add '${rel}' && git commit", or discard it: ${
              // git checkout restores a changed file but cannot discard one git never had.
              file.index === "?"
                ? `rm '${join(box.paths.root, rel)}'`
                : `git -C '${box.paths.root}' checkout -- '${rel}'`
            }`,
        repairable: staged,
        // Under the commit lock: a reset beside a writer's add would race its index.lock.
        ...(staged && {
          apply: async () => {
            await withCommitLock(box, () => box.git.raw(["reset", "--quiet", "--", rel]));
          },
        }),
      });
    }
    return { findings, facts: [] };
  },
};

function strayJob(core: Core, rel: string, id: string): Finding {
  return {
    kind: "stray-job",
    path: rel,
    problem: `an uncommitted follow-up job for question "${id}", which is not answered: left by an interrupted answer`,
    fix: "qbridge doctor --repair removes it; answering the question again writes it anew",
    repairable: true,
    apply: () =>
      withQuestionLock(core, id, async () => {
        rmSync(join(core.box.paths.root, rel), { force: true });
      }),
  };
}
