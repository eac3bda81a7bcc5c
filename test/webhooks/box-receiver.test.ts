// The box-wide receiver (QBRIDGE_WEBHOOK_URL of `qbridge serve`) is owed by every writer of the
// box, also one whose environment lacks the variable (a CLI answer, `qbridge chat`, MCP on
// stdio, a cron `qbridge age`): serve records its receiver in the ledger when it starts, and
// each writer owes what is recorded there. A serve started without one clears it.

import pino from "pino";
import { afterEach, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config.ts";
import { Ledger } from "../../src/ledger/ledger.ts";
import { startService } from "../../src/service.ts";
import { allDeliveries } from "../../src/webhooks/outbox.ts";
import { cleanupBoxes, cliEnv, confirmCard, makeBox, runCli, T0 } from "../support/box.ts";
import { eventually } from "../support/child.ts";
import { closeReceivers, receiver } from "./receivers.ts";

const SECRET = "webhook-secret-0123456789abcdef";
afterEach(async () => {
  await closeReceivers();
  cleanupBoxes();
});

function serve(dir: string, env: Record<string, string>) {
  const config = loadConfig({ QBRIDGE_TIME: T0, ...env }, { box: dir });
  return startService({ config, logger: pino({ level: "silent" }), web: false });
}

/** A CLI process with no webhook setting at all: it knows nothing of the receiver. */
async function askAndAnswer(dir: string): Promise<string> {
  const env = cliEnv(dir);
  const asked = await runCli(["ask", "--json"], { env, input: JSON.stringify(confirmCard()) });
  expect(asked.code, asked.stderr).toBe(0);
  const { id } = JSON.parse(asked.stdout) as { id: string };
  const answered = await runCli(["answer", id, "yes"], { env });
  expect(answered.code, answered.stderr).toBe(0);
  return id;
}

describe("the box-wide receiver", () => {
  it("gets a transition made by a CLI process without QBRIDGE_WEBHOOK_URL, exactly once", async () => {
    const hook = await receiver();
    const tb = await makeBox();
    const service = await serve(tb.dir, {
      QBRIDGE_WEBHOOK_URL: hook.url,
      QBRIDGE_WEBHOOK_SECRET: SECRET,
    });
    let id = "";
    try {
      id = await askAndAnswer(tb.dir);
      await eventually(
        () => allDeliveries(service.core.ledger)[0]?.deliveredAt,
        10_000,
        "the delivery",
      );
      await eventually(() => hook.received.length === 1, 5_000, "the receiver to log it");
    } finally {
      await service.stop();
    }
    expect(hook.received.map((r) => r.headers["idempotency-key"])).toEqual([`${id}:answered`]);
    const ledger = new Ledger(tb.box.paths.ledgerPath);
    try {
      expect(allDeliveries(ledger).map((d) => [d.key, d.url])).toEqual([
        [`${id}:answered`, hook.url],
      ]);
    } finally {
      ledger.close();
    }
  });

  it("is forgotten when serve starts without one: nothing is owed to the old receiver", async () => {
    const hook = await receiver();
    const tb = await makeBox();
    const first = await serve(tb.dir, {
      QBRIDGE_WEBHOOK_URL: hook.url,
      QBRIDGE_WEBHOOK_SECRET: SECRET,
    });
    await first.stop();
    const second = await serve(tb.dir, { QBRIDGE_WEBHOOK_SECRET: SECRET });
    try {
      await askAndAnswer(tb.dir);
      expect(allDeliveries(second.core.ledger)).toEqual([]);
    } finally {
      await second.stop();
    }
  });
});
