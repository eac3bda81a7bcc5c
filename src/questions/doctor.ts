// Finding what is wrong with a box, and repairing what is safe to repair: the journals of
// writers that died, locks nobody holds, leftover job files, staged files, unreadable cards.
// Repair never discards a card edit someone made by hand; it names those for a person.

import { existsSync, readdirSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { journalPaths, pendingJournals, recover } from "../box/commit.ts";
import { isValidId, JOB_SUFFIX, JOBS_DIR } from "../box/paths.ts";
import type { Core } from "./core.ts";
import { boxState } from "./state.ts";
import { withQuestionLock } from "./transition.ts";

export interface Finding {
  kind:
    | "unreadable-card"
    | "interrupted-write"
    | "stale-lock"
    | "stray-job"
    | "dirty-index"
    | "ledger";
  path: string;
  problem: string;
  fix: string;
  repairable: boolean;
  repaired?: boolean;
}

export async function examineBox(core: Core): Promise<Finding[]> {
  const findings: Finding[] = [];
  const { box } = core;
  const state = boxState(core);
  for (const bad of state.unreadable) {
    findings.push({
      kind: "unreadable-card",
      path: bad.rel,
      problem: bad.reason,
      fix: "edit the file so it is a valid card (see README: card format), or remove it with git rm",
      repairable: false,
    });
  }
  // Files an interrupted write touched are its own to settle (kept if committed, else put
  // back): reporting them again as uncommitted changes would advise committing a half-write.
  const interrupted = new Set<string>();
  for (const key of pendingJournals(box)) {
    for (const rel of journalPaths(box, key)) interrupted.add(rel);
    findings.push({
      kind: "interrupted-write",
      path: `.qbridge/journal/${key}.json`,
      problem: `a write to question "${key}" was interrupted before it was committed or undone`,
      fix: "qbridge doctor --repair finishes it (keeps it if it was committed, else puts the files back)",
      repairable: true,
    });
  }
  if (existsSync(box.paths.locksDir)) {
    for (const name of readdirSync(box.paths.locksDir)) {
      if (!name.endsWith(".lock")) continue;
      const age = Date.now() - statSync(join(box.paths.locksDir, name)).mtimeMs;
      if (age > box.locks.staleMs) {
        findings.push({
          kind: "stale-lock",
          path: `.qbridge/locks/${name}`,
          problem: `a lock not refreshed for ${Math.round(age / 1000)} s: its holder is gone`,
          fix: "qbridge doctor --repair removes it (the next writer would also take it over)",
          repairable: true,
        });
      }
    }
  }
  const answered = new Set(
    state.archive.filter((v) => v.card.status === "answered").map((v) => v.id),
  );
  const status = await box.git.status([
    "--porcelain",
    "--untracked-files=all",
    "--",
    "_bookkeeping",
  ]);
  for (const file of status.files) {
    const rel = file.path;
    if (interrupted.has(rel)) continue;
    const isJob = rel.startsWith(`${JOBS_DIR}/`) && rel.endsWith(JOB_SUFFIX);
    const id = isJob ? rel.slice(JOBS_DIR.length + 1, -JOB_SUFFIX.length) : undefined;
    if (isJob && id && isValidId(id) && !answered.has(id) && file.index === "?") {
      findings.push({
        kind: "stray-job",
        path: rel,
        problem: `an uncommitted follow-up job for question "${id}", which is not answered: left by an interrupted answer`,
        fix: "qbridge doctor --repair removes it; answering the question again writes it anew",
        repairable: true,
      });
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
        : `review it, then "git -C ${box.paths.root} add ${rel} && git commit", or discard it with git checkout`,
      repairable: staged,
    });
  }
  const integrity = safeIntegrity(core);
  if (integrity !== "ok") {
    findings.push({
      kind: "ledger",
      path: ".qbridge/ledger.sqlite",
      problem: `the ledger fails its integrity check: ${integrity}`,
      fix: "stop the service and delete .qbridge/ledger.sqlite: it is rebuilt; only old buttons and nudge latches are lost",
      repairable: false,
    });
  }
  return findings;
}

function safeIntegrity(core: Core): string {
  try {
    return core.ledger.integrity();
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

export async function repairBox(core: Core, findings: Finding[]): Promise<Finding[]> {
  const { box } = core;
  for (const finding of findings) {
    if (!finding.repairable) continue;
    switch (finding.kind) {
      case "interrupted-write": {
        const key = finding.path.slice(".qbridge/journal/".length, -".json".length);
        if (isValidId(key)) await withQuestionLock(core, key, async () => undefined);
        else await recover(box, key);
        break;
      }
      case "stale-lock":
        rmSync(join(box.paths.root, finding.path), { recursive: true, force: true });
        break;
      case "stray-job": {
        const id = finding.path.slice(JOBS_DIR.length + 1, -JOB_SUFFIX.length);
        await withQuestionLock(core, id, async () => {
          rmSync(join(box.paths.root, finding.path), { force: true });
        });
        break;
      }
      case "dirty-index":
        await box.git.raw(["reset", "--quiet", "--", finding.path]);
        break;
      default:
        continue;
    }
    finding.repaired = true;
  }
  return findings;
}
