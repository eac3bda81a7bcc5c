// The asker withdraws a question. On Telegram the shown message says so and loses its buttons,
// and the next question comes; a late tap records nothing. The web page and the CLI show the
// withdrawal and take no answer.

import { describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config.ts";
import { askQuestion } from "../../src/questions/ask.ts";
import { listJobs } from "../../src/questions/state.ts";
import { loadQuestion } from "../../src/questions/store.ts";
import { withdrawQuestion } from "../../src/questions/withdraw.ts";
import { createWebApp } from "../../src/web/app.ts";
import { loadSecret } from "../../src/web/links.ts";
import { cliEnv, confirmCard, gitLog, makeBox, runCli, selectCard } from "../support/box.ts";
import { chatOverStreams } from "../support/chat-streams.ts";
import {
  buttonData,
  eventually,
  openHarness,
  presentQuestion,
  useEmulator,
} from "../support/telegram.ts";
import { webFixture } from "../web/web-support.ts";

const API_TOKEN = "withdraw-token-0123456789";
const emulator = useEmulator();

async function botAndApi() {
  const h = await openHarness(emulator());
  const config = loadConfig(
    { QBRIDGE_WEB_PORT: "0", QBRIDGE_API_TOKEN: API_TOKEN },
    { box: h.dir },
  );
  const app = createWebApp({
    core: h,
    config,
    secret: loadSecret(h.box),
    onTransition: () => h.slot.reconcile(),
  });
  const withdraw = (id: string, body: unknown) =>
    app.request(`/api/v1/questions/${id}/withdraw`, {
      method: "POST",
      headers: { Authorization: `Bearer ${API_TOKEN}`, "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
  return { h, withdraw };
}

describe("withdrawing a question the boxholder is looking at", () => {
  it("the API withdrawal edits the Telegram message, drops its buttons, and the slot moves on; a late tap records nothing", async () => {
    const { h, withdraw } = await botAndApi();
    const { id, message } = await presentQuestion(h, selectCard({ priority: "high" }));
    const next = await h.ask(confirmCard());

    const res = await withdraw(id, { reason: "the receipt was filed by hand" });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ id, status: "withdrawn", late: false });

    const edit = h.sent("editMessageText").find((c) => c.payload.message_id === message.messageId);
    expect(String(edit?.payload.text)).toContain(
      "Withdrawn by the asker: the receipt was filed by hand",
    );
    expect(edit?.payload.reply_markup).toEqual({ inline_keyboard: [] });
    expect(h.slot.current()?.questionId).toBe(next);

    await h.owner.tap(buttonData(message, "a)"), message.messageId);
    await h.pump();
    expect(loadQuestion(h, id).card.status).toBe("withdrawn");
    expect(listJobs(h)).toEqual([]);
    expect((await gitLog(h.dir)).filter((s) => s.startsWith("answer:"))).toEqual([]);
    const ack = h.sent("answerCallbackQuery").at(-1);
    expect(String(ack?.payload.text)).toContain("Withdrawn by the asker");
  });

  it("a withdrawal from the CLI in another process is shown once the slot reconciles", async () => {
    const { h } = await botAndApi();
    const { id, message } = await presentQuestion(h, selectCard());
    const cli = await runCli(["withdraw", id, "--json"], { env: cliEnv(h.dir) });
    expect(cli.code).toBe(0);
    expect(JSON.parse(cli.stdout)).toMatchObject({ id, status: "withdrawn" });
    await h.slot.reconcile();
    const edit = h.sent("editMessageText").find((c) => c.payload.message_id === message.messageId);
    expect(String(edit?.payload.text)).toContain("Withdrawn by the asker");
    expect(edit?.payload.reply_markup).toEqual({ inline_keyboard: [] });
  });
});

describe("withdrawing a question shown in qbridge chat", () => {
  it("the chat says it was withdrawn, and a typed answer records nothing", async () => {
    const chat = await chatOverStreams();
    const { box, slot } = chat;
    const id = await chat.ask(selectCard());
    await chat.start();
    await eventually(() => chat.screen().includes("Where do photographed receipts belong?"), 5_000);

    await withdrawQuestion(box, id, { via: "api" }, { reason: "sorted by hand" });
    await slot.reconcile();
    await eventually(() => chat.screen().includes("Withdrawn by the asker: sorted by hand"), 5_000);
    await chat.type("b", "was not recorded");
    expect(loadQuestion(box, id).card.status).toBe("withdrawn");
    expect(listJobs(box)).toEqual([]);
    await chat.quit();
    box.cleanup();
  });
});

describe("a withdrawn question elsewhere", () => {
  it("its web page says it was withdrawn, offers no form, and an answer is refused naming the withdrawal", async () => {
    const web = await webFixture();
    const id = await web.ask(confirmCard());
    const env = cliEnv(web.box.dir);
    const withdrawn = await runCli(["withdraw", id, "--reason", "disk cleaned up"], { env });
    expect(withdrawn.code).toBe(0);

    const page = await (await web.app.request(web.link(id))).text();
    expect(page).toContain("Withdrawn by the asker");
    expect(page).toContain("disk cleaned up");
    expect(page).not.toContain('id="answer"');

    const late = await runCli(["answer", id, "yes"], { env });
    expect(late.code).toBe(3);
    expect(late.stderr).toContain("it is already withdrawn (withdrawn by the asker at");
    const show = await runCli(["show", id], { env });
    expect(show.stdout).toContain(
      "withdrawn by the asker at 2026-07-10T09:00:00Z: disk cleaned up",
    );
    const waited = await runCli(["wait", id], { env });
    expect(waited.code).toBe(13);
  });

  it("a dismissed question can be withdrawn; an answered one cannot", async () => {
    const web = await webFixture();
    const dismissed = await web.ask(confirmCard());
    const answered = await web.ask(selectCard());
    const env = cliEnv(web.box.dir);
    expect((await runCli(["dismiss", dismissed], { env })).code).toBe(0);
    expect((await runCli(["answer", answered, "a"], { env })).code).toBe(0);
    const ok = await runCli(["withdraw", dismissed, "--json"], { env });
    expect(ok.code).toBe(0);
    const card = loadQuestion(web.box, dismissed).card;
    expect(card.status).toBe("withdrawn");
    expect(card["dismissed-at"]).toBeUndefined();
    const refused = await runCli(["withdraw", answered], { env });
    expect(refused.code).toBe(3);
    expect(refused.stderr).toContain("it is already answered");
  });

  it("a reason with a control character (a terminal escape) is refused naming it, and the card stays as it was", async () => {
    const box = await makeBox();
    const { id } = await askQuestion(box, confirmCard());
    const commits = await gitLog(box.dir);
    const refused = await runCli(["withdraw", id, "--reason", "done\u001b[2J"], {
      env: cliEnv(box.dir),
    });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe(
      "qbridge: the reason contains a control character (U+001B): a reason may carry any text, tabs and line breaks, no other control character\n",
    );
    expect(loadQuestion(box, id).card.status).toBe("pending");
    expect(await gitLog(box.dir)).toEqual(commits);
  });
});
