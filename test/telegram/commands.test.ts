// The boxholder's other ways to move the slot: the Dismiss button, /dismiss, /help, and the
// nudge for a question that is not on screen, whose "Show it" button brings it up. /waiting and
// /help carry a fresh link to every question, or say how to get one.

import type { Transformer } from "grammy";
import { describe, expect, it } from "vitest";
import { MAX_MESSAGE_CHARS } from "../../bridges/telegram/limits.ts";
import { questionFingerprint } from "../../src/card/fingerprint.ts";
import { GrantStore } from "../../src/ledger/grants.ts";
import { listJobs, pendingQuestions } from "../../src/questions/state.ts";
import { loadQuestion } from "../../src/questions/store.ts";
import { confirmCard, selectCard, T0, textCard } from "../support/box.ts";
import {
  buttonData,
  type Harness,
  openHarness,
  presentQuestion,
  useEmulator,
} from "../support/telegram.ts";

const emulator = useEmulator();

const texts = (h: Harness, method: string) =>
  h.sent(method).map((c) => String(c.payload.text ?? ""));

describe("declining a question", () => {
  it("the Dismiss button dismisses the presented question and presents the next", async () => {
    const h = await openHarness(emulator());
    const { id, message } = await presentQuestion(h, selectCard({ priority: "high" }));
    const next = await h.ask(textCard());
    await h.owner.tap(buttonData(message, "🚫 Dismiss"), message.messageId);
    await h.pump();
    expect(loadQuestion(h, id).card.status).toBe("dismissed");
    expect(listJobs(h)).toHaveLength(0);
    expect(texts(h, "answerCallbackQuery").at(-1)).toContain("Dismissed");
    expect(texts(h, "editMessageText").at(-1)).toContain("Dismissed");
    expect(h.slot.current()?.questionId).toBe(next);
  });

  it("/dismiss dismisses the open question, and says so when nothing is open", async () => {
    const h = await openHarness(emulator());
    await h.owner.command("/dismiss");
    await h.pump();
    expect(texts(h, "sendMessage").at(-1)).toBe("Nothing is open to dismiss.");
    const { id } = await presentQuestion(h, confirmCard());
    await h.owner.command("/dismiss");
    await h.pump();
    expect(loadQuestion(h, id).card.status).toBe("dismissed");
    expect(h.slot.current()).toBeUndefined();
  });
});

describe("commands in any case", () => {
  it("/Waiting and /DISMISS, as a phone's keyboard capitalises them, are the commands", async () => {
    const h = await openHarness(emulator());
    const { id } = await presentQuestion(h, confirmCard());
    await h.owner.command("/Waiting");
    await h.pump();
    expect(texts(h, "sendMessage").at(-1)).toContain("1 waiting");
    await h.owner.command("/DISMISS");
    await h.pump();
    expect(loadQuestion(h, id).card.status).toBe("dismissed");
    expect(texts(h, "sendMessage").join("\n")).not.toContain("I do not know that command");
  });
});

describe("help", () => {
  it("/help explains how to answer and lists the commands", async () => {
    const h = await openHarness(emulator());
    await h.owner.command("/help");
    await h.pump();
    const help = texts(h, "sendMessage").at(-1) ?? "";
    for (const command of ["/waiting", "/next", "/park", "/dismiss"])
      expect(help).toContain(command);
  });
});

describe("a link to every question", () => {
  const allButton = (h: Harness, n: number) => {
    const markup = h.sent("sendMessage").at(n)?.payload.reply_markup as
      | { inline_keyboard: { text: string; url?: string }[][] }
      | undefined;
    return markup?.inline_keyboard.flat().find((b) => b.text === "🌐 All questions");
  };

  it("/waiting and /help carry an [🌐 All questions] button with a fresh signed link", async () => {
    const h = await openHarness(emulator(), { link: true });
    await h.owner.command("/waiting");
    await h.owner.command("/help");
    await h.pump();
    for (const n of [-2, -1]) {
      expect(allButton(h, n)?.url).toBe("https://q.example.org/questions?s=signed");
      expect(texts(h, "sendMessage").at(n)).not.toContain("QBRIDGE_PUBLIC_URL");
    }
  });

  it("without a public URL they say how to get one", async () => {
    const h = await openHarness(emulator());
    await h.owner.command("/waiting");
    await h.owner.command("/help");
    await h.pump();
    for (const n of [-2, -1]) {
      expect(allButton(h, n)).toBeUndefined();
      expect(texts(h, "sendMessage").at(n)).toContain(
        "No web link: set <code>QBRIDGE_PUBLIC_URL</code> where qbridge serve runs",
      );
    }
  });
});

describe("a public URL whose host has no dot (http://nas:8787)", () => {
  /** Telegram refuses a URL button on a host without a dot, and the whole message with it. */
  const telegramRefusesDotless: Transformer = async (prev, method, payload, signal) => {
    const markup = (payload as { reply_markup?: { inline_keyboard?: { url?: string }[][] } })
      .reply_markup;
    const url = markup?.inline_keyboard?.flat().find((b) => b.url)?.url;
    if (url && !new URL(url).hostname.includes(".")) {
      const description = `Bad Request: inline keyboard button URL '${url}' is invalid: Wrong HTTP URL`;
      return { ok: false, error_code: 400, description } as never;
    }
    return prev(method, payload, signal);
  };

  it("still shows the question, /waiting and /help: without 🌐 buttons, which Telegram refuses there", async () => {
    const h = await openHarness(emulator(), {
      link: "http://nas:8787",
      cut: telegramRefusesDotless,
    });
    const { message } = await presentQuestion(h, selectCard());
    expect(message.text).toContain("Where do photographed receipts belong?");
    expect(message.buttons.some((b) => "url" in b)).toBe(false);
    await h.owner.command("/waiting");
    await h.owner.command("/help");
    await h.pump();
    const [waiting, helped] = h.sent("sendMessage").slice(-2);
    expect(waiting?.result).toBeDefined();
    expect(String(waiting?.payload.text)).toContain("1 waiting on you");
    expect(helped?.result).toBeDefined();
    expect(String(helped?.payload.text)).toContain("one question at a time");
  });
});

describe("a nudge for a question that is not on screen", () => {
  it("comes with a Show it button that presents that question and sets the open one aside", async () => {
    const h = await openHarness(emulator());
    const { id: open } = await presentQuestion(h, selectCard({ priority: "high" }));
    const waitingId = await h.ask(confirmCard());
    const waiting = pendingQuestions(h).pending.find((q) => q.id === waitingId);
    expect(waiting).toBeDefined();
    expect(await h.slot.nudger()(waiting as NonNullable<typeof waiting>)).toBe(true);
    const nudge = await h.lastMessage();
    expect(nudge.text).toContain("May I delete backups older than a year?");
    await h.owner.tap(buttonData(nudge, "👀 Show it"), nudge.messageId);
    await h.pump();
    expect(h.slot.current()?.questionId).toBe(waitingId);
    expect((await h.lastMessage()).text).toContain("May I delete backups older than a year?");
    // The question that was open is set aside, not answered: it is still pending and queued.
    expect(loadQuestion(h, open).card.status).toBe("pending");
    expect(h.slot.waiting().count).toBe(2);
  });
});

describe("questions wait but none is open", () => {
  it("/waiting and a stray answer say /next shows the parked one; once put off, that it comes back by itself", async () => {
    const h = await openHarness(emulator());
    await presentQuestion(h, selectCard());
    await h.owner.command("/park");
    await h.owner.command("/waiting");
    await h.owner.say("a");
    await h.pump();
    expect(texts(h, "sendMessage").slice(-2)).toEqual([
      "1 waiting on you. Next: <b>Where do photographed receipts belong?</b> (/next shows it)\n\nNo web link: set <code>QBRIDGE_PUBLIC_URL</code> where qbridge serve runs (the https address of the web page) to get one here.",
      'Nothing is open right now, so "a" was not recorded. /next shows the next question.',
    ]);

    await h.owner.command("/next");
    await h.owner.command("/later");
    await h.pump();
    const times = await h.lastMessage();
    await h.owner.tap(buttonData(times, "⏰ Tomorrow"), times.messageId);
    await h.pump();
    expect(h.slot.current()).toBeUndefined();
    const before = texts(h, "sendMessage").length;
    await h.owner.say("a");
    await h.owner.command("/waiting");
    await h.pump();
    const putOff =
      "Nothing to answer now: the 1 question waiting was put off with Later and comes back by itself.";
    expect(texts(h, "sendMessage").slice(before)).toEqual([
      `Nothing is open right now, so "a" was not recorded. ${putOff}`,
      `${putOff}\n\nNo web link: set <code>QBRIDGE_PUBLIC_URL</code> where qbridge serve runs (the https address of the web page) to get one here.`,
    ]);
    // /next brings the put-off question back now, as the chat's next does.
    await h.owner.command("/next");
    await h.pump();
    expect(h.slot.current()?.state).toBe("presented");
    expect(texts(h, "sendMessage").at(-1)).toContain("Where do photographed receipts belong?");
  });
});

describe("a reply that quotes the open question", () => {
  it("quotes only a message of this chat: a question open in qbridge chat is not quoted", async () => {
    const h = await openHarness(emulator());
    const id = await h.ask(selectCard());
    // The question is open at the keyboard (qbridge chat), whose "message" is no Telegram one.
    const card = loadQuestion(h, id).card;
    const seq = h.slot.presentations.claim(id, "terminal", questionFingerprint(card), T0);
    h.slot.presentations.presented(seq as number, { chatId: "terminal", messageId: "1" }, T0);
    await h.owner.command("/waiting");
    await h.pump();
    const reply = h.sent("sendMessage").at(-1)?.payload;
    expect(reply?.text).toContain("Where do photographed receipts belong?");
    expect(reply?.reply_parameters).toBeUndefined();
  });

  it("goes out even when the question's message was deleted meanwhile", async () => {
    const h = await openHarness(emulator());
    const { message } = await presentQuestion(h, selectCard());
    await h.owner.command("/waiting");
    await h.pump();
    expect(h.sent("sendMessage").at(-1)?.payload.reply_parameters).toEqual({
      message_id: message.messageId,
      allow_sending_without_reply: true,
    });
  });
});

describe("/grants and /revoke with agents' commands of any length", () => {
  /** "Allow for this session" on `command`, as the permission hook leaves it. */
  const grant = (h: Harness, id: string, command: string) =>
    new GrantStore(h.ledger).add({
      id,
      agent: "claude-code",
      sessionId: "s-1",
      tool: "Bash",
      pattern: `exact:${command}`,
      questionId: undefined,
      createdAt: T0,
      expiresAt: "2026-07-10T21:00:00Z",
    });

  it("a grant on a 6,000-character heredoc is listed on one line, and revoking it is told", async () => {
    const h = await openHarness(emulator());
    const script = "print('one line of a long script')\n".repeat(170);
    grant(h, "g1", `python3 - <<'EOF'\n${script}EOF`);
    await h.owner.command("/grants");
    await h.pump();
    const list = texts(h, "sendMessage").at(-1) as string;
    expect(list.length).toBeLessThanOrEqual(MAX_MESSAGE_CHARS);
    expect(list.split("\n")[0]).toMatch(/^g1: claude-code may run Bash python3 - <<'EOF'⏎print/);
    expect(list.split("\n")[0]).toMatch(/EOF \(used 0×, until 21:00 UTC\)$/);
    expect(list).toMatch(/Take one back: \/revoke ID$/);
    await h.owner.command("/revoke g1");
    await h.pump();
    const revoked = texts(h, "sendMessage").at(-1) as string;
    expect(revoked.length).toBeLessThanOrEqual(MAX_MESSAGE_CHARS);
    expect(revoked).toMatch(/^Revoked g1: Bash python3 - <<'EOF'⏎print.*EOF asks again\.$/);
  });

  it("forty grants on long commands fit one message, which says how many are left out", async () => {
    const h = await openHarness(emulator());
    for (let i = 1; i <= 40; i++) {
      grant(h, `g${i}`, `node scripts/check-${i}.mjs ${"--flag ".repeat(40)}`.trim());
    }
    await h.owner.command("/grants");
    await h.pump();
    const list = texts(h, "sendMessage").at(-1) as string;
    expect(list.length).toBeLessThanOrEqual(MAX_MESSAGE_CHARS);
    expect(list).toMatch(/^g\d+: claude-code may run Bash node scripts\/check-\d+\.mjs --flag/);
    expect(list).toMatch(/\n… and \d+ more: qbridge grants on the server lists them all\./);
    expect(list).toMatch(/Take one back: \/revoke ID$/);
  });
});
