// One question, every surface: the web page, the API, the CLI and a Telegram tap all go
// through the same transition. An answer from elsewhere updates the presented chat message and
// moves the slot on; answers racing from several surfaces record one, and every loser is told
// who won.

import { describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config.ts";
import { listJobs } from "../../src/questions/state.ts";
import { loadQuestion } from "../../src/questions/store.ts";
import { createWebApp } from "../../src/web/app.ts";
import { loadSecret } from "../../src/web/links.ts";
import { confirmCard, gitLog, runCli, selectCard } from "../support/box.ts";
import { buttonData, openHarness, presentQuestion, useEmulator } from "../support/telegram.ts";

const API_TOKEN = "surfaces-token-0123456789";

const emulator = useEmulator();

/** The bot's harness plus the web app on the same box and slot, wired as `qbridge serve` does. */
async function everySurface() {
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
  const api = (path: string, body: unknown) =>
    app.request(`/api/v1${path}`, {
      method: "POST",
      headers: { Authorization: `Bearer ${API_TOKEN}`, "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
  return { h, api };
}

describe("answers from other surfaces while a question is presented", () => {
  it("an API answer edits the chat message to say so and presents the next question", async () => {
    const { h, api } = await everySurface();
    const { id, message } = await presentQuestion(h, selectCard({ priority: "high" }));
    const next = await h.ask(confirmCard());

    const response = await api(`/questions/${id}/answer`, { answer: "Finance" });
    expect(response.status).toBe(200);

    const edit = h.sent("editMessageText").find((c) => c.payload.message_id === message.messageId);
    expect(String(edit?.payload.text)).toContain("Answered via api: Finance");
    expect(edit?.payload.reply_markup).toEqual({ inline_keyboard: [] });
    expect(h.slot.current()?.questionId).toBe(next);
    expect((await h.lastMessage()).text).toContain("May I delete backups older than a year?");
  });
});

describe("the same question answered at once from three surfaces", () => {
  it("a Telegram tap, the API and the CLI: one answer, one job, the others told who won", async () => {
    const { h, api } = await everySurface();
    const { id, message } = await presentQuestion(h, selectCard());
    await h.owner.tap(buttonData(message, "b)"), message.messageId);

    const [viaApi, viaCli] = await Promise.all([
      api(`/questions/${id}/answer`, { answer: "finance" }),
      runCli(["answer", id, "_other", "--note", "The shoebox", "--box", h.dir]),
      h.pump(),
    ]);

    const card = loadQuestion(h, id).card;
    const winner = card["answered-via"] as string;
    expect(listJobs(h)).toHaveLength(1);
    expect((await gitLog(h.dir)).filter((s) => s.startsWith("answer:"))).toHaveLength(1);
    const won = {
      api: viaApi.status === 200,
      cli: viaCli.code === 0,
      telegram: winner === "telegram",
    };
    expect(Object.values(won).filter(Boolean)).toHaveLength(1);
    expect(won[winner as keyof typeof won]).toBe(true);

    const told = `via ${winner}`;
    if (winner !== "api") {
      expect(viaApi.status).toBe(409);
      expect((await viaApi.json()).error.message).toContain(told);
    }
    if (winner !== "cli") {
      expect(viaCli.code).toBe(3);
      expect(viaCli.stderr).toContain(told);
    }
    const ack = String(h.sent("answerCallbackQuery")[0]?.payload.text);
    if (winner === "telegram") expect(ack).toContain("Recorded: Taxes");
    else expect(ack).toContain(told);
  });
});
