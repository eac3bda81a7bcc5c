// Answer webhooks against a real receiver on loopback: each transition's outcome arrives
// signed, once, however often the receiver fails first, across a restart and a writer killed
// after its commit; a receiver that never answers is given up on after the window, and
// `qbridge doctor` lists it.

import { createHmac } from "node:crypto";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import pino from "pino";
import { afterEach, describe, expect, it } from "vitest";
import { type Clock, toIso } from "../../src/box/clock.ts";
import { loadConfig } from "../../src/config.ts";
import { Ledger } from "../../src/ledger/ledger.ts";
import { answerQuestion } from "../../src/questions/answer.ts";
import { askQuestion } from "../../src/questions/ask.ts";
import { dismissQuestion } from "../../src/questions/close.ts";
import type { Core } from "../../src/questions/core.ts";
import { QuestionOutcomeSchema } from "../../src/questions/outcome.ts";
import { settleInterruptedWrites } from "../../src/questions/transition.ts";
import { startService } from "../../src/service.ts";
import { createWebhookSender, type WebhookSender } from "../../src/webhooks/delivery.ts";
import { allDeliveries } from "../../src/webhooks/outbox.ts";
import { waitUntilLocksStale } from "../reliability/invariants.ts";
import {
  cleanupBoxes,
  cliEnv,
  confirmCard,
  makeBox,
  runCli,
  selectCard,
  T0,
} from "../support/box.ts";
import { eventually } from "../support/child.ts";

const SECRET = "webhook-secret-0123456789abcdef";

interface Received {
  headers: IncomingMessage["headers"];
  body: string;
  status: number;
}

/** A loopback receiver answering each request as `answer(n)` says (n counts from 1). */
async function receiver(answer: (n: number) => number | "hang" = () => 200) {
  const received: Received[] = [];
  const server: Server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => {
      body += chunk;
    });
    req.on("end", () => {
      const status = answer(received.length + 1);
      received.push({ headers: req.headers, body, status: status === "hang" ? 0 : status });
      if (status === "hang") return;
      res.writeHead(status, status >= 300 && status < 400 ? { location: redirectTo } : {});
      res.end();
    });
  });
  let redirectTo = "";
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  servers.push(server);
  return {
    url: `http://127.0.0.1:${port}/hook`,
    port,
    received,
    redirect(to: string) {
      redirectTo = to;
    },
    successes: (key: string) =>
      received.filter((r) => r.headers["idempotency-key"] === key && r.status === 200).length,
  };
}

const servers: Server[] = [];
const senders: WebhookSender[] = [];
afterEach(async () => {
  for (const s of senders.splice(0)) await s.stop();
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
  cleanupBoxes();
});

function sender(core: Core, options: Partial<Parameters<typeof createWebhookSender>[0]> = {}) {
  const s = createWebhookSender({
    core,
    secret: SECRET,
    giveUpAfterMs: 24 * 3_600_000,
    timeoutMs: 2_000,
    firstRetryMs: 20,
    pollMs: 50,
    ...options,
  });
  senders.push(s);
  return s;
}

async function webhookBox(url: string) {
  const tb = await makeBox();
  tb.webhooks = { url };
  return tb;
}

describe("answer webhooks", () => {
  it("POSTs the outcome signed with the secret, keyed <id>:<status>, once per transition", async () => {
    const hook = await receiver();
    const tb = await webhookBox(hook.url);
    const { id } = await askQuestion(tb, selectCard());
    expect(allDeliveries(tb.ledger)).toEqual([]); // asking owes nothing
    sender(tb).start();
    await answerQuestion(tb, id, { text: "a" }, { via: "telegram", by: "7" });
    // Delivered once the sender has the receiver's 2xx (the receiver logs the request before).
    await eventually(() => allDeliveries(tb.ledger)[0]?.deliveredAt, 10_000, "the webhook");
    expect(hook.received).toHaveLength(1);

    const [got] = hook.received;
    const expected = `sha256=${createHmac("sha256", SECRET)
      .update(got?.body as string)
      .digest("hex")}`;
    expect(got?.headers["x-qbridge-signature"]).toBe(expected);
    expect(got?.headers["idempotency-key"]).toBe(`${id}:answered`);
    expect(got?.headers["content-type"]).toBe("application/json");
    expect(QuestionOutcomeSchema.parse(JSON.parse(got?.body as string))).toMatchObject({
      id,
      status: "answered",
      answeredVia: "telegram",
      answer: { text: "Finance", selected: "finance" },
    });
    expect(allDeliveries(tb.ledger)).toMatchObject([{ tries: 1, deliveredAt: T0 }]);
  });

  it("the log names a receiver by its origin only: a capability URL's path and query stay out", async () => {
    const ok = await receiver();
    const failing = await receiver(() => 500);
    const secretPart = "/hook/T0/B0/capability-9f2c?token=s3cret-query";
    const tb = await makeBox();
    tb.webhooks = { url: `${ok.url}${secretPart}` };
    const logged: string[] = [];
    const logger = {
      info: (obj: object, msg: string) => logged.push(JSON.stringify({ ...obj, msg })),
      warn: (obj: object, msg: string) => logged.push(JSON.stringify({ ...obj, msg })),
    };
    const { id } = await askQuestion(tb, confirmCard());
    await answerQuestion(tb, id, { text: "yes" }, { via: "cli" });
    await sender(tb, { logger }).deliverDue();
    tb.webhooks = { url: `${failing.url}${secretPart}` };
    const other = await askQuestion(tb, selectCard());
    await dismissQuestion(tb, other.id, { via: "cli" });
    await sender(tb, { logger, giveUpAfterMs: 0 }).deliverDue();

    expect(logged.some((line) => line.includes("webhook delivered"))).toBe(true);
    expect(logged.some((line) => line.includes("webhook gave up"))).toBe(true);
    expect(logged.join("\n")).toContain(`http://127.0.0.1:${failing.port}`);
    expect(logged.join("\n")).not.toContain("capability-9f2c");
    expect(logged.join("\n")).not.toContain("s3cret-query");
  });

  it("a receiver URL with a user and password is sent Basic auth, and the password is never logged", async () => {
    const hook = await receiver();
    const tb = await makeBox();
    tb.webhooks = { url: hook.url.replace("http://", "http://agent:pa55-w0rd@") };
    const logged: string[] = [];
    const logger = {
      info: (obj: object, msg: string) => logged.push(JSON.stringify({ ...obj, msg })),
      warn: (obj: object, msg: string) => logged.push(JSON.stringify({ ...obj, msg })),
    };
    const { id } = await askQuestion(tb, confirmCard());
    await answerQuestion(tb, id, { text: "yes" }, { via: "cli" });
    await sender(tb, { logger }).deliverDue();

    expect(hook.successes(`${id}:answered`)).toBe(1);
    const basic = Buffer.from("agent:pa55-w0rd").toString("base64");
    expect(hook.received[0]?.headers.authorization).toBe(`Basic ${basic}`);
    expect(allDeliveries(tb.ledger)[0]?.lastError).toBeUndefined();
    expect(logged.join("\n")).not.toContain("pa55-w0rd");
  });

  it("a receiver that fails 3 times then succeeds gets exactly one success per transition", async () => {
    const hook = await receiver((n) => (n <= 3 ? 500 : 200));
    const tb = await webhookBox(hook.url);
    const { id } = await askQuestion(tb, confirmCard());
    await dismissQuestion(tb, id, { via: "cli" });
    await answerQuestion(tb, id, { text: "yes" }, { via: "cli" });
    const s = sender(tb);
    s.start();
    await eventually(
      () => allDeliveries(tb.ledger).every((d) => d.deliveredAt !== undefined),
      20_000,
      "both deliveries",
    );
    await s.deliverDue(); // nothing is owed any more: no further request
    expect(hook.successes(`${id}:dismissed`)).toBe(1);
    expect(hook.successes(`${id}:answered`)).toBe(1);
    expect(hook.received.filter((r) => r.status === 500)).toHaveLength(3);
    expect(hook.received).toHaveLength(5);
    const late = JSON.parse(
      hook.received.find((r) => r.headers["idempotency-key"] === `${id}:answered`)?.body ?? "{}",
    );
    expect(late).toMatchObject({ status: "answered", late: true });
  });

  it("a restart between tries loses nothing: the next service delivers what the first owed", async () => {
    const hook = await receiver((n) => (n <= 2 ? 503 : 200));
    const tb = await webhookBox(hook.url);
    const { id } = await askQuestion(tb, selectCard());
    const first = sender(tb, { firstRetryMs: 300 });
    first.start();
    await answerQuestion(tb, id, { text: "b" }, { via: "web" });
    await eventually(() => allDeliveries(tb.ledger)[0]?.tries === 1, 10_000, "a failed try");
    await first.stop();
    tb.ledger.close();

    // The service starts again: a new ledger handle on the same file, a new sender.
    const ledger = new Ledger(tb.box.paths.ledgerPath);
    const restarted: Core = { box: tb.box, ledger, webhooks: tb.webhooks, owe: tb.owe };
    try {
      // The row keeps its schedule across the restart: the next try comes due and is sent.
      const next = sender(restarted, { firstRetryMs: 20 });
      next.start();
      await eventually(() => hook.successes(`${id}:answered`) === 1, 10_000, "the delivery");
      await next.deliverDue();
      expect(hook.successes(`${id}:answered`)).toBe(1);
      expect(allDeliveries(ledger)).toMatchObject([{ key: `${id}:answered`, tries: 3 }]);
    } finally {
      ledger.close();
    }
  });

  it("a writer killed after its commit still owes its webhook: whoever finishes its journal owes it", async () => {
    const hook = await receiver();
    const tb = await webhookBox(hook.url);
    const { id } = await askQuestion(tb, selectCard());
    const killed = await runCli(["answer", id, "a"], {
      env: cliEnv(tb.dir, {
        QBRIDGE_TEST_CRASH_AT: "after-commit",
        QBRIDGE_WEBHOOK_URL: hook.url,
        QBRIDGE_WEBHOOK_SECRET: SECRET,
      }),
    });
    expect(killed.code).toBe(128);
    expect(allDeliveries(tb.ledger)).toEqual([]);
    await waitUntilLocksStale(tb.dir, 5_000);
    await settleInterruptedWrites(tb);
    await sender(tb).deliverDue();
    expect(hook.successes(`${id}:answered`)).toBe(1);
  });

  it("a redirect to another host is not followed", async () => {
    const hook = await receiver(() => 307);
    hook.redirect(`http://localhost:${hook.port}/elsewhere`);
    const tb = await webhookBox(hook.url);
    const { id } = await askQuestion(tb, selectCard());
    await dismissQuestion(tb, id, { via: "cli" });
    await sender(tb).deliverDue();
    expect(hook.received).toHaveLength(1);
    expect(allDeliveries(tb.ledger)[0]?.lastError).toBe(
      `redirected to another host (localhost:${hook.port}): not followed`,
    );
  });

  it("a receiver that never answers is timed out even when the garbage collector runs during the request", async () => {
    // node 20 let a collection drop AbortSignal.timeout's signal when it was only a source of
    // AbortSignal.any: the request then waited for the receiver for good.
    setFlagsFromString("--expose-gc");
    const collect = runInNewContext("gc") as () => void;
    const hook = await receiver(() => "hang");
    const tb = await webhookBox(hook.url);
    const { id } = await askQuestion(tb, selectCard());
    await dismissQuestion(tb, id, { via: "cli" });
    const collecting = setInterval(collect, 10);
    try {
      await sender(tb, { timeoutMs: 200 }).deliverDue();
    } finally {
      clearInterval(collecting);
    }
    expect(allDeliveries(tb.ledger)[0]).toMatchObject({
      tries: 1,
      lastError: "no answer within 0.2 s",
    });
  });

  it("a receiver that never answers is given up after the window, and doctor lists it", async () => {
    const hook = await receiver(() => "hang");
    const tb = await webhookBox(hook.url);
    let now = new Date(T0);
    const clock: Clock = { now: () => new Date(now), iso: () => toIso(now) };
    const core: Core = { ...tb, box: { ...tb.box, clock } };
    const { id } = await askQuestion(core, selectCard());
    await dismissQuestion(core, id, { via: "cli" });
    const s = sender(core, { timeoutMs: 200, giveUpAfterMs: 3_600_000 });
    await s.deliverDue();
    expect(allDeliveries(tb.ledger)[0]).toMatchObject({
      tries: 1,
      lastError: "no answer within 0.2 s",
    });
    expect(allDeliveries(tb.ledger)[0]?.gaveUpAt).toBeUndefined();

    now = new Date(now.getTime() + 3_600_000); // the window has passed
    await eventually(
      async () => {
        await s.deliverDue();
        return allDeliveries(tb.ledger)[0]?.gaveUpAt;
      },
      5_000,
      "the delivery to give up",
    );
    const doctor = await runCli(["doctor", "--json"], { env: cliEnv(tb.dir) });
    expect(doctor.code).toBe(1);
    const findings = JSON.parse(doctor.stdout).findings as { kind: string; problem: string }[];
    const gaveUp = findings.filter((f) => f.kind === "webhook");
    expect(gaveUp).toHaveLength(1);
    expect(gaveUp[0]?.problem).toContain(`${id}:dismissed was not delivered to ${hook.url}`);
    expect(gaveUp[0]?.problem).toContain("no answer within 0.2 s");
  });
});

describe("answer webhooks in the service", () => {
  it("qbridge serve delivers the outcome of an answer another process made, to the question's callback and the box-wide URL", async () => {
    const everyQuestion = await receiver();
    const callback = await receiver();
    const tb = await makeBox();
    const config = loadConfig(
      {
        QBRIDGE_WEBHOOK_URL: everyQuestion.url,
        QBRIDGE_WEBHOOK_SECRET: SECRET,
        QBRIDGE_TIME: T0,
      },
      { box: tb.dir },
    );
    const service = await startService({ config, logger: pino({ level: "silent" }), web: false });
    try {
      expect(service.started.join("\n")).toContain("answer webhooks on");
      const env = cliEnv(tb.dir, {
        QBRIDGE_WEBHOOK_URL: everyQuestion.url,
        QBRIDGE_WEBHOOK_SECRET: SECRET,
      });
      const asked = await runCli(["ask", "--json", "--callback", callback.url], {
        env,
        input: JSON.stringify(confirmCard()),
      });
      expect(asked.code).toBe(0);
      const { id } = JSON.parse(asked.stdout);
      expect((await runCli(["answer", id, "no"], { env })).code).toBe(0);
      await eventually(
        () =>
          everyQuestion.successes(`${id}:answered`) === 1 &&
          callback.successes(`${id}:answered`) === 1,
        10_000,
        "both receivers",
      );
    } finally {
      await service.stop();
    }
  });
});

describe("webhook settings", () => {
  it("QBRIDGE_WEBHOOK_URL without QBRIDGE_WEBHOOK_SECRET is a settings error", () => {
    expect(() => loadConfig({ QBRIDGE_WEBHOOK_URL: "https://agent.example/hook" })).toThrow(
      "QBRIDGE_WEBHOOK_SECRET must be set when QBRIDGE_WEBHOOK_URL is",
    );
  });

  it("a callback at ask time needs the secret, and only http(s) URLs", async () => {
    const tb = await makeBox();
    await expect(
      askQuestion(tb, selectCard({ callback: "https://agent.example/hook" })),
    ).rejects.toThrow("a callback needs answer webhooks on: set QBRIDGE_WEBHOOK_SECRET");
    tb.webhooks = { url: undefined };
    await expect(askQuestion(tb, selectCard({ callback: "file:///etc/passwd" }))).rejects.toThrow(
      "callback must be an http(s) URL",
    );
    const { card } = await askQuestion(tb, selectCard({ callback: "https://agent.example/hook" }));
    expect(card.callback).toBe("https://agent.example/hook");
  });
});
