// Who can bring a question to the boxholder now. Every process that presents questions (a
// `qbridge serve` whose bridge delivers, a `qbridge chat` at a terminal: the slot while it
// watches) keeps a presence record in the box's `.qbridge/locks/presence/`: the holder lease it
// holds for its life (holder.ts) and the surfaces that deliver through it now. A hook reads the
// records before it files anything: with no live record naming a surface, nobody would see its
// question, so it files nothing and the agent asks at its own prompt. A record whose holder is
// gone (its process quit or was killed, SIGKILL included) counts for nothing; its reader
// removes it.
//
// A record names only surfaces whose reader may answer what a hook files: a presenter the door
// marked askerOnly (a chat fed piped input, whose keys prove no person) is no one a hook could
// reach, whatever it shows.
//
// Never decides who may answer: a record says only that a surface would show the question.

import { randomBytes } from "node:crypto";
import { readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { writeAtomic } from "../box/atomic.ts";
import { createHolderLease, type HolderLease, holderGone } from "./holder.ts";
import type { Presenter } from "./presentation/presenter.ts";

export interface PresenceRecord {
  /** The presenting process's holder id (holder.ts): `pid:nonce@host`. */
  holder: string;
  /** The surfaces that deliver through it now (`telegram`, `terminal`, ...). */
  surfaces: string[];
}

export interface Presence {
  /**
   * Records the surfaces that deliver now, taking the lease on first use (and again when it
   * was lost); writes only when they changed.
   */
  update(surfaces: readonly string[]): Promise<void>;
  /** Removes the record and gives the lease up. */
  release(): Promise<void>;
}

/**
 * Whether a presenter reaches someone who may answer a hook's question: not one whose reader
 * proves only an asker (a piped chat).
 */
export function reachesBoxholder(presenter: Pick<Presenter, "askerOnly">): boolean {
  return presenter.askerOnly !== true;
}

function presenceDir(locksDir: string): string {
  return join(locksDir, "presence");
}

/** This process's presence record, kept in step by `update`. */
export function holdPresence(locksDir: string, onLost: (error: Error) => void): Presence {
  const path = join(presenceDir(locksDir), `${randomBytes(8).toString("hex")}.json`);
  let lease: HolderLease | undefined;
  let written: string | undefined;
  let lost = false;
  const fresh = () => {
    lost = false;
    written = undefined;
    return createHolderLease(locksDir, (error) => {
      lost = true;
      onLost(error);
    });
  };
  return {
    async update(surfaces) {
      if (lost) await lease?.release();
      if (!lease || lost) lease = fresh();
      const holder = await lease.acquire();
      const text = JSON.stringify({ holder, surfaces: [...surfaces].sort() });
      if (text === written) return;
      writeAtomic(path, text, { durable: false });
      written = text;
    },
    async release() {
      rmSync(path, { force: true });
      written = undefined;
      await lease?.release();
      lease = undefined;
    },
  };
}

function recordAt(path: string): PresenceRecord | undefined {
  try {
    const value = JSON.parse(readFileSync(path, "utf8")) as Partial<PresenceRecord>;
    if (typeof value.holder !== "string" || !Array.isArray(value.surfaces)) return undefined;
    return { holder: value.holder, surfaces: value.surfaces.map(String) };
  } catch {
    return undefined;
  }
}

/**
 * The presence records of processes that live, each naming what delivers through it; a record
 * whose holder is gone is removed. A record this version cannot read is passed over.
 */
export function livePresence(locksDir: string): PresenceRecord[] {
  const dir = presenceDir(locksDir);
  let names: string[];
  try {
    names = readdirSync(dir).filter((name) => name.endsWith(".json"));
  } catch {
    return [];
  }
  const live: PresenceRecord[] = [];
  for (const name of names) {
    const record = recordAt(join(dir, name));
    if (!record) continue;
    if (holderGone(locksDir, record.holder)) rmSync(join(dir, name), { force: true });
    else live.push(record);
  }
  return live;
}

/** The surfaces some live process delivers through now; empty when nobody can be reached. */
export function reachableSurfaces(locksDir: string): string[] {
  return [...new Set(livePresence(locksDir).flatMap((record) => record.surfaces))].sort();
}
