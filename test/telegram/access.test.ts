// Who may use the bot: the boxholder in a private chat. Strangers and group chats get one
// polite refusal and nothing else; a pairing code from `qbridge pair` binds a boxholder once.

import type { Update } from "grammy/types";
import { describe, expect, it } from "vitest";
import { REFUSAL } from "../../bridges/telegram/access.ts";
import { loadQuestion } from "../../src/questions/store.ts";
import { Owners } from "../../src/slot/owner.ts";
import { selectCard } from "../support/box.ts";
import {
  GROUP,
  type Harness,
  OWNER,
  openHarness,
  STRANGER,
  useEmulator,
} from "../support/telegram.ts";

const emulator = useEmulator();

const sentTo = (h: Harness, chat: number) =>
  h.sent("sendMessage").filter((c) => Number(c.payload.chat_id) === chat);

describe("strangers and groups", () => {
  it("a group chat gets one refusal, however often it writes, and nothing changes", async () => {
    const h = await openHarness(emulator());
    const id = await h.ask(selectCard());
    await h.slot.reconcile();
    await h.group.say("a");
    await h.group.say("b");
    await h.group.command("/waiting");
    await h.pump();
    const toGroup = sentTo(h, h.group.chatId);
    expect(toGroup).toHaveLength(1);
    expect(toGroup[0]?.payload.text).toContain("only in a private chat");
    expect(loadQuestion(h, id).card.status).toBe("pending");
    expect(h.ledger.auditFor().filter((a) => a.outcome === "refused:stranger")).toHaveLength(3);
  });

  it("a stranger in a private chat gets one refusal and cannot answer", async () => {
    const h = await openHarness(emulator());
    const id = await h.ask(selectCard());
    await h.slot.reconcile();
    await h.stranger.say("a");
    await h.stranger.command("/park");
    await h.pump();
    expect(sentTo(h, STRANGER)).toHaveLength(1);
    expect(sentTo(h, STRANGER)[0]?.payload.text).toContain("answers only its owner");
    expect(loadQuestion(h, id).card.status).toBe("pending");
    expect(h.slot.current()?.questionId).toBe(id);
  });
  it("a stranger's text of any content, empty too, in any chat, is refused and audited", async () => {
    const h = await openHarness(emulator());
    const id = await h.ask(selectCard());
    await h.slot.reconcile();
    let next = 900;
    for (const chat of [
      { id: GROUP, type: "group" as const, title: "G" },
      { id: STRANGER, type: "private" as const, first_name: "S" },
    ]) {
      for (const text of ["", "a"]) {
        const before = h.ledger.auditFor().length;
        await h.deliver({
          update_id: next++,
          message: {
            message_id: next++,
            date: 0,
            chat,
            from: { id: STRANGER, is_bot: false, first_name: "S" },
            text,
          },
        } as Update);
        const added = h.ledger.auditFor().slice(before);
        expect(
          added.map((a) => a.outcome),
          `${chat.type} "${text}"`,
        ).toEqual(["refused:stranger"]);
      }
    }
    expect(loadQuestion(h, id).card.status).toBe("pending");
  });
});

describe("a stranger's edited message", () => {
  it("is audited as refused, like their picture, and gets no second refusal", async () => {
    const h = await openHarness(emulator());
    const id = await h.ask(selectCard());
    await h.slot.reconcile();
    await h.stranger.say("a");
    await h.pump();
    let next = 700;
    for (const chat of [
      { id: STRANGER, type: "private" as const, first_name: "S" },
      { id: GROUP, type: "group" as const, title: "G" },
    ]) {
      const before = h.ledger.auditFor().length;
      await h.deliver({
        update_id: next++,
        edited_message: {
          message_id: next++,
          date: 0,
          edit_date: 1,
          chat,
          from: { id: STRANGER, is_bot: false, first_name: "S" },
          text: "b",
        },
      } as Update);
      const added = h.ledger.auditFor().slice(before);
      expect(
        added.map((a) => [a.outcome, a.verbatim]),
        chat.type,
      ).toEqual([["refused:stranger", "b"]]);
    }
    expect(sentTo(h, STRANGER)).toHaveLength(1);
    expect(sentTo(h, GROUP)).toHaveLength(1);
    expect(loadQuestion(h, id).card.status).toBe("pending");
  });
});

describe("the refusal says what would help", () => {
  it("with TELEGRAM_OWNER_ID set, to set it to the sender's id (codes are not used then); without, to pair", async () => {
    const h = await openHarness(emulator());
    await h.stranger.say("hello");
    await h.pump();
    expect(sentTo(h, STRANGER).map((c) => c.payload.text)).toEqual([
      `Sorry, this bot answers only its owner's questions. If that is you, set TELEGRAM_OWNER_ID=${STRANGER} (your Telegram user id) where qbridge serve runs, and restart it.`,
    ]);

    const paired = await openHarness(emulator(), { noOwner: true });
    await paired.stranger.say("hello");
    await paired.pump();
    expect(sentTo(paired, STRANGER).map((c) => c.payload.text)).toEqual([REFUSAL]);
  });
});

describe("plain-text replies", () => {
  it("carry no literal backticks (Telegram would show them as they are)", async () => {
    const h = await openHarness(emulator(), { noOwner: true });
    await h.stranger.say("hello?");
    await h.stranger.command("/start NOPE-NOPE");
    await h.group.say("hi all");
    await h.pump();
    const { code } = new Owners(h.ledger.db).newPairingCode("telegram", h.box.clock.now());
    await h.owner.command(`/start ${code}`);
    await h.owner.command("/frobnicate");
    await h.owner.command("/next");
    await h.owner.command("/park");
    await h.owner.command("/dismiss");
    await h.owner.say("a");
    await h.pump();
    const plain = h.sent("sendMessage").filter((c) => c.payload.parse_mode === undefined);
    expect(plain.length).toBeGreaterThanOrEqual(8);
    for (const call of plain) expect(String(call.payload.text)).not.toContain("`");
  });
});

describe("pairing", () => {
  it("without an owner nothing is presented; /start with a fresh code binds the sender and presents at once", async () => {
    const h = await openHarness(emulator(), { noOwner: true });
    const id = await h.ask(selectCard());
    await h.slot.reconcile();
    expect(h.sent("sendMessage")).toHaveLength(0);
    const { code } = new Owners(h.ledger.db).newPairingCode("telegram", h.box.clock.now());
    await h.owner.command(`/start ${code}`);
    await h.pump();
    expect(sentTo(h, OWNER)[0]?.payload.text).toContain("Paired");
    expect(h.slot.current()?.questionId).toBe(id);
    expect((await h.lastMessage()).text).toContain("Where do photographed receipts belong?");
  });

  it("a used code binds nobody else", async () => {
    const h = await openHarness(emulator(), { noOwner: true });
    const { code } = new Owners(h.ledger.db).newPairingCode("telegram", h.box.clock.now());
    await h.owner.command(`/start ${code}`);
    await h.stranger.command(`/start ${code}`);
    await h.pump();
    expect(sentTo(h, STRANGER)[0]?.payload.text).toContain("used already");
    expect(new Owners(h.ledger.db).get("telegram")?.userId).toBe(String(OWNER));
  });

  it("a code older than ten minutes has expired", async () => {
    const h = await openHarness(emulator(), { noOwner: true });
    const past = new Date(h.box.clock.now().getTime() - 11 * 60_000);
    const { code } = new Owners(h.ledger.db).newPairingCode("telegram", past);
    await h.owner.command(`/start ${code}`);
    await h.pump();
    expect(sentTo(h, OWNER)[0]?.payload.text).toContain("expired");
    expect(new Owners(h.ledger.db).get("telegram")).toBeUndefined();
  });
});

describe("/waiting", () => {
  it.each([
    [0, "Nothing is waiting on you."],
    [1, "1 waiting on you. Open now: <b>Question 1?</b>"],
    // From 5 waiting, /waiting is the triage digest (test/telegram/triage.test.ts).
    [4, "4 waiting on you. Open now: <b>Question 1?</b>"],
  ])("with %i pending answers with the count and the top question alone", async (count, text) => {
    const h = await openHarness(emulator(), { link: true });
    for (let i = 1; i <= count; i++) {
      await h.ask(selectCard({ prompt: `Question ${i}?`, "asked-at": `2026-07-0${i}T09:00:00Z` }));
    }
    await h.slot.reconcile();
    await h.owner.command("/waiting");
    await h.pump();
    const reply = sentTo(h, OWNER).at(-1)?.payload.text;
    expect(reply).toBe(text);
  });

  it('"what is waiting on me?" in words gets the same answer', async () => {
    const h = await openHarness(emulator());
    await h.ask(selectCard({ prompt: "Question 1?" }));
    await h.slot.reconcile();
    await h.owner.say("What is waiting on me?");
    await h.pump();
    expect(sentTo(h, OWNER).at(-1)?.payload.text).toBe(
      "1 waiting on you. Open now: <b>Question 1?</b>",
    );
  });
});
