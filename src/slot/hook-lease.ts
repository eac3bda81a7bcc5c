// No question outlives the hook that waits on it. A hook process takes a holder lease
// (holder.ts) before it files anything and keeps it for its whole life; beside it, in the box's
// `.qbridge/locks/hooks/`, a record names that lease and the questions the hook waits on,
// written while git commits each one (so no question is committed without its record). The
// process that presents questions (the slot's watcher in `qbridge serve` or `qbridge chat`)
// looks at the records on every tick: a question none of whose hooks lives any more (a hook
// killed by any signal, SIGKILL included, or crashed) is withdrawn through the core, so every
// surface says the agent stopped waiting and a later answer is refused. A hook that ends in
// order withdraws its own question first and removes its record.
//
// Never withdraws a question a live hook waits on, and never decides an answer.

import { randomBytes } from "node:crypto";
import { readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { writeAtomic } from "../box/atomic.ts";
import { QuestionNotFound, TransitionRejected } from "../errors.ts";
import type { Core } from "../questions/core.ts";
import { withdrawQuestion } from "../questions/withdraw.ts";
import { createHolderLease, holderGone } from "./holder.ts";
import type { SlotLogger } from "./slot-ops.ts";

/** What every surface says of a question whose hook ended without withdrawing it. */
export const HOOK_GONE_REASON = "the agent stopped waiting: its hook ended before anyone answered";

export interface HookLease {
  /** The hook's holder id (holder.ts). */
  readonly holder: string;
  /** Records that the hook waits on `questionId`; synchronous, so it runs inside a commit. */
  waitsOn(questionId: string): void;
  /** Removes the record and gives the lease up. */
  release(): Promise<void>;
}

interface HookRecord {
  holder: string;
  questions: string[];
}

function hooksDir(locksDir: string): string {
  return join(locksDir, "hooks");
}

/** Takes this hook's lease; its record is written with the first question it waits on. */
export async function takeHookLease(
  locksDir: string,
  onLost: (error: Error) => void,
): Promise<HookLease> {
  const lease = createHolderLease(locksDir, onLost);
  const holder = await lease.acquire();
  const path = join(hooksDir(locksDir), `${randomBytes(8).toString("hex")}.json`);
  const questions: string[] = [];
  return {
    holder,
    waitsOn(questionId) {
      if (questions.includes(questionId)) return;
      questions.push(questionId);
      writeAtomic(path, JSON.stringify({ holder, questions } satisfies HookRecord), {
        durable: false,
      });
    },
    async release() {
      rmSync(path, { force: true });
      await lease.release();
    },
  };
}

function recordAt(path: string): HookRecord | undefined {
  try {
    const value = JSON.parse(readFileSync(path, "utf8")) as Partial<HookRecord>;
    if (typeof value.holder !== "string" || !Array.isArray(value.questions)) return undefined;
    return { holder: value.holder, questions: value.questions.map(String) };
  } catch {
    return undefined;
  }
}

/** Every hook record, with whether its hook is gone. */
function hookRecords(locksDir: string): { path: string; record: HookRecord; gone: boolean }[] {
  const dir = hooksDir(locksDir);
  let names: string[];
  try {
    names = readdirSync(dir).filter((name) => name.endsWith(".json"));
  } catch {
    return [];
  }
  return names.flatMap((name) => {
    const path = join(dir, name);
    const record = recordAt(path);
    return record ? [{ path, record, gone: holderGone(locksDir, record.holder) }] : [];
  });
}

/**
 * Withdraws each question whose every hook is gone, unless it was decided first; returns the
 * ids withdrawn. A record is removed once its questions are settled; one whose withdrawal
 * failed otherwise (a locked index, a full disk) stays for the next tick.
 */
export async function withdrawForGoneHooks(core: Core, logger: SlotLogger): Promise<string[]> {
  const records = hookRecords(core.box.paths.locksDir);
  const waitedOn = new Set(
    records.filter((r) => !r.gone).flatMap(({ record }) => record.questions),
  );
  const withdrawn: string[] = [];
  for (const { path, record, gone } of records) {
    if (!gone) continue;
    let settled = true;
    for (const id of record.questions) {
      if (waitedOn.has(id)) continue;
      try {
        await withdrawQuestion(core, id, { via: "hook" }, { reason: HOOK_GONE_REASON });
        withdrawn.push(id);
        logger.info({ question: id }, "withdrawn: its hook ended before anyone answered");
      } catch (error) {
        if (error instanceof TransitionRejected || error instanceof QuestionNotFound) continue;
        settled = false;
        logger.warn({ err: error, question: id }, "could not withdraw a question of a gone hook");
      }
    }
    if (settled) rmSync(path, { force: true });
  }
  return withdrawn;
}
