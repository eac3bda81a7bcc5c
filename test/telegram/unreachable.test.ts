// Story: Telegram cannot be reached for a while (the network is down, or its servers answer
// 502). The question waits; the slot tries again after 5 s, then at doubling intervals up to a
// minute, on the wall clock; the log warns once as the outage starts, reminds every half hour,
// and says once when presenting works again. Before, every try warned: a day's outage was
// thousands of warnings.
//
// Simulated: a transformer at the bot's API (where grammY talks to Telegram) throws the error
// grammY throws when the network request fails (HttpError), or answers with Telegram's 502,
// while `down` is set. Everything else is real: the emulator, the box, the ledger, the slot.
// The wall clock the slot retries on is the test's (`wall`), so no test waits.

import { HttpError, type Transformer } from "grammy";
import { describe, expect, it } from "vitest";
import { createClock } from "../../src/box/clock.ts";
import { askQuestion } from "../../src/questions/ask.ts";
import { selectCard, T0 } from "../support/box.ts";
import { botBehind, useEmulator } from "../support/telegram.ts";

const emulator = useEmulator();

type Outage = "network" | "502";
const BLOCKED = { error_code: 403, description: "Forbidden: bot was blocked by the user" };

async function outage(kind: Outage = "network") {
  const wall = { ms: Date.parse(T0) };
  const telegram = { down: true, blocked: false, tries: 0 };
  const cut: Transformer = async (prev, method, payload, signal) => {
    if (method !== "sendMessage" || !(telegram.down || telegram.blocked)) {
      return prev(method, payload, signal);
    }
    telegram.tries++;
    if (telegram.blocked) return { ok: false, ...BLOCKED } as never;
    if (kind === "502") return { ok: false, error_code: 502, description: "Bad Gateway" } as never;
    throw new HttpError(
      `Network request for '${method}' failed!`,
      new Error("connect ECONNREFUSED 127.0.0.1:443"),
    );
  };
  const { box, slot, logs, warnings } = await botBehind(emulator().apiRoot, cut, {
    wallClock: () => wall.ms,
  });
  /** Moves the wall clock to `seconds` after the start. */
  const at = (seconds: number) => {
    wall.ms = Date.parse(T0) + seconds * 1000;
  };
  return { box, slot, telegram, logs, warnings, at };
}

describe("a chat service that cannot be reached", () => {
  it("is tried again after 5 s, then at doubling intervals up to a minute, with one warning", async () => {
    const { box, slot, telegram, warnings, at } = await outage();
    await askQuestion(box, selectCard());
    await slot.reconcile();
    expect(telegram.tries).toBe(1);
    expect(warnings()).toHaveLength(1);
    expect(warnings()[0]?.msg).toContain("could not present a question");
    // Every watcher tick before the wait ends sends nothing.
    at(4);
    for (let i = 0; i < 3; i++) await slot.reconcile();
    expect(telegram.tries).toBe(1);

    let t = 0;
    for (const wait of [5, 10, 20, 40, 60, 60, 60]) {
      at(t + wait - 1);
      await slot.reconcile();
      const before = telegram.tries;
      t += wait;
      at(t);
      await slot.reconcile();
      expect(telegram.tries - before, `a try ${t} s after the first`).toBe(1);
    }
    expect(warnings()).toHaveLength(1);
    expect(slot.current()).toBeUndefined();
  });

  it("waits on the wall clock: a frozen box clock does not stop the tries", async () => {
    const { box, slot, telegram, at } = await outage("502");
    await askQuestion(box, selectCard());
    await slot.reconcile();
    // The box clock stays at T0 (QBRIDGE_TIME); only the wall clock moves.
    at(5);
    await slot.reconcile();
    expect(telegram.tries).toBe(2);
    expect(box.box.clock.iso()).toBe(T0);
  });

  it("reminds the log every half hour while it lasts, and says once when it works again", async () => {
    const { box, slot, telegram, logs, warnings, at } = await outage();
    const id = (await askQuestion(box, selectCard())).id;
    await slot.reconcile();
    // Two hours of tries a minute apart: the first warning and three reminders, not 120 lines.
    for (let minute = 1; minute <= 120; minute++) {
      at(minute * 60);
      await slot.reconcile();
    }
    expect(telegram.tries).toBeGreaterThan(100);
    const said = warnings().map((w) => w.msg);
    expect(said).toHaveLength(5);
    expect(said[0]).toContain("could not present a question");
    expect(said.slice(1).every((msg) => msg.startsWith("presenting still fails"))).toBe(true);

    telegram.down = false;
    at(121 * 60);
    await slot.reconcile();
    expect(slot.current()?.questionId).toBe(id);
    const back = logs.filter((l) => l.level === "info" && l.msg.includes("works again"));
    expect(back).toHaveLength(1);
    expect(back[0]?.msg).toContain(`after ${telegram.tries} failed tries`);
    expect(warnings()).toHaveLength(5);
  });

  it("/next tries at once, whatever the wait", async () => {
    const { box, slot, telegram } = await outage();
    await askQuestion(box, selectCard());
    await slot.reconcile();
    await slot.next();
    expect(telegram.tries).toBe(2);
    telegram.down = false;
    const { presented } = await slot.next();
    expect(presented?.messageId).toBeDefined();
  });

  it("a chat that refuses once the network is back is held off as refusing, on the box clock", async () => {
    const { box, slot, telegram, warnings, at } = await outage();
    await askQuestion(box, selectCard());
    await slot.reconcile();
    // The network comes back, but the boxholder has blocked the bot meanwhile.
    telegram.blocked = true;
    at(5);
    await slot.reconcile();
    expect(telegram.tries).toBe(2);
    expect(warnings().map((w) => w.msg)).toEqual([
      expect.stringContaining("could not present a question"),
      expect.stringContaining("refuses messages"),
    ]);
    // Held off 30 s of the box's clock now: the wall clock's minutes do not end it.
    at(600);
    await slot.reconcile();
    expect(telegram.tries).toBe(2);
    box.box.clock = createClock(new Date(Date.parse(T0) + 30_000).toISOString());
    await slot.reconcile();
    expect(telegram.tries).toBe(3);
  });
});
