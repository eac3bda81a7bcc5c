// An IPv6 address can carry an IPv4 one in its bits: NAT64 (64:ff9b::a9fe:a9fe), 6to4
// (2002:a9fe:a9fe::1), IPv4-compatible (::127.0.0.1), IPv4-mapped (::ffff:a9fe:a9fe). A
// receiver written so, or whose name resolves so, reaches the IPv4 address it carries, and is
// refused as that address is: at ask time and at send time. One that carries a public address
// is not; a plain IPv4 address is never caught by an IPv6 rule. And `qbridge doctor` names a
// box-wide QBRIDGE_WEBHOOK_URL every send would refuse, with the fix.

import { afterEach, describe, expect, it } from "vitest";
import { isBlockedAddress } from "../../src/card/callback-address.ts";
import { BRIDGES } from "../../src/cli/bridges.ts";
import { doctorChecks } from "../../src/cli/doctor-checks.ts";
import { loadConfig } from "../../src/config.ts";
import { InvalidInput } from "../../src/errors.ts";
import { answerQuestion } from "../../src/questions/answer.ts";
import { askQuestion } from "../../src/questions/ask.ts";
import { examineBox } from "../../src/questions/doctor/doctor.ts";
import { createWebhookSender } from "../../src/webhooks/delivery.ts";
import { allDeliveries } from "../../src/webhooks/outbox.ts";
import { cleanupBoxes, confirmCard, makeBox, T0, type TestBox } from "../support/box.ts";

const SECRET = "webhook-secret-0123456789abcdef";
const allowed = process.env.QBRIDGE_WEBHOOK_ALLOW;
afterEach(() => {
  process.env.QBRIDGE_WEBHOOK_ALLOW = allowed;
  cleanupBoxes();
});

const CARRYING_PRIVATE = [
  "64:ff9b::a9fe:a9fe", // NAT64 of 169.254.169.254, the metadata service
  "2002:a9fe:a9fe::1", // 6to4 of 169.254.169.254
  "::127.0.0.1", // IPv4-compatible loopback
  "::ffff:a9fe:a9fe", // IPv4-mapped 169.254.169.254
  "64:ff9b::a00:1", // NAT64 of 10.0.0.1
  "2002:c0a8:101::1", // 6to4 of 192.168.1.1
];

async function webhookBox(): Promise<TestBox> {
  const tb = await makeBox();
  tb.webhooks = { url: undefined };
  return tb;
}

describe("IPv6 receivers that carry a private IPv4 address", () => {
  it("are refused at ask time", async () => {
    process.env.QBRIDGE_WEBHOOK_ALLOW = "";
    const tb = await webhookBox();
    for (const address of CARRYING_PRIVATE) {
      const asked = askQuestion(tb, confirmCard({ callback: `http://[${address}]/hook` }));
      await expect(asked).rejects.toBeInstanceOf(InvalidInput);
      await expect(asked).rejects.toThrow(/the callback is refused: its address .* is loopback/);
    }
  });

  it("are refused at send time when a receiver's name resolves to them", async () => {
    process.env.QBRIDGE_WEBHOOK_ALLOW = "";
    const tb = await webhookBox();
    const hosts = CARRYING_PRIVATE.map((_, i) => `hook${i}.example.org`);
    for (const host of hosts) {
      const { id } = await askQuestion(
        tb,
        confirmCard({ prompt: `Ship ${host}?`, callback: `https://${host}/h` }),
      );
      await answerQuestion(tb, id, { text: "yes" }, { via: "cli" });
    }
    const sender = createWebhookSender({
      core: tb,
      secret: SECRET,
      giveUpAfterMs: 3_600_000,
      resolve: async (host: string) => [
        { address: CARRYING_PRIVATE[hosts.indexOf(host)] as string, family: 6 },
      ],
    });
    await sender.deliverDue();
    await sender.stop();
    const rows = allDeliveries(tb.ledger);
    expect(rows).toHaveLength(CARRYING_PRIVATE.length);
    for (const row of rows) {
      const host = new URL(row.url).hostname;
      const address = CARRYING_PRIVATE[hosts.indexOf(host)];
      expect(row.tries).toBe(0);
      expect(row.lastError).toBe(
        `refused: ${host} resolves to ${address}, a loopback, private, link-local or unique-local address (QBRIDGE_WEBHOOK_ALLOW can name ${host})`,
      );
    }
  });

  it("one carrying a public address passes, and no IPv4 address is caught by an IPv6 rule", () => {
    for (const address of ["64:ff9b::808:808", "2002:5db8:d822::1", "::ffff:8.8.8.8"]) {
      expect(isBlockedAddress(address)).toBe(false);
    }
    for (const address of ["8.8.8.8", "93.184.216.34", "1.1.1.1", "203.0.113.7"]) {
      expect(isBlockedAddress(address)).toBe(false);
    }
    expect(isBlockedAddress("127.0.0.1")).toBe(true);
  });
});

describe("qbridge doctor and QBRIDGE_WEBHOOK_URL", () => {
  it("names a box-wide receiver every send would refuse, with the fix", async () => {
    process.env.QBRIDGE_WEBHOOK_ALLOW = "";
    const tb = await makeBox();
    const config = loadConfig(
      {
        QBRIDGE_BOX: tb.dir,
        QBRIDGE_TIME: T0,
        QBRIDGE_WEBHOOK_URL: "http://169.254.169.254/",
        QBRIDGE_WEBHOOK_SECRET: SECRET,
      },
      {},
      BRIDGES,
    );
    const findings = await examineBox(tb, {
      checks: await doctorChecks(config),
      facts: [],
      sweepMinutes: config.sweepMinutes,
    });
    const webhook = findings.filter((f) => f.kind === "webhook");
    expect(webhook).toHaveLength(1);
    expect(webhook[0]?.problem).toBe(
      "QBRIDGE_WEBHOOK_URL http://169.254.169.254/ is refused at every send: its address 169.254.169.254 is loopback, private, link-local or unique-local (QBRIDGE_WEBHOOK_ALLOW can name it)",
    );
    expect(webhook[0]?.fix).toContain("QBRIDGE_WEBHOOK_ALLOW");
  });
});
