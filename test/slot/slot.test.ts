// The slot with no chat service at all: a presenter that only writes down what it was asked to
// show. One question at a time, queue order, park, "what is waiting", reconciliation with cards
// changed behind the slot's back, and answers from the typed-reply path.

import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { attemptFromText } from "../../src/card/resolve.ts";
import { answerQuestion } from "../../src/questions/answer.ts";
import { askQuestion } from "../../src/questions/ask.ts";
import { loadQuestion } from "../../src/questions/store.ts";
import { createHolderLease } from "../../src/slot/holder.ts";
import type { Closure, Presenter, PresentRequest } from "../../src/slot/presentation/presenter.ts";
import { PresentationStore } from "../../src/slot/presentation/records.ts";
import { createSlot } from "../../src/slot/slot.ts";
import { cleanupBoxes, confirmCard, makeBox, selectCard, textCard } from "../support/box.ts";

afterEach(cleanupBoxes);

function notebook(
  surface = "notebook",
): Presenter & { shown: string[]; closures: [string, Closure["kind"]][] } {
  let next = 1;
  const shown: string[] = [];
  const closures: [string, Closure["kind"]][] = [];
  return {
    surface,
    shown,
    closures,
    ready: () => true,
    async present(request: PresentRequest) {
      shown.push(request.question.id);
      return { chatId: "desk", messageId: String(next++) };
    },
    async closed(presentation, closure) {
      closures.push([presentation.questionId, closure.kind]);
    },
  };
}

async function setup() {
  const box = await makeBox();
  const slot = createSlot({ core: box });
  const presenter = notebook();
  slot.attach(presenter);
  const ask = async (card: Record<string, unknown>) => (await askQuestion(box, card)).id;
  return { box, slot, presenter, ask };
}

describe("one question at a time, in queue order", () => {
  it("presents the high-priority question first and nothing else until it is answered", async () => {
    const { slot, presenter, ask } = await setup();
    const low = await ask(selectCard({ priority: "low", prompt: "Low?" }));
    const high = await ask(confirmCard({ priority: "high" }));
    await slot.reconcile();
    await slot.reconcile();
    expect(presenter.shown).toEqual([high]);
    const { closed } = await slot.answer(high, { text: "yes" }, { via: "notebook" });
    await slot.settle(closed);
    expect(presenter.closures).toEqual([[high, "answered"]]);
    expect(presenter.shown).toEqual([high, low]);
  });

  it("a parked question goes behind the queue and is not presented again on its own", async () => {
    const { slot, presenter, ask } = await setup();
    const first = await ask(selectCard({ prompt: "First?", "asked-at": "2026-07-01T09:00:00Z" }));
    const second = await ask(selectCard({ prompt: "Second?", "asked-at": "2026-07-02T09:00:00Z" }));
    await slot.reconcile();
    await slot.park();
    expect(presenter.shown).toEqual([first, second]);
    expect(slot.waiting()).toMatchObject({ count: 2, top: { id: second } });
    await slot.park();
    expect(slot.current()).toBeUndefined();
    await slot.reconcile();
    expect(presenter.shown).toEqual([first, second]);
    const { presented } = await slot.next();
    expect(presented?.questionId).toBe(first);
  });

  it("a parked question comes back once the questions ahead of it are answered", async () => {
    const { slot, presenter, ask } = await setup();
    const first = await ask(selectCard({ prompt: "First?", "asked-at": "2026-07-01T09:00:00Z" }));
    const second = await ask(selectCard({ prompt: "Second?", "asked-at": "2026-07-02T09:00:00Z" }));
    await slot.reconcile();
    await slot.park();
    expect(presenter.shown).toEqual([first, second]);
    const { closed } = await slot.answer(second, { text: "a" }, { via: "notebook" });
    await slot.settle(closed);
    expect(presenter.shown).toEqual([first, second, first]);
    expect(slot.current()?.questionId).toBe(first);
  });

  it("a parked question closed by another process leaves no park behind at the slot's next look", async () => {
    const { box, slot, ask } = await setup();
    const first = await ask(selectCard({ prompt: "First?", "asked-at": "2026-07-01T09:00:00Z" }));
    await ask(selectCard({ prompt: "Second?", "asked-at": "2026-07-02T09:00:00Z" }));
    await slot.reconcile();
    await slot.park();
    const parks = new PresentationStore(box.ledger.db);
    expect(parks.parked()).toEqual([first]);
    slot.waiting();
    expect(parks.parked()).toEqual([first]);
    await answerQuestion(box, first, { text: "a" }, { via: "cli" });
    slot.waiting();
    expect(parks.parked()).toEqual([]);
  });

  it("a question already past its expiry is neither presented nor counted as waiting behind", async () => {
    const { slot, ask, presenter } = await setup();
    // 39 days old at the box's clock: due to expire at the next sweep.
    const due = await ask(selectCard({ "asked-at": "2026-06-01T09:00:00Z", priority: "high" }));
    const fresh = await ask(confirmCard());
    let behind = -1;
    const present = presenter.present;
    presenter.present = async (request) => {
      behind = request.behind;
      return present(request);
    };
    await slot.reconcile();
    expect(presenter.shown).toEqual([fresh]);
    expect(behind).toBe(0);
    expect(slot.waiting().count).toBe(1);
    expect(presenter.shown).not.toContain(due);
  });

  it('"what is waiting" gives the count and the presented question alone', async () => {
    const { slot, ask } = await setup();
    expect(slot.waiting()).toEqual({ count: 0, top: undefined, presented: undefined });
    const id = await ask(selectCard({ priority: "high" }));
    await ask(textCard());
    await slot.reconcile();
    const w = slot.waiting();
    expect(w.count).toBe(2);
    expect(w.top?.id).toBe(id);
    expect(w.presented?.questionId).toBe(id);
  });
});

describe("reconciliation with the box", () => {
  it("a question answered elsewhere closes its presentation and the next is presented", async () => {
    const { box, slot, presenter, ask } = await setup();
    const a = await ask(selectCard({ priority: "high" }));
    const b = await ask(textCard());
    await slot.reconcile();
    await answerQuestion(box, a, { text: "Taxes" }, { via: "web" });
    await slot.reconcile();
    expect(presenter.closures).toEqual([[a, "answered"]]);
    expect(presenter.shown).toEqual([a, b]);
  });

  it("an edited card supersedes its presentation and is presented again", async () => {
    const { box, slot, presenter, ask } = await setup();
    const a = await ask(selectCard());
    await slot.reconcile();
    const path = join(box.dir, loadQuestion(box, a).rel);
    writeFileSync(path, readFileSync(path, "utf8").replace("label: Taxes", "label: Tax office"));
    await slot.reconcile();
    expect(presenter.closures).toEqual([[a, "changed"]]);
    expect(presenter.shown).toEqual([a, a]);
    expect(slot.presentations.forQuestion(a).map((p) => p.state)).toEqual([
      "superseded",
      "presented",
    ]);
  });

  it("a deleted card frees the slot", async () => {
    const { box, slot, presenter, ask } = await setup();
    const a = await ask(selectCard());
    await slot.reconcile();
    rmSync(join(box.dir, loadQuestion(box, a).rel));
    await slot.reconcile();
    expect(presenter.closures).toEqual([[a, "removed"]]);
    expect(slot.current()).toBeUndefined();
  });

  it("a claim left by a process that died before sending is released on start", async () => {
    const { box, ask } = await setup();
    const a = await ask(selectCard());
    const dead = createSlot({ core: box });
    dead.presentations.claim(a, "notebook", "hash", "2026-07-10T09:00:00Z");
    const slot = createSlot({ core: box });
    const presenter = notebook();
    slot.attach(presenter);
    await slot.reconcile();
    expect(presenter.shown).toEqual([a]);
  });
});

describe("typed answers become attempts", () => {
  const select = selectCard() as never;
  it.each([
    ["b", { text: "b" }],
    ["Finance - paper only", { text: "Finance", note: "paper only" }],
    ["Finance: paper only", { text: "Finance", note: "paper only" }],
    ["the blue folder", { text: "the blue folder" }],
  ])("select %j", (typed, attempt) => {
    expect(attemptFromText(select, typed)).toEqual(attempt);
  });
  it.each([
    ["yes", { text: "yes" }],
    ["No - not yet", { text: "No", note: "not yet" }],
    ["yesterday", { text: "yesterday" }],
  ])("confirm %j", (typed, attempt) => {
    expect(attemptFromText(confirmCard() as never, typed)).toEqual(attempt);
  });
  it("text keeps everything", () => {
    expect(attemptFromText(textCard() as never, " Anna - Muster ")).toEqual({
      text: "Anna - Muster",
    });
  });
});

describe("two processes on one box", () => {
  it("a question answered elsewhere is closed by the process whose surface shows it, not by another", async () => {
    const box = await makeBox();
    const chat = createSlot({ core: box });
    const chatNotebook = notebook("terminal");
    chat.attach(chatNotebook);
    const serve = createSlot({ core: box });
    const serveNotebook = notebook("telegram");
    serve.attach(serveNotebook);
    const { id } = await askQuestion(box, selectCard());
    await serve.reconcile();
    expect(serveNotebook.shown).toEqual([id]);

    await answerQuestion(box, id, { text: "a" }, { via: "cli" });
    await chat.reconcile();
    // The chat process leaves the Telegram presentation alone: it cannot edit that message.
    expect(chatNotebook.closures).toEqual([]);
    expect(serveNotebook.closures).toEqual([]);
    expect(chat.current()?.questionId).toBe(id);

    await serve.reconcile();
    expect(serveNotebook.closures).toEqual([[id, "answered"]]);
    expect(serve.current()).toBeUndefined();
  });
});

describe("closed messages are updated even across a restart", () => {
  it("an edit that failed before the process died is made by the next process on that surface", async () => {
    const box = await makeBox();
    const first = createSlot({ core: box });
    const broken = notebook("telegram");
    broken.closed = async () => {
      throw new Error("the chat service is down");
    };
    first.attach(broken);
    const { id } = await askQuestion(box, selectCard());
    await first.reconcile();
    await answerQuestion(box, id, { text: "a" }, { via: "cli" });
    await first.reconcile();
    expect(first.current()).toBeUndefined();
    await first.close();

    // A new process (a restarted service) on the same ledger, with the chat service back.
    const second = createSlot({ core: box });
    const working = notebook("telegram");
    second.attach(working);
    await second.reconcile();
    expect(working.closures).toEqual([[id, "answered"]]);
    await second.reconcile();
    expect(working.closures).toHaveLength(1);
  });
});

describe("a presentation that lives with its process", () => {
  const screen = () => ({ ...notebook("terminal"), livesWithProcess: true });

  it("a chat that leaves gives the slot up, and the next surface presents the question at once", async () => {
    const box = await makeBox();
    const chat = createSlot({ core: box });
    const keyboard = screen();
    chat.attach(keyboard);
    const serve = createSlot({ core: box });
    const phone = notebook("telegram");
    serve.attach(phone);
    const { id } = await askQuestion(box, selectCard());
    await chat.reconcile();
    await serve.reconcile();
    expect(keyboard.shown).toEqual([id]);
    expect(phone.shown).toEqual([]);

    await chat.close();
    await serve.reconcile();
    expect(phone.shown).toEqual([id]);
    expect(keyboard.closures).toEqual([]);
  });

  it("a presentation whose holder keeps its lease stays; once the lease is gone it is taken over", async () => {
    const box = await makeBox();
    const { id } = await askQuestion(box, selectCard());
    const lease = createHolderLease(box.box.paths.locksDir, () => undefined);
    const holder = await lease.acquire();
    const other = createSlot({ core: box });
    other.presentations.claim(id, "terminal", "hash", "2026-07-10T09:00:00Z", holder);

    const serve = createSlot({ core: box });
    const phone = notebook("telegram");
    serve.attach(phone);
    await serve.reconcile();
    expect(phone.shown).toEqual([]);

    await lease.release();
    await serve.reconcile();
    expect(phone.shown).toEqual([id]);
    expect(serve.presentations.forQuestion(id)[0]).toMatchObject({
      state: "superseded",
      outcome: "left open when its chat ended: it stays pending",
    });
  });
});
