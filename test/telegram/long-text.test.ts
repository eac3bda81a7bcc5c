// Long words and long cards in the bot's replies: Telegram refuses a message over 4,096
// characters, so a reply that long would leave the boxholder with no answer at all. Every
// reply that quotes what was typed or lists a card's options stays within the limit and still
// says what happened.

import { describe, expect, it } from "vitest";
import { MAX_MESSAGE_CHARS } from "../../bridges/telegram/limits.ts";
import { answerQuestion } from "../../src/questions/answer.ts";
import { listJobs } from "../../src/questions/state.ts";
import { loadQuestion } from "../../src/questions/store.ts";
import { selectCard, textCard } from "../support/box.ts";
import { buttonData, openHarness, presentQuestion, useEmulator } from "../support/telegram.ts";

const emulator = useEmulator();

describe("replies to long text stay within Telegram's 4,096 characters", () => {
  it("a 4,000-character answer to an irreversible text question is asked about, then recorded whole", async () => {
    const h = await openHarness(emulator());
    const { id } = await presentQuestion(h, textCard({ irreversible: true }));
    const words = `${"The whole story, word for word. ".repeat(126)}The end.`;
    expect(words.length).toBeGreaterThan(4_000);
    await h.owner.say(words);
    await h.pump();
    const asked = await h.lastMessage();
    expect(asked.text.length).toBeLessThanOrEqual(MAX_MESSAGE_CHARS);
    expect(asked.text).toMatch(
      /^Record "The whole story, word for word\. .*…" \(4,\d{3} characters\) as your answer\? It cannot be undone\.$/,
    );
    await h.owner.tap(buttonData(asked, "✅ Yes"), asked.messageId);
    await h.pump();
    expect(loadQuestion(h, id).card.answer).toEqual({ text: words });
    expect(listJobs(h)).toHaveLength(1);
  });

  it("text that matches none of 20 long options gets a clarification that fits and says nothing was recorded", async () => {
    const h = await openHarness(emulator());
    const options = Array.from({ length: 20 }, (_, i) => ({
      id: `o${i}`,
      label: `Option ${i}: ${"a long description of where it goes ".repeat(10)}`.trim(),
    }));
    const { id } = await presentQuestion(h, selectCard({ input: { type: "select", options } }));
    await h.owner.say("the blue folder");
    await h.pump();
    const reply = await h.lastMessage();
    expect(reply.text.length).toBeLessThanOrEqual(MAX_MESSAGE_CHARS);
    expect(reply.text).toMatch(
      /^I could not match "the blue folder": expected one of a\) Option 0: /,
    );
    expect(reply.text).toMatch(/Nothing was recorded\.$/);
    expect(loadQuestion(h, id).card.status).toBe("pending");
  });
});

describe("text cut for Telegram keeps every emoji whole (half of one is not UTF-8)", () => {
  it("a tap's answer naming a long answer of emoji is cut between characters", async () => {
    const h = await openHarness(emulator());
    // One label of each parity: the 200-unit cut lands inside an emoji in one of them.
    for (const label of ["😀".repeat(150), `x${"😀".repeat(150)}`]) {
      const options = [
        { id: "smile", label },
        { id: "plain", label: "Plain" },
      ];
      const { id, message } = await presentQuestion(
        h,
        selectCard({ input: { type: "select", options } }),
      );
      await answerQuestion(h, id, { text: "smile" }, { via: "web" });
      await h.owner.tap(buttonData(message, "b)"), message.messageId);
      await h.pump();
      const ack = String(h.sent("answerCallbackQuery").at(-1)?.payload.text);
      expect(ack).toMatch(/^Not recorded: meanwhile this question was answered via web: x?😀/);
      expect(ack.length).toBeLessThanOrEqual(200);
      expect(ack).not.toMatch(/\p{Cs}/u);
    }
  });
});
