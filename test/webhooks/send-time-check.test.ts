// At send time a receiver's host is resolved, every address it resolves to is checked against
// the callback rule (src/card/callback-address.ts), and the request goes to exactly the address
// checked. A name that passed the ask-time check (a public-looking name, a card written by hand,
// an allow setting changed since) but resolves to a private address is refused: the delivery
// gives up at once, saying what was refused and how to allow it. The resolver is a real
// function the test passes (DNS cannot run here); the receivers are real, on loopback.

import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import type { Server } from "node:http";
import { createServer as createTlsServer } from "node:https";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { answerQuestion } from "../../src/questions/answer.ts";
import { askQuestion } from "../../src/questions/ask.ts";
import { createWebhookSender, type WebhookSender } from "../../src/webhooks/delivery.ts";
import { allDeliveries } from "../../src/webhooks/outbox.ts";
import {
  cleanupBoxes,
  cliEnv,
  confirmCard,
  makeBox,
  runCli,
  T0,
  type TestBox,
} from "../support/box.ts";
import { closeReceivers, receiver, track } from "./receivers.ts";

const SECRET = "webhook-secret-0123456789abcdef";
const allowed = process.env.QBRIDGE_WEBHOOK_ALLOW;
const senders: WebhookSender[] = [];
afterEach(async () => {
  process.env.QBRIDGE_WEBHOOK_ALLOW = allowed;
  for (const s of senders.splice(0)) await s.stop();
  await closeReceivers();
  cleanupBoxes();
});

/** A resolver answering from a fixed table, counting what it was asked. */
function table(names: Record<string, string[]>) {
  const asked: string[] = [];
  const resolve = async (host: string) => {
    asked.push(host);
    const addresses = names[host];
    if (!addresses)
      throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: "ENOTFOUND" });
    return addresses.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));
  };
  return { asked, resolve };
}

async function answeredWithCallback(callback: string): Promise<{ tb: TestBox; id: string }> {
  const tb = await makeBox();
  tb.webhooks = { url: undefined };
  const { id } = await askQuestion(tb, confirmCard({ callback }));
  await answerQuestion(tb, id, { text: "yes" }, { via: "cli" });
  return { tb, id };
}

function sender(tb: TestBox, resolve: ReturnType<typeof table>["resolve"], timeoutMs = 2_000) {
  const s = createWebhookSender({
    core: tb,
    secret: SECRET,
    giveUpAfterMs: 24 * 3_600_000,
    timeoutMs,
    firstRetryMs: 20,
    pollMs: 50,
    resolve,
  });
  senders.push(s);
  return s;
}

describe("the send-time check of a receiver's addresses", () => {
  it("refuses a name that resolves to a loopback address, though it passed at ask time", async () => {
    const hook = await receiver();
    process.env.QBRIDGE_WEBHOOK_ALLOW = "";
    const { tb, id } = await answeredWithCallback(`http://hooks.example.org:${hook.port}/hook`);
    const dns = table({ "hooks.example.org": ["127.0.0.1"] });
    await sender(tb, dns.resolve).deliverDue();

    expect(dns.asked).toEqual(["hooks.example.org"]);
    expect(hook.received).toEqual([]);
    const [row] = allDeliveries(tb.ledger);
    expect(row?.key).toBe(`${id}:answered`);
    expect(row?.deliveredAt).toBeUndefined();
    // Given up at once (a refusal is not retried), with what was refused and how to allow it.
    expect(row?.gaveUpAt).toBeDefined();
    expect(row?.lastError).toBe(
      "refused: hooks.example.org resolves to 127.0.0.1, a loopback, private, link-local or unique-local address (QBRIDGE_WEBHOOK_ALLOW can name hooks.example.org)",
    );
    expect(await sender(tb, dns.resolve).deliverDue()).toBe(0);
    expect(hook.received).toEqual([]);
    const doctor = await runCli(["doctor", "--json"], { env: cliEnv(tb.dir) });
    const findings = JSON.parse(doctor.stdout).findings as { kind: string; problem: string }[];
    expect(findings.filter((f) => f.kind === "webhook").map((f) => f.problem)).toEqual([
      `the outcome ${id}:answered was not delivered to http://hooks.example.org:${hook.port}/hook: hooks.example.org resolves to 127.0.0.1, a loopback, private, link-local or unique-local address (QBRIDGE_WEBHOOK_ALLOW can name hooks.example.org), so it was refused at ${T0} without a try`,
    ]);
  });

  it("refuses when any one of the addresses is private, and an allow setting changed since ask", async () => {
    process.env.QBRIDGE_WEBHOOK_ALLOW = "hooks.example.org";
    const { tb } = await answeredWithCallback("https://hooks.example.org/hook");
    process.env.QBRIDGE_WEBHOOK_ALLOW = "";
    const dns = table({ "hooks.example.org": ["93.184.216.34", "10.1.2.3"] });
    await sender(tb, dns.resolve).deliverDue();
    // Nothing was sent: the refusal is not counted as a try.
    expect(allDeliveries(tb.ledger)[0]).toMatchObject({
      tries: 0,
      lastError: expect.stringMatching(/^refused: hooks\.example\.org resolves to 10\.1\.2\.3, /),
    });
    expect(allDeliveries(tb.ledger)[0]?.gaveUpAt).toBeDefined();
  });

  it("refuses a card written by hand with a numeric loopback callback", async () => {
    const hook = await receiver();
    process.env.QBRIDGE_WEBHOOK_ALLOW = "";
    const { tb } = await answeredWithCallback(`http://hooks.example.org:${hook.port}/hook`);
    // The callback as a hand edit leaves it: a numeric form of 127.0.0.1, never resolved.
    tb.ledger.db
      .prepare("UPDATE webhook_deliveries SET url = ?")
      .run(`http://2130706433:${hook.port}/hook`);
    await sender(tb, table({}).resolve).deliverDue();
    expect(hook.received).toEqual([]);
    expect(allDeliveries(tb.ledger)[0]?.lastError).toMatch(/^refused: its address 127\.0\.0\.1 /);
  });

  it("with the host allowed, connects to exactly the address it checked, with the name as Host", async () => {
    const hook = await receiver();
    process.env.QBRIDGE_WEBHOOK_ALLOW = "receiver.test";
    // receiver.test is in no DNS: only the checked address can reach the receiver.
    const { tb, id } = await answeredWithCallback(`http://receiver.test:${hook.port}/hook`);
    const dns = table({ "receiver.test": ["127.0.0.1"] });
    await sender(tb, dns.resolve).deliverDue();
    expect(dns.asked).toEqual(["receiver.test"]);
    expect(hook.received).toHaveLength(1);
    expect(hook.received[0]?.headers.host).toBe(`receiver.test:${hook.port}`);
    expect(hook.received[0]?.headers["idempotency-key"]).toBe(`${id}:answered`);
    expect(allDeliveries(tb.ledger)[0]?.deliveredAt).toBeDefined();
  });

  it("a resolver that never answers ends with the try's time limit", async () => {
    process.env.QBRIDGE_WEBHOOK_ALLOW = "";
    const { tb } = await answeredWithCallback("https://hooks.example.org/hook");
    await sender(tb, () => new Promise(() => undefined), 200).deliverDue();
    expect(allDeliveries(tb.ledger)[0]).toMatchObject({
      tries: 1,
      lastError: "no answer within 0.2 s",
    });
  });

  it("over TLS sends the host's name and verifies the certificate, though connected by address", async () => {
    // A self-signed certificate for receiver.test: a verifying client refuses it.
    const dir = mkdtempSync(join(tmpdir(), "qbridge-tls-"));
    const [key, cert] = [join(dir, "key.pem"), join(dir, "cert.pem")];
    execFileSync(
      "openssl",
      [
        ...["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1"],
        ...["-nodes", "-keyout", key, "-out", cert, "-days", "1", "-subj", "/CN=receiver.test"],
        ...["-addext", "subjectAltName=DNS:receiver.test"],
      ],
      { stdio: "ignore" },
    );
    const names: string[] = [];
    const requests: string[] = [];
    const server = createTlsServer(
      {
        key: readFileSync(key),
        cert: readFileSync(cert),
        SNICallback: (name, done) => {
          names.push(name);
          done(null);
        },
      },
      (req, res) => {
        requests.push(String(req.url));
        res.end();
      },
    );
    rmSync(dir, { recursive: true, force: true });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    track(server as unknown as Server);
    const { port } = server.address() as AddressInfo;
    process.env.QBRIDGE_WEBHOOK_ALLOW = "receiver.test";
    const { tb } = await answeredWithCallback(`https://receiver.test:${port}/hook`);
    await sender(tb, table({ "receiver.test": ["127.0.0.1"] }).resolve).deliverDue();

    expect(names).toEqual(["receiver.test"]);
    expect(requests).toEqual([]);
    // An ordinary failure, retried: the receiver may yet get a certificate a client trusts.
    expect(allDeliveries(tb.ledger)[0]).toMatchObject({
      tries: 1,
      lastError: "DEPTH_ZERO_SELF_SIGNED_CERT",
    });
    expect(allDeliveries(tb.ledger)[0]?.gaveUpAt).toBeUndefined();
  });
});
