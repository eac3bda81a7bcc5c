// Story: pairing cannot be guessed at, and cannot move the bot behind the boxholder's back. A
// sender who keeps sending wrong /start codes gets five refusals, one that says to wait, then
// silence (a right code included) until the window has passed. Once a boxholder is paired, a
// plain code binds nobody else: `qbridge pair` says to use --replace, and a --replace code moves
// the bot, tells the one before in their chat, and shows the open question to the new one.

import { describe, expect, it } from "vitest";
import { ALREADY_PAIRED } from "../../bridges/telegram/pairing.ts";
import { Owners, PAIRING_TRIES, PAIRING_WINDOW_MS } from "../../src/slot/owner.ts";
import { cliEnv, runCli, selectCard } from "../support/box.ts";
import {
  type Harness,
  OWNER,
  openHarness,
  presentQuestion,
  STRANGER,
  useEmulator,
} from "../support/telegram.ts";

const emulator = useEmulator();

const sentTo = (h: Harness, chat: number) =>
  h.sent("sendMessage").filter((c) => Number(c.payload.chat_id) === chat);
const owners = (h: Harness) => new Owners(h.ledger.db);

describe("wrong pairing codes", () => {
  it("five refusals, then one saying to wait, then silence for that sender, a right code included", async () => {
    const h = await openHarness(emulator(), { noOwner: true });
    for (let i = 0; i < 9; i++) await h.stranger.command(`/start WRNG-C0D${i}`);
    await h.pump();
    const replies = sentTo(h, STRANGER).map((c) => String(c.payload.text));
    expect(replies).toHaveLength(PAIRING_TRIES + 1);
    expect(replies.slice(0, PAIRING_TRIES).every((t) => t.includes("not known"))).toBe(true);
    expect(replies[PAIRING_TRIES]).toContain("Too many pairing codes that did not work. Wait 15");

    // Meanwhile a right code from that sender is not even looked at; it binds nobody.
    const { code } = owners(h).newPairingCode("telegram", h.box.clock.now());
    await h.stranger.command(`/start ${code}`);
    await h.pump();
    expect(sentTo(h, STRANGER)).toHaveLength(PAIRING_TRIES + 1);
    expect(owners(h).get("telegram")).toBeUndefined();
    // The limit is per sender: the owner pairs with the same, still unused, code.
    await h.owner.command(`/start ${code}`);
    await h.pump();
    expect(sentTo(h, OWNER)[0]?.payload.text).toContain("Paired");
    // Every attempt is audited, the silent ones too.
    const pairs = h.ledger.auditFor().filter((a) => a.action === "pair");
    expect(pairs.filter((a) => a.outcome === "refused:silent")).toHaveLength(4);

    // Once the window has passed, the sender may try again.
    const later = new Date(h.box.clock.now().getTime() + PAIRING_WINDOW_MS + 1_000);
    expect(owners(h).pair("telegram", "WRNG-AGAN", String(STRANGER), later)).toEqual({
      ok: false,
      reason: "unknown",
    });
  });
});

describe("the boxholder sends a code again", () => {
  it("is told they are paired already, as often as they send it, and stays the boxholder", async () => {
    const h = await openHarness(emulator(), { noOwner: true });
    const { code } = owners(h).newPairingCode("telegram", h.box.clock.now());
    await h.owner.command(`/start ${code}`);
    await h.pump();
    // The same /start tapped again (or sent twice): no "run qbridge pair", which would refuse
    // while they are paired, and no count towards the limit for wrong codes.
    for (let i = 0; i <= PAIRING_TRIES; i++) await h.owner.command(`/start ${code}`);
    await h.pump();
    const replies = sentTo(h, OWNER).map((c) => String(c.payload.text));
    expect(replies[0]).toContain("Paired");
    expect(replies.slice(1)).toEqual(Array(PAIRING_TRIES + 1).fill(ALREADY_PAIRED));
    expect(owners(h).get("telegram")?.userId).toBe(String(OWNER));
  });
});

describe("a code is made for one surface", () => {
  it("a code made for another surface is not known on Telegram, binds nobody, and still pairs on its own", async () => {
    const h = await openHarness(emulator(), { noOwner: true });
    const elsewhere = owners(h).newPairingCode("example", h.box.clock.now());
    await h.owner.command(`/start ${elsewhere.code}`);
    await h.pump();
    expect(sentTo(h, OWNER).pop()?.payload.text).toContain("That pairing code is not known");
    expect(owners(h).get("telegram")).toBeUndefined();
    expect(owners(h).pair("example", elsewhere.code, "u-7", h.box.clock.now())).toEqual({
      ok: true,
      replaced: undefined,
    });
    expect(owners(h).get("example")?.userId).toBe("u-7");
    expect(owners(h).get("telegram")).toBeUndefined();
  });
});

describe("pairing again while a boxholder is paired", () => {
  it("a plain code binds nobody; a --replace code moves the bot, tells the one before, and moves the open question", async () => {
    const h = await openHarness(emulator(), { noOwner: true });
    const first = owners(h).newPairingCode("telegram", h.box.clock.now());
    await h.owner.command(`/start ${first.code}`);
    await h.pump();
    const { id, message } = await presentQuestion(h, selectCard());
    expect(message.chatId).toBe(OWNER);

    // `qbridge pair` refuses to make a plain code now, and says what to do.
    const plain = await runCli(["pair"], { env: cliEnv(h.dir) });
    expect(plain.code).toBe(1);
    expect(plain.stderr.trim()).toBe(
      `qbridge: telegram user ${OWNER} is the boxholder (paired 2026-07-10T09:00:00.000Z): run "qbridge pair --replace" for a code that moves the bot to another account (they are told)`,
    );
    // A plain code made before the pairing binds nobody else either.
    const stale = owners(h).newPairingCode("telegram", h.box.clock.now());
    await h.stranger.command(`/start ${stale.code}`);
    await h.pump();
    expect(sentTo(h, STRANGER).pop()?.payload.text).toContain("already has a boxholder");
    expect(owners(h).get("telegram")?.userId).toBe(String(OWNER));

    const replace = await runCli(["pair", "--replace", "--json"], { env: cliEnv(h.dir) });
    expect(replace.code).toBe(0);
    const { code, replace: flagged } = JSON.parse(replace.stdout) as {
      code: string;
      replace: boolean;
    };
    expect(flagged).toBe(true);
    await h.stranger.command(`/start ${code}`);
    await h.pump();

    expect(owners(h).get("telegram")?.userId).toBe(String(STRANGER));
    expect(sentTo(h, STRANGER).some((c) => String(c.payload.text).startsWith("Paired"))).toBe(true);
    const told = sentTo(h, OWNER).pop();
    expect(told?.payload.text).toContain("You are no longer the boxholder of this bot");
    expect(told?.payload.text).toContain(`user ${STRANGER}`);
    // The question open in the old chat is closed there and shown in the new one.
    const edits = h
      .sent("editMessageText")
      .filter((c) => c.payload.message_id === message.messageId);
    expect(String(edits.pop()?.payload.text)).toContain(
      "Moved to the new boxholder: nothing was done here",
    );
    const shown = await h.lastMessage();
    expect(shown.chatId).toBe(STRANGER);
    expect(shown.text).toContain("Where do photographed receipts belong?");
    expect(h.slot.current()?.questionId).toBe(id);
    expect(
      h.ledger
        .auditFor()
        .filter((a) => a.action === "pair")
        .pop()?.detail,
    ).toBe(`replaced telegram user ${OWNER}`);
  });
});
