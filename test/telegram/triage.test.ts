// Triage in Telegram: with a backlog, /waiting shows a digest whose lines each bring their
// question up, and [✅ Accept N recommendations] first turns the message into the list of
// exactly what would be recorded; only [✅ Record these N] records, one transition per
// question. A question edited between the list and that tap is skipped and named.

import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { listJobs } from "../../src/questions/state.ts";
import { loadQuestion } from "../../src/questions/store.ts";
import { OFFER_LIFETIME_MS } from "../../src/slot/triage/offers.ts";
import { TRIAGE_NOTE } from "../../src/slot/triage/triage.ts";
import { ACCEPTABLE, IRREVERSIBLE, writeBacklog } from "../slot/triage-fixture.ts";
import { gitLog, questionRel } from "../support/box.ts";
import {
  type BotMessage,
  buttonData,
  type Harness,
  openHarness,
  useEmulator,
} from "../support/telegram.ts";

const emulator = useEmulator();

/** The backlog presented as the slot presents it, and the digest /waiting sends. */
async function digestOnScreen(): Promise<{ h: Harness; digest: BotMessage; commits: number }> {
  const h = await openHarness(emulator());
  writeBacklog(h.dir);
  await h.slot.reconcile();
  await h.owner.command("/waiting");
  await h.pump();
  return { h, digest: await h.lastMessage(), commits: (await gitLog(h.dir)).length };
}

/** The text and buttons the digest's message was last edited to. */
function lastEdit(
  h: Harness,
  digest: BotMessage,
): { text: string; buttons: BotMessage["buttons"] } {
  const call = h
    .sent("editMessageText")
    .filter((c) => Number(c.payload.message_id) === digest.messageId)
    .at(-1);
  const markup = call?.payload.reply_markup as
    | { inline_keyboard?: BotMessage["buttons"][] }
    | undefined;
  return { text: String(call?.payload.text ?? ""), buttons: markup?.inline_keyboard?.flat() ?? [] };
}

async function tapAccept(h: Harness, digest: BotMessage) {
  await h.owner.tap(buttonData(digest, "✅ Accept 4 recommendations"), digest.messageId);
  await h.pump();
  const list = lastEdit(h, digest);
  return { ...list, messageId: digest.messageId, chatId: digest.chatId };
}

describe("triage of a backlog in Telegram", () => {
  it("with 12 waiting the digest offers 4, lists them before the confirm, and records 4 with 4 commits and 4 jobs", async () => {
    const { h, digest, commits } = await digestOnScreen();
    expect(digest.text).toContain("12 questions wait.");
    expect(digest.text).toContain(`${IRREVERSIBLE.prompt}\n    ⭐ Finance (irreversible`);
    const lines = digest.buttons.filter((b) => /^\d+\. /.test(b.text));
    expect(lines).toHaveLength(10);

    const list = await tapAccept(h, digest);
    for (const { prompt, answer } of ACCEPTABLE)
      expect(list.text).toContain(`${prompt} → <b>${answer}</b>`);
    expect(list.text).not.toContain(IRREVERSIBLE.prompt);
    expect(list.buttons.map((b) => b.text)).toEqual(["✅ Record these 4"]);
    expect(listJobs(h)).toHaveLength(0);
    expect((await gitLog(h.dir)).length).toBe(commits);

    await h.owner.tap(buttonData(list, "✅ Record these 4"), list.messageId);
    await h.pump();
    expect(listJobs(h)).toHaveLength(4);
    expect((await gitLog(h.dir)).length).toBe(commits + 4);
    for (const { id, answer } of ACCEPTABLE) {
      const card = loadQuestion(h, id).card;
      expect(card["answered-via"]).toBe("telegram");
      expect(card.answer).toMatchObject({ text: answer, note: TRIAGE_NOTE });
    }
    expect(lastEdit(h, digest).text).toContain("✅ Recorded 4 answers:");
    expect(lastEdit(h, digest).buttons).toEqual([]);
    // The first of them was on screen: the slot moved on to a question still waiting.
    expect(ACCEPTABLE.map((a) => a.id)).not.toContain(h.slot.current()?.questionId);
  });

  it("a question edited between the list and the second tap is skipped and named; the other 3 are recorded", async () => {
    const { h, digest, commits } = await digestOnScreen();
    const list = await tapAccept(h, digest);
    const edited = ACCEPTABLE[1];
    const path = join(h.dir, questionRel(edited.id));
    writeFileSync(path, readFileSync(path, "utf8").replace("recommended: yes", "recommended: no"));

    await h.owner.tap(buttonData(list, "✅ Record these 4"), list.messageId);
    await h.pump();
    expect(listJobs(h)).toHaveLength(3);
    expect((await gitLog(h.dir)).length).toBe(commits + 3);
    expect(loadQuestion(h, edited.id).card.status).toBe("pending");
    const result = lastEdit(h, digest).text;
    expect(result).toContain("✅ Recorded 3 answers:");
    expect(result).toContain(
      `“${edited.prompt}” was edited since the list; nothing was recorded for it.`,
    );
    const acks = h.sent("answerCallbackQuery").map((c) => String(c.payload.text));
    expect(acks.at(-1)).toBe("✅ Recorded 3 answers, skipped 1.");
  });

  it("[✅ Record these 4] tapped more than an hour after the list records nothing, says why and drops the buttons", async () => {
    const { h, digest, commits } = await digestOnScreen();
    const list = await tapAccept(h, digest);
    // The list was shown an hour and a minute before the tap.
    const { id, created_at } = h.ledger.db
      .prepare("SELECT id, created_at FROM triage_offers ORDER BY created_at DESC LIMIT 1")
      .get() as { id: string; created_at: string };
    const shown = new Date(Date.parse(created_at) - OFFER_LIFETIME_MS - 60_000).toISOString();
    h.ledger.db.prepare("UPDATE triage_offers SET created_at = ? WHERE id = ?").run(shown, id);

    await h.owner.tap(buttonData(list, "✅ Record these 4"), list.messageId);
    await h.pump();
    expect(listJobs(h)).toHaveLength(0);
    expect((await gitLog(h.dir)).length).toBe(commits);
    const acks = h.sent("answerCallbackQuery").map((c) => String(c.payload.text));
    expect(acks.at(-1)).toBe(
      "This list is over an hour old, so nothing was recorded: send /waiting for a fresh one.",
    );
    const markup = h
      .sent("editMessageReplyMarkup")
      .filter((c) => Number(c.payload.message_id) === digest.messageId)
      .at(-1)?.payload.reply_markup as { inline_keyboard?: unknown[][] } | undefined;
    expect(markup?.inline_keyboard?.flat()).toEqual([]);
  });

  it("a digest line's button shows that question now", async () => {
    const { h, digest } = await digestOnScreen();
    await h.owner.tap(buttonData(digest, "7. "), digest.messageId);
    await h.pump();
    expect(h.slot.current()?.questionId).toBe("plain-2");
    expect((await h.lastMessage()).text).toContain("Where does scan 2 go?");
  });
});
