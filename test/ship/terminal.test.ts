// Story: the boxholder at a keyboard. The terminal bridge presents through the same slot as
// Telegram and answers through the same path; it has no buttons, only typed lines. Driven here
// in-process over streams, with a real box and ledger.

import { PassThrough } from "node:stream";
import { afterEach, describe, expect, it } from "vitest";
import { createTerminalBridge } from "../../bridges/terminal/chat.ts";
import { questionFingerprint } from "../../src/card/load.ts";
import { answerQuestion } from "../../src/questions/answer.ts";
import { askQuestion } from "../../src/questions/ask.ts";
import { loadQuestion } from "../../src/questions/store.ts";
import { PresentationStore } from "../../src/slot/presentations.ts";
import { createSlot } from "../../src/slot/slot.ts";
import { cleanupBoxes, confirmCard, makeBox, selectCard, textCard } from "../support/box.ts";
import { eventually } from "../support/telegram.ts";

afterEach(cleanupBoxes);

async function keyboard() {
  const box = await makeBox();
  const slot = createSlot({ core: box });
  const input = new PassThrough();
  const output = new PassThrough();
  let screen = "";
  output.on("data", (d) => {
    screen += d;
  });
  const bridge = createTerminalBridge({ slot, input, output, by: "ada" });
  const ask = async (card: Record<string, unknown>) => (await askQuestion(box, card)).id;
  let running: Promise<void> | undefined;
  return {
    box,
    slot,
    ask,
    screen: () => screen,
    async start() {
      await slot.reconcile();
      running = bridge.run();
    },
    /** Types a line and waits until the screen shows `expect`. */
    async type(line: string, expect: string) {
      const from = screen.length;
      input.write(`${line}\n`);
      await eventually(() => screen.slice(from).includes(expect) || undefined, 5_000, expect);
      return screen.slice(from);
    },
    async quit() {
      input.end();
      await running;
      await slot.close();
    },
  };
}

describe("the terminal bridge", () => {
  it("shows the prompt, why, options with letters and what the box will learn; a letter with a note answers it", async () => {
    const k = await keyboard();
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
    const k = await keyboard();
    const id = await k.ask(confirmCard());
    await k.start();
    const said = await k.type("perhaps", "Not recorded");
    expect(said).toContain('"perhaps" does not answer this question: expected yes or no');
    expect(loadQuestion(k.box, id).card.status).toBe("pending");
    expect(k.slot.current()?.questionId).toBe(id);
    await k.quit();
  });

  it("park puts the question behind the queue and shows the next; dismiss declines; waiting counts", async () => {
    const k = await keyboard();
    const first = await k.ask(selectCard({ priority: "high" }));
    const second = await k.ask(textCard());
    await k.start();
    expect(await k.type("waiting", "waiting on you")).toContain(
      "2 waiting on you. Open now: Where do photographed receipts belong?",
    );
    const parked = await k.type("park", "? What is the name");
    expect(parked).toContain("Where do photographed receipts belong?: parked");
    await k.type("dismiss", "dismissed");
    expect(loadQuestion(k.box, second).card.status).toBe("dismissed");
    // The parked question comes back once the one ahead of it is closed.
    expect(k.slot.current()?.questionId).toBe(first);
    await k.type('"park"', "Not recorded");
    await k.quit();
  });

  it("a quoted command word answers a text question with that word", async () => {
    const k = await keyboard();
    const id = await k.ask(textCard());
    await k.start();
    await k.type('"park"', "Recorded: park");
    expect(loadQuestion(k.box, id).card.answer?.text).toBe("park");
    await k.quit();
  });

  it("help lists the commands; with nothing open, an answer is not recorded", async () => {
    const k = await keyboard();
    await k.start();
    expect(await k.type("help", "quit")).toContain("park       put the open question aside");
    expect(await k.type("b", "was not recorded")).toContain('Nothing is open right now, so "b"');
    await k.quit();
  });

  it("a question answered elsewhere while shown: a late reply records nothing and says what happened", async () => {
    const k = await keyboard();
    const id = await k.ask(selectCard());
    await k.start();
    await answerQuestion(k.box, id, { text: "a" }, { via: "web" });
    const said = await k.type("b", "already");
    expect(said).toContain("Not recorded: that question was already answered via web: Finance.");
    expect(loadQuestion(k.box, id).card.answer?.text).toBe("Finance");
    expect(k.box.ledger.auditFor(id).some((row) => row.action === "late-reply")).toBe(true);
    await k.quit();
  });

  it("while another process presents on telegram, chat records nothing and says where to answer", async () => {
    const k = await keyboard();
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
