// A callback is committed in the card, so credentials in it would be too: asking refuses a
// callback with a user and password or a credential-named query parameter, and says how to
// authenticate instead. A card already in the box with credentials still delivers with them,
// but wherever its callback is shown (the CLI's JSON, the API, doctor) they are masked.

import { readFileSync, writeFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { maskUrl } from "../../src/card/mask-url.ts";
import { answerQuestion } from "../../src/questions/answer.ts";
import { askQuestion } from "../../src/questions/ask.ts";
import { pendingQuestions } from "../../src/questions/state.ts";
import { locateQuestion } from "../../src/questions/store.ts";
import { createWebhookSender } from "../../src/webhooks/delivery.ts";
import { allDeliveries } from "../../src/webhooks/outbox.ts";
import {
  cleanupBoxes,
  cliEnv,
  commitByHand,
  confirmCard,
  makeBox,
  runCli,
} from "../support/box.ts";
import { API_TOKEN, webFixture } from "../web/web-support.ts";
import { closeReceivers, receiver } from "./receivers.ts";

const SECRET = "webhook-secret-0123456789abcdef";
const PASSWORD = "pa55-w0rd-9f2c";
const TOKEN = "tok-s3cret-value-77";
afterEach(async () => {
  await closeReceivers();
  cleanupBoxes();
});

describe("credentials in a callback URL", () => {
  it("are refused at ask time, the message saying how to authenticate instead", async () => {
    const tb = await makeBox();
    tb.webhooks = { url: undefined };
    for (const callback of [
      `https://agent:${PASSWORD}@hooks.example.org/qbridge`,
      `https://${TOKEN}@hooks.example.org/qbridge`,
      `https://hooks.example.org/qbridge?channel=ops&access_token=${TOKEN}`,
      `https://hooks.example.org/qbridge?api-key=${TOKEN}`,
    ]) {
      const asking = askQuestion(tb, confirmCard({ callback }));
      await expect(asking, callback).rejects.toThrow(
        /^the callback is refused: it carries (a user and password|a credential \((access_token|api-key)\)); .*X-Qbridge-Signature.*QBRIDGE_WEBHOOK_SECRET.*QBRIDGE_WEBHOOK_URL/,
      );
      const message = await asking.catch((error: Error) => error.message);
      expect(message).not.toContain(PASSWORD);
      expect(message).not.toContain(TOKEN);
    }
    expect(pendingQuestions(tb).pending).toEqual([]);
    // A query that names no credential is an ordinary part of the address.
    await askQuestion(tb, confirmCard({ callback: "https://hooks.example.org/q?channel=ops" }));
    expect(pendingQuestions(tb).pending).toHaveLength(1);
  });

  it("maskUrl hides a user and password and secret-looking query values, nothing else", () => {
    expect(maskUrl(`https://agent:${PASSWORD}@hooks.example.org:8443/a/b?x=1#f`)).toBe(
      "https://***@hooks.example.org:8443/a/b?x=1#f",
    );
    expect(maskUrl(`https://hooks.example.org/a?channel=ops&token=${TOKEN}&sig=abc`)).toBe(
      "https://hooks.example.org/a?channel=ops&token=***&sig=***",
    );
    // A long random-looking value is masked whatever its name.
    expect(maskUrl("https://h.example.org/a?c=Zk3q9XbP2mL7vR4tW8yN")).toBe(
      "https://h.example.org/a?c=***",
    );
    expect(maskUrl("https://hooks.example.org/a?page=2")).toBe(
      "https://hooks.example.org/a?page=2",
    );
    expect(maskUrl("not a url")).toBe("not a url");
  });

  it("in a card already in the box still deliver, and are masked in the CLI, the API and doctor", async () => {
    const hook = await receiver(500);
    const web = await webFixture();
    const tb = web.box;
    tb.webhooks = { url: undefined };
    const plain = `http://127.0.0.1:${hook.port}/hook`;
    const { id } = await askQuestion(tb, confirmCard({ callback: plain }));
    // The card as an older version filed it, or a hand edit left it: credentials committed.
    const withCredentials = `http://agent:${PASSWORD}@127.0.0.1:${hook.port}/hook?token=${TOKEN}`;
    const rel = locateQuestion(tb, id);
    const file = tb.box.paths.abs(rel);
    writeFileSync(file, readFileSync(file, "utf8").replace(plain, withCredentials));
    await commitByHand(tb.dir, [rel], "a card with credentials in its callback");
    const masked = `http://***@127.0.0.1:${hook.port}/hook?token=***`;

    await answerQuestion(tb, id, { text: "yes" }, { via: "cli" });
    const sender = createWebhookSender({ core: tb, secret: SECRET, giveUpAfterMs: 0 });
    await sender.deliverDue();
    await sender.stop();
    // Delivered with them: Basic auth from the user and password, the query as it was.
    expect(hook.received).toHaveLength(1);
    const basic = Buffer.from(`agent:${PASSWORD}`).toString("base64");
    expect(hook.received[0]?.headers.authorization).toBe(`Basic ${basic}`);
    expect(hook.received[0]?.url).toBe(`/hook?token=${TOKEN}`);
    expect(allDeliveries(tb.ledger)[0]?.gaveUpAt).toBeDefined();

    const env = cliEnv(tb.dir);
    const shown = await runCli(["show", id, "--json"], { env });
    expect(JSON.parse(shown.stdout).card.callback).toBe(masked);
    const listed = await runCli(["list", "--json", "--all"], { env });
    const doctor = await runCli(["doctor", "--json"], { env });
    const problems = JSON.parse(doctor.stdout).findings.map((f: { problem: string }) => f.problem);
    expect(problems.join("\n")).toContain(`was not delivered to ${masked}`);

    const headers = { Authorization: `Bearer ${API_TOKEN}` };
    const one = await web.app.request(`/api/v1/questions/${id}`, { headers });
    expect(((await one.clone().json()) as { card: { callback: string } }).card.callback).toBe(
      masked,
    );
    const all = await web.app.request("/api/v1/questions?status=all", { headers });
    for (const text of [
      shown.stdout,
      listed.stdout,
      doctor.stdout,
      await one.text(),
      await all.text(),
    ]) {
      expect(text).not.toContain(PASSWORD);
      expect(text).not.toContain(TOKEN);
    }
    expect(listed.stdout).toContain(masked);
    expect(
      await (await web.app.request("/api/v1/questions?status=all", { headers })).text(),
    ).toContain(masked);
  });
});
