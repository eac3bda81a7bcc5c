// `/healthz` for deploy probes: can the box and the ledger be read, does the ledger pass
// SQLite's quick check, is git clean, is any git lock file blocking commits, and the parts the service contributes (a chat bridge's state).
// A dirty working tree is reported, not failed: it is a person's edit, not an outage.
// It names no question and needs no link, so anyone can call it as often as they like: a
// request never runs git. It reads a state refreshed in the background, at most one refresh
// at a time and one per `maxAgeMs`, so a flood of probes costs the answers nothing.

import { readdirSync } from "node:fs";
import { Hono } from "hono";
import { gitLockFiles } from "../box/commit-lock.ts";
import { statusEntries } from "../box/git-status.ts";
import { BOX_HEADER, boxIdentity } from "../box/identity.ts";
import type { Core } from "../questions/core.ts";

/** One named part of the health, contributed by the service (e.g. "telegram"). */
export interface HealthPart {
  ok: boolean;
  /** Why it is not ok (or what is worth knowing), in one sentence. */
  reason?: string;
}

export interface Health {
  ok: boolean;
  box: { readable: boolean; gitClean?: boolean; problem?: string };
  ledger: { readable: boolean; lastSweep?: string | null; problem?: string };
  /** Parts the service reported through `HealthProbe.report`, by name; absent when none. */
  parts?: Record<string, HealthPart>;
}

export interface HealthProbe {
  /** The box's identity (src/box/identity.ts), sent as the `Qbridge-Box` header. */
  readonly box: string;
  /** The health as last refreshed; refreshes in the background when it is older than allowed. */
  current(): Promise<Health>;
  /** Sets (or replaces) the named part; its `ok` counts toward the whole. */
  report(name: string, part: HealthPart): void;
  /** Drops a part that no longer applies. */
  forget(name: string): void;
}

export interface HealthProbeOptions {
  /** How old the box and ledger state may be before a request starts a refresh (ms). */
  maxAgeMs?: number;
  /** Older than this, a request waits for the refresh instead of showing the old state (ms). */
  waitAfterMs?: number;
  /** How old SQLite's last check of the ledger may be before a refresh checks again (ms). */
  ledgerCheckMs?: number;
}

function problemOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

type Observed = Pick<Health, "box" | "ledger">;

/**
 * The box and the ledger as they are now: reads the folder, runs one `git status`; `damage`
 * gives what SQLite's (throttled) check of the ledger last found.
 */
async function observe(core: Core, damage: () => string): Promise<Observed> {
  let box: Health["box"];
  try {
    readdirSync(core.box.paths.questionsDir);
    const entries = await statusEntries(core.box);
    box = { readable: true, gitClean: entries.length === 0 };
    // A dead qbridge git's locks go with the next commit; any other old one stops every commit.
    const stuck = gitLockFiles(core.box).find(
      (lock) => !lock.deadQbridgeGit && lock.ageMs > core.box.locks.staleMs,
    );
    if (stuck) {
      box.problem = `git's ${stuck.rel} is ${Math.round(stuck.ageMs / 1000)} s old and stops every commit: run "qbridge doctor" for how to remove it`;
    }
  } catch (error) {
    box = { readable: false, problem: problemOf(error) };
  }
  let ledger: Health["ledger"];
  try {
    ledger = { readable: true, lastSweep: core.ledger.getMeta("last-sweep") ?? null };
    const found = damage();
    if (found !== "ok") {
      ledger.problem = `the ledger fails SQLite's integrity check (${found}): restart the service, which sets it aside and starts a fresh one ("qbridge doctor" names it)`;
    }
  } catch (error) {
    ledger = { readable: false, problem: problemOf(error) };
  }
  return { box, ledger };
}

export function createHealthProbe(core: Core, options: HealthProbeOptions = {}): HealthProbe {
  const maxAgeMs = options.maxAgeMs ?? 2_000;
  const waitAfterMs = options.waitAfterMs ?? 30_000;
  const ledgerCheckMs = options.ledgerCheckMs ?? 60_000;
  const parts = new Map<string, HealthPart>();
  // The check reads every page of the ledger: once per ledgerCheckMs, not per refresh.
  let checked: { at: number; found: string } | undefined;
  const damage = () => {
    if (!checked || Date.now() - checked.at > ledgerCheckMs) {
      checked = { at: Date.now(), found: core.ledger.quickCheck() };
    }
    return checked.found;
  };
  let last: { at: number; observed: Observed } | undefined;
  let refreshing: Promise<Observed> | undefined;
  const refresh = () => {
    refreshing ??= observe(core, damage).then((observed) => {
      last = { at: Date.now(), observed };
      refreshing = undefined;
      return observed;
    });
    return refreshing;
  };
  return {
    box: boxIdentity(core.box.paths.root),
    async current() {
      const age = last ? Date.now() - last.at : Number.POSITIVE_INFINITY;
      let observed: Observed;
      if (!last || age > waitAfterMs) observed = await refresh();
      else {
        if (age > maxAgeMs) void refresh();
        observed = last.observed;
      }
      const health: Health = {
        ok:
          observed.box.readable &&
          !observed.box.problem &&
          observed.ledger.readable &&
          !observed.ledger.problem,
        ...observed,
      };
      if (parts.size > 0) {
        health.parts = Object.fromEntries(parts);
        health.ok &&= [...parts.values()].every((part) => part.ok);
      }
      return health;
    },
    report(name, part) {
      parts.set(name, { ...part });
    },
    forget(name) {
      parts.delete(name);
    },
  };
}

export function healthRoutes(probe: HealthProbe): Hono {
  const app = new Hono();
  app.get("/healthz", async (c) => {
    const health = await probe.current();
    // Which box this service serves, for `qbridge hook doctor` to compare hooks with.
    c.header(BOX_HEADER, probe.box);
    return c.json(health, health.ok ? 200 : 503);
  });
  return app;
}
