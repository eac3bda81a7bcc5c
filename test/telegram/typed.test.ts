// The boxholder types instead of tapping: letters, labels, "Label - note", yes/no, free text,
// a reply to an older message, a reply that is too late, and text that does not resolve.

import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { UPDATE_KINDS } from "../../bridges/telegram/poll.ts";
import { EDITED_REPLY } from "../../bridges/telegram/typed.ts";
import { questionFingerprint } from "../../src/card/fingerprint.ts";
import { answerQuestion } from "../../src/questions/answer.ts";
import { listJobs, pendingQuestions } from "../../src/questions/state.ts";
import { loadQuestion } from "../../src/questions/store.ts";
import { confirmCard, selectCard, T0, textCard } from "../support/box.ts";
import {
  buttonData,
  type Harness,
  OWNER,
  openHarness,
  presentQuestion,
  useEmulator,
} from "../support/telegram.ts";

const emulator = useEmulator();

const replies = (h: Harness) => h.sent("sendMessage").map((c) => String(c.payload.text));

describe("typed answers to the presented question", () => {
  it.each([
    ["a letter", "b", { text: "Taxes", selected: "taxes" }],
    ["a label in any case", "fINANCE", { text: "Finance", selected: "finance" }],
    [
      "Label - note",
      "Finance - only the paper ones",
      { text: "Finance", selected: "finance", note: "only the paper ones" },
    ],
    [
      "the other option with own words",
      "Somewhere else - the shoebox",
      { text: "the shoebox", selected: "_other" },
    ],
  ])("%s is recorded", async (_name, typed, answer) => {
    const h = await openHarness(emulator());
    const { id } = await presentQuestion(h, selectCard());
    await h.owner.say(typed);
    await h.pump();
    expect(loadQuestion(h, id).card.answer).toEqual(answer);
    expect(replies(h).at(-1)).toContain("Recorded");
    expect(listJobs(h)).toHaveLength(1);
  });

  it("yes with a note answers a confirm question", async () => {
    const h = await openHarness(emulator());
    const { id } = await presentQuestion(h, confirmCard());
    await h.owner.say("yes - but keep last month's");
    await h.pump();
    expect(loadQuestion(h, id).card.answer).toEqual({
      text: "Yes",
      selected: "yes",
      note: "but keep last month's",
    });
  });

  it("free text answers a text question, which offers Park and Dismiss as buttons", async () => {
    const h = await openHarness(emulator());
    const { id, message } = await presentQuestion(h, textCard());
    expect(message.buttons.map((b) => b.text)).toEqual(["🅿️ Park", "⏰ Later", "🚫 Dismiss"]);
    await h.owner.say("Anna Muster", { replyTo: message.messageId });
    await h.pump();
    expect(loadQuestion(h, id).card.answer).toEqual({ text: "Anna Muster" });
  });

  it("a path answers a text question: Telegram marks no command in it, so it is no command", async () => {
    const h = await openHarness(emulator());
    const { id } = await presentQuestion(h, textCard());
    // "/srv/exports" reaches the bot with no bot_command entity (Telegram's parser never takes
    // a slash word followed by another slash for one); an unknown /command always has one.
    await h.owner.say("/srv/exports/2026");
    await h.pump();
    expect(loadQuestion(h, id).card.answer).toEqual({ text: "/srv/exports/2026" });
    expect(replies(h).join("\n")).not.toContain("I do not know that command");
    expect(replies(h).at(-1)).toBe("✅ Recorded: /srv/exports/2026");
    await h.owner.command("/exports");
    await h.pump();
    expect(replies(h).at(-1)).toBe("I do not know that command. /help lists what I understand.");
  });

  it("text that does not resolve gets a one-line clarification and records nothing", async () => {
    const h = await openHarness(emulator());
    const { id } = await presentQuestion(h, selectCard());
    await h.owner.say("the blue folder");
    await h.pump();
    const reply = replies(h).at(-1) ?? "";
    expect(reply).toContain('I could not match "the blue folder"');
    expect(reply).toContain("a) Finance");
    expect(reply.split("\n")).toHaveLength(1);
    expect(loadQuestion(h, id).card.status).toBe("pending");
  });
});

describe("typed answers to a question edited meanwhile", () => {
  it("a letter typed for options that were edited since they were shown is refused", async () => {
    const h = await openHarness(emulator());
    const { id } = await presentQuestion(h, selectCard());
    const path = join(h.dir, loadQuestion(h, id).rel);
    // "b" meant Taxes on the screen; now the second option is something else.
    writeFileSync(path, readFileSync(path, "utf8").replace("label: Taxes", "label: Tax office"));
    await h.owner.say("b");
    await h.pump();
    expect(replies(h).at(-1)).toContain("edited since it was shown");
    expect(loadQuestion(h, id).card.status).toBe("pending");
    expect(listJobs(h)).toHaveLength(0);
  });
});

describe("a stray key on a text question", () => {
  it('a lone "c" asks Record "c" as your answer? with Yes and No; No records nothing, Yes records it', async () => {
    const h = await openHarness(emulator());
    const { id, message } = await presentQuestion(h, textCard());
    await h.owner.say("c");
    await h.pump();
    const asked = await h.lastMessage();
    expect(asked.text).toBe('Record "c" as your answer?');
    expect(asked.buttons.map((b) => b.text)).toEqual(["✅ Yes, record it", "✖️ No"]);
    expect(loadQuestion(h, id).card.status).toBe("pending");

    await h.owner.tap(buttonData(asked, "✖️ No"), asked.messageId);
    await h.pump();
    expect(loadQuestion(h, id).card.status).toBe("pending");
    expect(h.slot.current()?.questionId).toBe(id);
    expect(listJobs(h)).toHaveLength(0);

    await h.owner.say("c", { replyTo: message.messageId });
    await h.pump();
    const again = await h.lastMessage();
    await h.owner.tap(buttonData(again, "✅ Yes"), again.messageId);
    await h.pump();
    expect(loadQuestion(h, id).card.answer).toEqual({ text: "c" });
    expect(listJobs(h)).toHaveLength(1);
    expect(h.slot.current()).toBeUndefined();
  });

  it("a typed yes or no after the question answers the question, never becomes the answer itself", async () => {
    const h = await openHarness(emulator());
    const { id } = await presentQuestion(h, textCard());
    await h.owner.say("c");
    await h.pump();
    await h.owner.say("no");
    await h.pump();
    expect(replies(h).at(-1)).toBe("Not recorded: &quot;c&quot;. Reply with your answer.");
    expect(loadQuestion(h, id).card.status).toBe("pending");
    await h.owner.say("c");
    await h.pump();
    await h.owner.say("yes");
    await h.pump();
    expect(loadQuestion(h, id).card.answer).toEqual({ text: "c" });
    expect(listJobs(h)).toHaveLength(1);
  });

  it("a typed no to the confirming question of an irreversible yes/no question records nothing", async () => {
    const h = await openHarness(emulator());
    const { id } = await presentQuestion(h, confirmCard({ irreversible: true }));
    await h.owner.say("yes");
    await h.pump();
    expect(replies(h).at(-1)).toBe('Record "Yes" as your answer? It cannot be undone.');
    await h.owner.say("no");
    await h.pump();
    expect(loadQuestion(h, id).card.status).toBe("pending");
    expect(replies(h).at(-1)).toBe("Not recorded: &quot;yes&quot;. Reply with your answer.");
    await h.owner.say("yes");
    await h.pump();
    await h.owner.say("yes");
    await h.pump();
    expect(loadQuestion(h, id).card.answer).toMatchObject({ selected: "yes" });
    expect(listJobs(h)).toHaveLength(1);
  });

  it("two letters or more are recorded at once", async () => {
    const h = await openHarness(emulator());
    const { id } = await presentQuestion(h, textCard());
    await h.owner.say("Al");
    await h.pump();
    expect(loadQuestion(h, id).card.answer).toEqual({ text: "Al" });
  });
});

describe("replies that target another question", () => {
  it("a reply to an older message answers that question, not the presented one", async () => {
    const h = await openHarness(emulator());
    const { id: older, message } = await presentQuestion(h, selectCard({ priority: "high" }));
    const later = await h.ask(confirmCard());
    await h.owner.tap(buttonData(message, "🅿️ Park"), message.messageId);
    await h.pump();
    expect(h.slot.current()?.questionId).toBe(later);
    await h.owner.say("Taxes", { replyTo: message.messageId });
    await h.pump();
    expect(loadQuestion(h, older).card.answer?.text).toBe("Taxes");
    expect(loadQuestion(h, later).card.status).toBe("pending");
    expect(h.slot.current()?.questionId).toBe(later);
  });

  it("a late reply to an answered question is audited, not applied, and says what is open", async () => {
    const h = await openHarness(emulator());
    const { id, message } = await presentQuestion(h, selectCard({ priority: "high" }));
    await h.ask(confirmCard());
    await answerQuestion(h, id, { text: "Finance" }, { via: "web" });
    await h.slot.reconcile();
    await h.owner.say("Taxes", { replyTo: message.messageId });
    await h.pump();
    expect(loadQuestion(h, id).card.answer?.text).toBe("Finance");
    const reply = replies(h).at(-1) ?? "";
    expect(reply).toContain("already answered via web: Finance");
    expect(reply).toContain("Open now: <b>May I delete backups");
    const late = h.ledger.auditFor(id).find((a) => a.action === "late-reply");
    expect(late).toMatchObject({ verbatim: "Taxes", outcome: "not-applied" });
    expect(listJobs(h)).toHaveLength(1);
  });
});

describe("a reply to a nudge about a question that is not on screen", () => {
  it("answers neither that question nor the open one, and says how to answer it", async () => {
    const h = await openHarness(emulator());
    const { id: open } = await presentQuestion(h, selectCard({ priority: "high" }));
    const nudged = await h.ask(
      selectCard({
        prompt: "Which drawer takes the <manuals>?",
        input: {
          type: "select",
          options: [
            { id: "top", label: "Top" },
            { id: "bottom", label: "Bottom" },
          ],
        },
      }),
    );
    const view = pendingQuestions(h).pending.find((q) => q.id === nudged);
    expect(await h.slot.nudger()(view as NonNullable<typeof view>)).toBe(true);
    const nudge = await h.lastMessage();
    // "a" is an option of both questions: meant for the nudged one, it must not answer the open one.
    await h.owner.say("a", { replyTo: nudge.messageId });
    await h.pump();
    expect(loadQuestion(h, open).card.status).toBe("pending");
    expect(loadQuestion(h, nudged).card.status).toBe("pending");
    expect(listJobs(h)).toHaveLength(0);
    expect(replies(h).at(-1)).toBe(
      "Not recorded: the message you replied to is about “Which drawer takes the &lt;manuals&gt;?”, not the open question. Tap that message's button to show it here first, or reply to the open question itself.",
    );
    // A reply to a message about the open question itself still answers it.
    await h.owner.say("Taxes");
    await h.pump();
    expect(loadQuestion(h, open).card.answer?.text).toBe("Taxes");
  });
});

describe("an edited message", () => {
  it("is not read again, and the boxholder is told so under it", async () => {
    const h = await openHarness(emulator());
    const { id } = await presentQuestion(h, selectCard());
    await h.owner.say("Taxs");
    await h.pump();
    const clarified = h.sent("sendMessage").at(-1)?.payload as {
      reply_parameters: { message_id: number };
    };
    const typed = clarified.reply_parameters.message_id;
    // The typo corrected in place: Telegram sends the edit as an edited_message update.
    const chat = { id: OWNER, type: "private" as const, first_name: "O" };
    const from = { id: OWNER, is_bot: false, first_name: "O" };
    await h.deliver({
      update_id: 900_001,
      edited_message: { message_id: typed, date: 1, edit_date: 2, chat, from, text: "Taxes" },
    });
    const reply = h.sent("sendMessage").at(-1)?.payload;
    expect(reply?.text).toBe(EDITED_REPLY);
    expect(reply?.reply_parameters).toMatchObject({ message_id: typed });
    expect(loadQuestion(h, id).card.status).toBe("pending");
    // Telegram sends edits only to a bot that asks for them (polling and webhook ask alike).
    expect(UPDATE_KINDS).toContain("edited_message");
  });
});

describe("text typed while the next question is claimed but not yet on screen", () => {
  it("is taken for the question shown before it, never for the one nobody has seen", async () => {
    const h = await openHarness(emulator());
    const { id: shown, message } = await presentQuestion(h, selectCard());
    await h.owner.tap(buttonData(message, "b)"), message.messageId);
    await h.pump();
    // The next question is claimed, as by a process that died sending it (or a send in flight).
    const unseen = await h.ask(selectCard({ prompt: "Which drawer takes the manuals?" }));
    const card = loadQuestion(h, unseen).card;
    expect(
      h.slot.presentations.claim(unseen, "telegram", questionFingerprint(card), T0),
    ).toBeDefined();
    await h.owner.say("Finance");
    await h.pump();
    expect(loadQuestion(h, unseen).card.status).toBe("pending");
    expect(loadQuestion(h, shown).card.answer?.text).toBe("Taxes");
    expect(replies(h).at(-1)).toContain("Not recorded: that question was already answered");
    expect(listJobs(h)).toHaveLength(1);
  });
});

describe("park and next", () => {
  it("Park releases the slot to the next question; the parked one comes back after it, or with /next", async () => {
    const h = await openHarness(emulator());
    const { id: first, message } = await presentQuestion(h, selectCard({ priority: "high" }));
    const second = await h.ask(confirmCard());
    await h.owner.tap(buttonData(message, "🅿️ Park"), message.messageId);
    await h.pump();
    expect(h.sent("editMessageText")[0]?.payload.text).toContain("Parked");
    expect(loadQuestion(h, first).card.status).toBe("pending");
    expect(h.slot.current()?.questionId).toBe(second);
    await h.owner.say("no");
    await h.pump();
    // Behind the queue, not out of it: with the queue answered, the parked question is back.
    expect(h.slot.current()?.questionId).toBe(first);
    expect((await h.lastMessage()).text).toContain("Where do photographed receipts belong?");
    await h.owner.command("/park");
    await h.pump();
    expect(h.slot.current()).toBeUndefined();
    await h.owner.command("/next");
    await h.pump();
    expect(h.slot.current()?.questionId).toBe(first);
  });
});
