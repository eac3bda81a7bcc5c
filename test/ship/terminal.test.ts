// Story: the boxholder at a keyboard. The terminal bridge presents through the same slot as
// Telegram and answers through the same path; it has no buttons, only typed lines. Driven here
// in-process over streams, with a real box and ledger; and as `qbridge chat` child processes
// that quit or are killed while `qbridge serve` runs Telegram on the emulator.

import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { questionFingerprint } from "../../src/card/fingerprint.ts";
import { answerQuestion } from "../../src/questions/answer.ts";
import { askQuestion } from "../../src/questions/ask.ts";
import { loadQuestion } from "../../src/questions/store.ts";
import { PresentationStore } from "../../src/slot/presentation/records.ts";
import { cleanupBoxes, confirmCard, makeBox, selectCard, T0, textCard } from "../support/box.ts";
import { chatOverStreams } from "../support/chat-streams.ts";
import { qbridge } from "../support/child.ts";
import { type Emulator, eventually, OWNER, startEmulator, TOKEN } from "../support/telegram.ts";

afterEach(cleanupBoxes);

describe("the terminal bridge", () => {
  it("shows the prompt, why, options with letters and what the box will learn; a letter with a note answers it", async () => {
    const k = await chatOverStreams();
    const id = await k.ask(
      selectCard({ recommended: "finance", "while-waiting": "Keep it in intake." }),
    );
    await k.start();
    expect(k.screen()).toContain("? Where do photographed receipts belong?");
    expect(k.screen()).toContain("Why: A receipt came in at intake");
    expect(k.screen()).toContain("  a) Finance  (recommended)\n  b) Taxes\n  c) Somewhere else");
    expect(k.screen()).toContain("The box will learn: Receipts go in finance/receipts/.");
    expect(k.screen()).toContain("While waiting: Keep it in intake.");
    const said = await k.type("b - paper only", "answered via terminal");
    expect(said).toContain("Recorded: Taxes (note: paper only)");
    const card = loadQuestion(k.box, id).card;
    expect(card).toMatchObject({
      status: "answered",
      "answered-via": "terminal",
      "answered-by": "ada",
      answer: { text: "Taxes", note: "paper only" },
    });
    await k.quit();
  });

  it("text that matches nothing is not recorded and says what would; the question stays open", async () => {
    const k = await chatOverStreams();
    const id = await k.ask(confirmCard());
    await k.start();
    const said = await k.type("perhaps", "Not recorded");
    expect(said).toContain('"perhaps" does not answer this question: expected yes or no');
    expect(loadQuestion(k.box, id).card.status).toBe("pending");
    expect(k.slot.current()?.questionId).toBe(id);
    await k.quit();
  });

  it("a pasted wall of text that matches nothing is quoted by its head, not written back whole", async () => {
    const k = await chatOverStreams();
    const id = await k.ask(selectCard());
    await k.start();
    const said = await k.type(`Finance ${"x".repeat(5_000)}`, "Not recorded");
    expect(said).toContain('"Finance xxxx');
    expect(said).toContain('…" does not answer this question: expected one of a) Finance');
    expect(said.length).toBeLessThan(500);
    expect(loadQuestion(k.box, id).card.status).toBe("pending");
    await k.quit();
  });

  it("park puts the question behind the queue and shows the next; dismiss declines; waiting counts", async () => {
    const k = await chatOverStreams();
    const first = await k.ask(selectCard({ priority: "high" }));
    const second = await k.ask(textCard());
    await k.start();
    expect(await k.type("waiting", "waiting on you")).toContain(
      "2 waiting on you. Open now: Where do photographed receipts belong?",
    );
    const parked = await k.type("park", "? What is the name");
    expect(parked).toContain(
      "Where do photographed receipts belong?: parked: it stays pending behind the queue (type next to bring it back)",
    );
    expect(parked).not.toContain("/next"); // a keyboard command has no slash
    await k.type("dismiss", "dismissed");
    expect(loadQuestion(k.box, second).card.status).toBe("dismissed");
    // The parked question comes back once the one ahead of it is closed.
    expect(k.slot.current()?.questionId).toBe(first);
    await k.type('"park"', "Not recorded");
    await k.quit();
  });

  it("a quoted command word answers a text question with that word", async () => {
    const k = await chatOverStreams();
    const id = await k.ask(textCard());
    await k.start();
    await k.type('"park"', "Recorded: park");
    expect(loadQuestion(k.box, id).card.answer?.text).toBe("park");
    await k.quit();
  });

  it("help lists the commands; with nothing open, an answer is not recorded", async () => {
    const k = await chatOverStreams();
    await k.start();
    expect(await k.type("help", "quit")).toContain("park       put the open question aside");
    expect(await k.type("b", "was not recorded")).toContain('Nothing is open right now, so "b"');
    await k.quit();
  });

  it("a question answered elsewhere while shown: a late reply records nothing and says what happened", async () => {
    const k = await chatOverStreams();
    const id = await k.ask(selectCard());
    await k.start();
    await answerQuestion(k.box, id, { text: "a" }, { via: "web" });
    const said = await k.type("b", "already");
    expect(said).toContain("Not recorded: that question was already answered via web: Finance.");
    expect(loadQuestion(k.box, id).card.answer?.text).toBe("Finance");
    expect(k.box.ledger.auditFor(id).some((row) => row.action === "late-reply")).toBe(true);
    await k.quit();
  });

  it("card and answer text reach the screen with no control character: a carriage return or C1 escape is spelled out", async () => {
    const k = await chatOverStreams();
    // A carriage return lets a later "Why:" overwrite the real one on the screen; U+009B is
    // CSI to a terminal that reads C1 controls (here: clear the screen). Cards may hold both.
    const id = await k.ask(
      confirmCard({
        prompt: "Deploy \u009b2J now?",
        memo: "Drop the production database.\r  Why: Tidy the logs.\r\nSecond line.",
        recommended: "yes",
      }),
    );
    await k.start();
    await answerQuestion(k.box, id, { text: "yes", note: "ok \u009b2J" }, { via: "web" });
    await k.type("yes", "already");
    const screen = k.screen();
    expect(screen).toContain("? Deploy <U+009B>2J now?");
    expect(screen).toContain(
      "Why: Drop the production database.<U+000D>  Why: Tidy the logs.\nSecond line.",
    );
    expect(screen).toContain("ok <U+009B>2J");
    expect(screen).not.toMatch(/(?![\n\t])\p{Cc}/u);
    await k.quit();
  });

  it("a line begun before the next question appeared is not recorded on that question", async () => {
    const k = await chatOverStreams({ tty: true });
    const first = await k.ask(selectCard({ priority: "high" }));
    const second = await k.ask(selectCard({ prompt: "Where do scanned invoices belong?" }));
    await k.start();
    await eventually(() => k.screen().includes("photographed receipts") || undefined, 5_000, "A");
    // Half-way through typing "b" for the first question, it is answered on the web and the
    // slot shows the second one; the Enter that follows was pressed for the first.
    k.press("b");
    await answerQuestion(k.box, first, { text: "a" }, { via: "web" });
    await k.slot.reconcile();
    await eventually(() => k.screen().includes("scanned invoices") || undefined, 5_000, "B");
    const said = await k.type("", "already");
    expect(said).toContain("already answered via web: Finance");
    expect(loadQuestion(k.box, second).card.status).toBe("pending");
    expect(k.slot.current()?.questionId).toBe(second);
    // Typed after the second question appeared, the same key answers it.
    expect(await k.type("b", "Recorded")).toContain("Recorded: Taxes");
    expect(loadQuestion(k.box, second).card.answer?.text).toBe("Taxes");
    await k.quit();
  });

  it("a line begun while nothing was shown is not recorded on the question that appears", async () => {
    const k = await chatOverStreams({ tty: true });
    await k.start();
    k.press("yes");
    const id = await k.ask(confirmCard());
    await k.slot.reconcile();
    await eventually(
      () => k.screen().includes("May I delete backups") || undefined,
      5_000,
      "shown",
    );
    expect(await k.type("", "not recorded")).toContain(
      '"yes" was begun before this question appeared, so it was not recorded. Type your answer again.',
    );
    expect(loadQuestion(k.box, id).card.status).toBe("pending");
    expect(await k.type("yes", "Recorded")).toContain("Recorded: Yes");
    await k.quit();
  });

  it("while another process presents on telegram, chat records nothing and says where to answer", async () => {
    const k = await chatOverStreams();
    const id = await k.ask(selectCard());
    const store = new PresentationStore(k.box.ledger.db);
    const hash = questionFingerprint(loadQuestion(k.box, id).card);
    const seq = store.claim(id, "telegram", hash, "2026-07-10T09:00:00Z") as number;
    store.presented(seq, { chatId: "1001", messageId: "5" }, "2026-07-10T09:00:00Z");
    await k.start();
    for (const line of ["b", "park", "dismiss"]) {
      expect(await k.type(line, "another process")).toContain(
        "The open question is shown on telegram by another process (qbridge serve): answer it there",
      );
    }
    expect(loadQuestion(k.box, id).card.status).toBe("pending");
    expect(store.open()?.seq).toBe(seq);
    await k.quit();
  });
});

describe("a stray key at the keyboard", () => {
  it('a lone "c" on a text question asks Record "c" as your answer?; no records nothing, yes records it', async () => {
    const box = await makeBox();
    const { id } = await askQuestion(box, textCard());
    const chat = qbridge(["chat", "--box", box.dir], { cwd: box.dir, env: { QBRIDGE_TIME: T0 } });
    await chat.waitFor("? What is the name");
    chat.type("c");
    await chat.waitFor('Record "c" as your answer? Type yes or no.');
    chat.type("no");
    await chat.waitFor('Not recorded: "c". Type your answer.');
    expect(loadQuestion(box, id).card.status).toBe("pending");
    chat.type("c");
    await chat.waitFor(/Record "c"[\s\S]*Record "c" as your answer\?/);
    chat.type("yes");
    await chat.waitFor("Recorded: c");
    chat.type("quit");
    expect(await chat.exited).toBe(0);
    expect(loadQuestion(box, id).card.answer).toEqual({ text: "c" });
  });
});

describe("a chat's hold on the slot lives with its process", () => {
  let emulator: Emulator;
  beforeAll(async () => {
    emulator = await startEmulator();
  });
  afterAll(async () => {
    await emulator.stop();
  });

  it("a killed chat's question is shown again by the next chat, and sent to Telegram by a running serve once that chat is killed too", async () => {
    const box = await makeBox();
    await askQuestion(box, selectCard());
    const prompt = "? Where do photographed receipts belong?";
    const env = { QBRIDGE_TIME: T0, QBRIDGE_WEB_PORT: "0" };
    const chat = () =>
      qbridge(["chat", "--box", box.dir, "--watch-ms", "100"], { cwd: box.dir, env });

    const first = chat();
    await first.waitFor(prompt);
    // A second chat while the first is alive: the question is the first one's to answer.
    const second = chat();
    await second.waitFor("shown in another qbridge chat");
    second.type("b");
    await second.waitFor("Nothing was recorded.");
    second.type("quit");
    expect(await second.exited).toBe(0);
    expect(second.stdout()).not.toContain(prompt);

    await first.kill("SIGKILL");
    const third = chat();
    await third.waitFor(prompt);

    const client = emulator.server.getClient(TOKEN, { userId: OWNER, chatId: OWNER });
    const onTelegram = async () => {
      const history = (await client.getUpdatesHistory()) as { message?: { text?: string } }[];
      return history.find((u) => u.message?.text?.includes("Where do photographed receipts"));
    };
    const serve = qbridge(["serve", "--box", box.dir], {
      cwd: box.dir,
      env: {
        ...env,
        TELEGRAM_BOT_TOKEN: TOKEN,
        TELEGRAM_OWNER_ID: String(OWNER),
        TELEGRAM_API_ROOT: emulator.apiRoot,
      },
    });
    try {
      await serve.waitFor("qbridge serve is running", 20_000, "stderr");
      // The live chat holds it: serve's first reconciliation sent nothing.
      expect(await onTelegram()).toBeUndefined();
      await third.kill("SIGKILL");
      expect(await eventually(onTelegram, 20_000, "serve to take the slot over")).toBeDefined();
      const open = new PresentationStore(box.ledger.db).open();
      expect(open?.surface).toBe("telegram");
    } finally {
      expect(await serve.kill("SIGTERM")).toBe(0);
    }
  });
});
