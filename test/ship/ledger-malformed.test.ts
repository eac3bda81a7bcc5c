// Story: the ledger is an SQLite file that still opens, but a page of it is garbage (a disk
// fault, a torn restore): it fails SQLite's integrity check, and reads of that page say
// "database disk image is malformed". Answers go on (the box is the truth); `/healthz` says the
// ledger is not ok and why; the service's next start sets it aside as it does a file that is
// no database at all, says so, and starts a fresh one.

import { closeSync, openSync, readdirSync, readFileSync, statSync, writeSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import pino from "pino";
import { afterAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config.ts";
import { Ledger } from "../../src/ledger/ledger.ts";
import { answerQuestion } from "../../src/questions/answer.ts";
import { askQuestion } from "../../src/questions/ask.ts";
import { loadQuestion } from "../../src/questions/store.ts";
import { startService } from "../../src/service.ts";
import { createHealthProbe, healthRoutes } from "../../src/web/health.ts";
import { cleanupBoxes, makeBox, selectCard, T0 } from "../support/box.ts";

afterAll(cleanupBoxes);

/** What SQLite's own check says of the file: "ok", its findings, or the error it throws. */
function integrityOf(path: string): string {
  const db = new Database(path, { readonly: true });
  try {
    return (db.pragma("integrity_check") as { integrity_check: string }[])
      .map((row) => row.integrity_check)
      .join("; ");
  } catch (error) {
    return (error as Error).message;
  } finally {
    db.close();
  }
}

/** A box with one question whose ledger opens but has its last page overwritten. */
async function boxWithMalformedLedger() {
  const tb = await makeBox();
  const { id } = await askQuestion(tb, selectCard());
  for (let i = 0; i < 300; i++) {
    tb.ledger.audit({
      at: T0,
      surface: "cli",
      action: "note",
      outcome: "applied",
      detail: "x".repeat(100),
    });
  }
  const pageSize = tb.ledger.db.pragma("page_size", { simple: true }) as number;
  tb.ledger.close();
  const path = tb.box.paths.ledgerPath;
  const pages = statSync(path).size / pageSize;
  const fd = openSync(path, "r+");
  writeSync(fd, Buffer.alloc(pageSize, 0xa5), 0, pageSize, (pages - 1) * pageSize);
  closeSync(fd);
  expect(integrityOf(path)).not.toBe("ok");
  return { tb, id, path };
}

describe("a ledger that opens but fails SQLite's integrity check", () => {
  it("costs no answer: the answer is committed", async () => {
    const { tb, id, path } = await boxWithMalformedLedger();
    const ledger = new Ledger(path);
    const core = { box: tb.box, ledger };
    await answerQuestion(core, id, { text: "a" }, { via: "cli" });
    ledger.close();
    expect(loadQuestion(core, id).card.status).toBe("answered");
  });

  it("makes /healthz say the ledger is not ok, and why", async () => {
    const { tb, path } = await boxWithMalformedLedger();
    const ledger = new Ledger(path);
    const probe = createHealthProbe({ box: tb.box, ledger });
    const response = await healthRoutes(probe).request("/healthz");
    ledger.close();
    expect(response.status).toBe(503);
    const health = await response.json();
    expect(health.ok).toBe(false);
    expect(health.ledger.problem).toMatch(
      /^the ledger fails SQLite's integrity check \(.+\): restart the service/,
    );
  });

  it("is set aside by the service's next start, which says so and starts a fresh one", async () => {
    const { tb, path } = await boxWithMalformedLedger();
    const damaged = readFileSync(path);
    const lines: string[] = [];
    const logger = pino({ level: "info" }, { write: (line: string) => void lines.push(line) });
    const config = loadConfig({ QBRIDGE_TIME: T0 }, { box: tb.dir });
    const service = await startService({ config, logger, web: false });
    await service.stop();
    const notice =
      /the ledger .*ledger\.sqlite fails SQLite's integrity check \(.+\); it was moved to .*ledger\.sqlite\.corrupt-\d+ and a fresh one started: .*pair again/;
    expect(service.started.join("\n")).toMatch(notice);
    const warned = lines.map((l) => JSON.parse(l)).filter((l) => l.level === 40);
    expect(warned).toMatchObject([{ msg: expect.stringMatching(notice) }]);
    const aside = readdirSync(join(tb.dir, ".qbridge")).filter((n) => /\.corrupt-\d+$/.test(n));
    expect(aside).toHaveLength(1);
    expect(readFileSync(join(tb.dir, ".qbridge", aside[0] as string))).toEqual(damaged);
    expect(integrityOf(path)).toBe("ok");
  });
});
