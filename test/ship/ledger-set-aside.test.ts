// Story: the ledger file is damaged (a disk fault, a bad restore). Whichever process opens it
// first sets it aside and starts a fresh one, so answers go on; but the fresh ledger has no
// pairing, no nudge latches and no button tokens, and the operator is told so, once, by that
// process: a command on stderr, `serve` in its log and its start-up lines.

import { writeFileSync } from "node:fs";
import { join } from "node:path";
import pino from "pino";
import { afterAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config.ts";
import { askQuestion } from "../../src/questions/ask.ts";
import { startService } from "../../src/service.ts";
import { cleanupBoxes, cliEnv, makeBox, runCli, selectCard, T0 } from "../support/box.ts";

afterAll(cleanupBoxes);

const GARBAGE = Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919 + 13) % 256));

/** A box with one question whose ledger was overwritten with garbage. */
async function boxWithDamagedLedger(): Promise<{ dir: string; id: string }> {
  const tb = await makeBox();
  const { id } = await askQuestion(tb, selectCard());
  tb.ledger.close();
  writeFileSync(join(tb.dir, ".qbridge/ledger.sqlite"), GARBAGE);
  return { dir: tb.dir, id };
}

const SET_ASIDE =
  /the ledger .*ledger\.sqlite could not be read .*; it was moved to .*ledger\.sqlite\.corrupt-\d+ and a fresh one started: .*pair again/;

describe("a damaged ledger set aside is reported", () => {
  it("by the command that set it aside, on stderr, and the command still does its job", async () => {
    const { dir, id } = await boxWithDamagedLedger();
    const listed = await runCli(["list"], { env: cliEnv(dir) });
    expect(listed.code).toBe(0);
    expect(listed.stdout).toContain(id);
    expect(listed.stderr).toMatch(SET_ASIDE);
    // Once: the next command finds the fresh ledger.
    const again = await runCli(["list"], { env: cliEnv(dir) });
    expect(again.stderr).toBe("");
  });

  it("by serve, in its log and among its start-up lines", async () => {
    const { dir } = await boxWithDamagedLedger();
    const lines: string[] = [];
    const logger = pino({ level: "info" }, { write: (line: string) => void lines.push(line) });
    const config = loadConfig({ QBRIDGE_TIME: T0 }, { box: dir });
    const service = await startService({ config, logger, web: false });
    await service.stop();
    expect(service.started.join("\n")).toMatch(SET_ASIDE);
    const warned = lines.map((l) => JSON.parse(l)).filter((l) => l.level === 40);
    expect(warned).toMatchObject([{ msg: expect.stringMatching(SET_ASIDE) }]);
  });
});
