// `/healthz` for deploy probes: can the box and the ledger be read, and is git clean.
// A dirty working tree is reported, not failed: it is a person's edit, not an outage.
// It names no question and needs no link.

import { readdirSync } from "node:fs";
import { Hono } from "hono";
import type { Core } from "../questions/core.ts";

export interface Health {
  ok: boolean;
  box: { readable: boolean; gitClean?: boolean; problem?: string };
  ledger: { readable: boolean; lastSweep?: string | null; problem?: string };
}

function problemOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export async function checkHealth(core: Core): Promise<Health> {
  let box: Health["box"];
  try {
    readdirSync(core.box.paths.questionsDir);
    const status = await core.box.git.status(["--porcelain"]);
    box = { readable: true, gitClean: status.files.length === 0 };
  } catch (error) {
    box = { readable: false, problem: problemOf(error) };
  }
  let ledger: Health["ledger"];
  try {
    ledger = { readable: true, lastSweep: core.ledger.getMeta("last-sweep") ?? null };
  } catch (error) {
    ledger = { readable: false, problem: problemOf(error) };
  }
  return { ok: box.readable && ledger.readable, box, ledger };
}

export function healthRoutes(core: Core): Hono {
  const app = new Hono();
  app.get("/healthz", async (c) => {
    const health = await checkHealth(core);
    return c.json(health, health.ok ? 200 : 503);
  });
  return app;
}
