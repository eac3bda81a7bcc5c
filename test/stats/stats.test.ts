// The boxholder and the agents see who asks what, how it ends and how fast answers come:
// every figure checked exactly over a fixture box with known answer times (clock frozen at T0).

import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { toIso } from "../../src/box/clock.ts";
import type { Question } from "../../src/card/question.ts";
import { loadConfig } from "../../src/config.ts";
import { Ledger } from "../../src/ledger/ledger.ts";
import { askQuestion } from "../../src/questions/ask.ts";
import { dismissQuestion } from "../../src/questions/close.ts";
import { boxState } from "../../src/questions/state.ts";
import { adviceFigures } from "../../src/questions/stats/ask-advice.ts";
import { keptAdvice } from "../../src/questions/stats/ask-advice-store.ts";
import {
  ADVICE_STATS_REUSE_MS,
  adviceForAsk,
  boxStats,
} from "../../src/questions/stats/box-stats.ts";
import { computeStats, promptKey } from "../../src/questions/stats/stats.ts";
import { createWebApp } from "../../src/web/app.ts";
import { loadSecret } from "../../src/web/links.ts";
import { cleanupBoxes, runCli, textCard } from "../support/box.ts";
import { API_TOKEN } from "../web/web-support.ts";
import { hourElevenAnswers, REPEATED, SPECS, statsBox, ZONE } from "./stats-fixture.ts";

afterEach(cleanupBoxes);

const REPEATED_HINT =
  "3 similar questions were dismissed or left to expire without an answer since 20 Jun";

function apiOf(box: Awaited<ReturnType<typeof statsBox>>) {
  const config = loadConfig(
    { QBRIDGE_TIMEZONE: ZONE, QBRIDGE_API_TOKEN: API_TOKEN },
    { box: box.dir },
  );
  const app = createWebApp({ core: box, config, secret: loadSecret(box.box) });
  return (method: string, path: string, body?: unknown, token: string | null = API_TOKEN) =>
    app.request(`/api/v1${path}`, {
      method,
      headers: {
        "content-type": "application/json",
        ...(token ? { Authorization: `Bearer ${token}` } : {}),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
}

describe("stats over a box with known answer times", () => {
  it("counts per asker and per learning ref, with the nearest-rank median time to answer", async () => {
    const stats = boxStats(await statsBox(), ZONE);
    expect(stats.askers).toEqual([
      {
        asker: "archiver",
        asked: 4,
        answered: 1,
        dismissed: 2,
        expired: 1,
        medianAnswerSeconds: 3600,
      },
      {
        asker: "filer",
        asked: 4,
        answered: 3,
        dismissed: 0,
        expired: 0,
        medianAnswerSeconds: 7200,
      },
      {
        asker: "sorter",
        asked: 5,
        answered: 3,
        dismissed: 2,
        expired: 0,
        medianAnswerSeconds: 600,
      },
    ]);
    expect(stats.refs).toEqual([
      {
        ref: "guide/receipts",
        asked: 2,
        answered: 2,
        dismissed: 0,
        expired: 0,
        medianAnswerSeconds: 120,
      },
    ]);
  });

  it("figures from the card index's digests equal those from every card loaded whole", async () => {
    const box = await statsBox();
    const { pending, archive } = boxState(box);
    const whole = [...pending, ...archive].map((v) => v.card);
    expect(boxStats(box, ZONE)).toEqual(computeStats(whole, box.box.clock.now(), ZONE));
  });

  it("the ask advice keeps only its own figures, equal to the stats' by hour and unanswered", async () => {
    const box = await statsBox();
    const { pending, archive } = boxState(box);
    const whole = [...pending, ...archive].map((v) => v.card);
    const now = box.box.clock.now();
    const stats = computeStats(whole, now, ZONE);
    expect(adviceFigures(whole, now, ZONE)).toEqual({
      timeZone: ZONE,
      byHour: stats.responsiveness.byHour,
      unanswered: stats.unanswered,
    });
    adviceForAsk(box, ZONE, "Anything?");
    expect(Object.keys(keptAdvice(box, now)?.stats ?? {}).sort()).toEqual([
      "byHour",
      "timeZone",
      "unanswered",
    ]);
  });

  it("names a prompt closed unanswered 3 times since its last answer, however it was written", async () => {
    const stats = boxStats(await statsBox(), ZONE);
    expect(stats.unanswered).toEqual([
      { prompt: REPEATED, times: 3, dismissed: 2, expired: 1, since: "2026-06-20T08:00:00Z" },
    ]);
    expect(promptKey("Should I  archive the 2019 INVOICES?!")).toBe(promptKey(REPEATED));
  });

  it("measures p50 and p90 over the last 30 days, per surface and per hour in the box's zone", async () => {
    const stats = boxStats(await statsBox(), ZONE);
    const r = stats.responsiveness;
    expect({ count: r.count, p50: r.p50Seconds, p90: r.p90Seconds }).toEqual({
      count: 5,
      p50: 600,
      p90: 7200,
    });
    expect(r.bySurface).toEqual([
      { surface: "cli", count: 1, p50Seconds: 7200, p90Seconds: 7200 },
      { surface: "telegram", count: 3, p50Seconds: 120, p90Seconds: 3600 },
      { surface: "web", count: 1, p50Seconds: 600, p90Seconds: 600 },
    ]);
    expect(r.byHour.filter((h) => h.count > 0)).toEqual([
      { hour: 10, count: 3, p50Seconds: 600, p90Seconds: 3600 },
      { hour: 22, count: 2, p50Seconds: 30, p90Seconds: 7200 },
    ]);
    expect(stats.distribution.map((d) => d.count)).toEqual([1, 1, 1, 2, 0, 0, 0]);
    expect(stats.days).toHaveLength(30);
    expect([stats.days[0]?.date, stats.days[29]?.date]).toEqual(["2026-06-11", "2026-07-10"]);
    const sum = (k: "answered" | "dismissed" | "expired") =>
      stats.days.reduce((n, d) => n + d[k], 0);
    expect([sum("answered"), sum("dismissed"), sum("expired")]).toEqual([5, 4, 1]);
    expect(stats.days.find((d) => d.date === "2026-07-09")).toEqual({
      date: "2026-07-09",
      answered: 1,
      dismissed: 1,
      expired: 0,
    });
  });

  it("makes each date format once per time zone, not once per card and hour", () => {
    // Building an Intl.DateTimeFormat per card made an ask at 1,000 cards take seconds.
    const zone = "Asia/Kathmandu";
    const made: string[] = [];
    const original = Intl.DateTimeFormat;
    Intl.DateTimeFormat = new Proxy(original, {
      construct(target, args: ConstructorParameters<typeof Intl.DateTimeFormat>) {
        if (args[1]?.timeZone === zone) made.push(JSON.stringify(args[1]));
        return new target(...args);
      },
    });
    try {
      const cards = Array.from({ length: 300 }, (_, i) => ({
        ...textCard({ prompt: `Question ${i % 7}?` }),
        status: i % 3 === 0 ? "dismissed" : "answered",
        "asked-at": `2026-07-0${1 + (i % 9)}T${String(i % 24).padStart(2, "0")}:00:00Z`,
        "answered-at": `2026-07-0${1 + (i % 9)}T${String(i % 24).padStart(2, "0")}:30:00Z`,
        "dismissed-at": `2026-07-0${1 + (i % 9)}T${String(i % 24).padStart(2, "0")}:30:00Z`,
        answer: { text: "Yes" },
      })) as unknown as Question[];
      const now = new Date("2026-07-10T09:00:00Z");
      const first = computeStats(cards, now, zone);
      expect(computeStats(cards, now, zone)).toEqual(first);
      expect(first.responsiveness.count).toBe(200);
      expect(new Set(made).size).toBe(made.length);
      expect(made.length).toBeLessThanOrEqual(3);
    } finally {
      Intl.DateTimeFormat = original;
    }
  });

  it("qbridge stats prints the same figures as JSON and as a table, hours counted in QBRIDGE_TIMEZONE", async () => {
    const box = await statsBox();
    const json = await runCli(["stats", "--json", "--box", box.dir], {
      env: { QBRIDGE_TIMEZONE: ZONE },
    });
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual(JSON.parse(JSON.stringify(boxStats(box, ZONE))));
    const utc = await runCli(["stats", "--json", "--box", box.dir], {
      env: { QBRIDGE_TIMEZONE: "UTC" },
    });
    const hours = JSON.parse(utc.stdout).responsiveness.byHour.filter(
      (h: { count: number }) => h.count > 0,
    );
    expect(hours.map((h: { hour: number }) => h.hour)).toEqual([8, 20]);
    const table = await runCli(["stats", "--box", box.dir], { env: { QBRIDGE_TIMEZONE: ZONE } });
    expect(table.stdout).toMatch(/^ {2}sorter +5 +3 +2 +0 +10m$/m);
    expect(table.stdout).toMatch(/^ {2}overall +5 +10m +2h$/m);
    expect(table.stdout).toMatch(/^ {2}asked 22:00 +2 +30s +2h$/m);
    expect(table.stdout).toContain(REPEATED);
  });

  it("qbridge stats says on stderr how many cards it could not read and left out", async () => {
    const box = await statsBox();
    writeFileSync(join(box.dir, "_bookkeeping/questions/broken.question.card"), "not a card\n");
    for (const args of [["stats"], ["stats", "--json"]]) {
      const res = await runCli([...args, "--box", box.dir], { env: { QBRIDGE_TIMEZONE: ZONE } });
      expect(res.code).toBe(0);
      expect(res.stderr).toBe(
        '1 card(s) cannot be read and were left out of these figures: run "qbridge doctor"\n',
      );
    }
  });

  it("a time zone Intl does not know is refused in one sentence naming the variable", async () => {
    const res = await runCli(["stats", "--box", "/nonexistent"], {
      env: { QBRIDGE_TIMEZONE: "Mars/Olympus" },
    });
    expect(res.code).toBe(1);
    expect(res.stderr).toContain("QBRIDGE_TIMEZONE must be an IANA time zone name");
  });
});

describe("the API and the ask response", () => {
  it("GET /api/v1/stats answers the stats with the bearer token and 401 without", async () => {
    const box = await statsBox();
    const call = apiOf(box);
    const res = await call("GET", "/stats");
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual(JSON.parse(JSON.stringify(boxStats(box, ZONE))));
    expect((await call("GET", "/stats", undefined, null)).status).toBe(401);
  });

  it("asking a prompt that keeps going unanswered carries the hint; the existing fields stay", async () => {
    const call = apiOf(await statsBox());
    const res = await call(
      "POST",
      "/questions",
      textCard({ prompt: "should I archive the 2019 invoices" }),
    );
    expect(res.status).toBe(201);
    const body = await res.json();
    expect(body.hint).toBe(REPEATED_HINT);
    expect(body.expectedWaitSeconds).toBeNull();
    expect(Object.keys(body)).toEqual(
      expect.arrayContaining(["id", "deduplicated", "card", "commit"]),
    );
    const other = await (
      await call("POST", "/questions", textCard({ prompt: "Rename the scans folder?" }))
    ).json();
    expect(other.hint).toBeNull();
  });

  it("the ask advice is reused by every process for a minute, and made anew at once after a transition any of them commits", async () => {
    const box = await statsBox();
    let now = box.box.clock.now().getTime();
    const clock = { now: () => new Date(now), iso: () => toIso(new Date(now)) };
    const first = { ...box, box: { ...box.box, clock } };
    // A second process: its own connection to the ledger, nothing shared in memory.
    const second = { ...first, ledger: new Ledger(first.box.paths.ledgerPath) };
    try {
      const prompt = "Rename the scans folder?";
      expect(adviceForAsk(first, ZONE, prompt).hint).toBeNull();
      // A third dismissal, through the core in the other process: seen by the very next ask.
      const { id, rel } = await askQuestion(second, textCard({ prompt }));
      await dismissQuestion(second, id, { via: "cli" });
      expect(adviceForAsk(first, ZONE, prompt).hint).toContain(
        "3 similar questions were dismissed",
      );
      // The card taken away by hand (no transition): the other process reuses the figures for
      // a minute, without asking for the zone (which would start ICU)...
      rmSync(join(box.dir, rel));
      const unasked = {
        get timeZone(): string {
          throw new Error("the zone was asked for");
        },
      };
      expect(adviceForAsk(second, unasked, prompt).hint).toContain(
        "3 similar questions were dismissed",
      );
      // ...and makes them anew after it.
      now += ADVICE_STATS_REUSE_MS + 1_000;
      expect(adviceForAsk(second, ZONE, prompt).hint).toBeNull();
    } finally {
      second.ledger.close();
    }
  });

  it("the ask advice made in the last minute of an hour is not kept into the next hour", async () => {
    const box = await statsBox();
    // 11:59:30 in Europe/Berlin: reused a minute later, it would read the wrong hour's wait.
    const now = Date.parse("2026-07-10T09:59:30Z");
    const clock = { now: () => new Date(now), iso: () => toIso(new Date(now)) };
    const core = { ...box, box: { ...box.box, clock } };
    const asked: string[] = [];
    const zone = {
      get timeZone() {
        asked.push(ZONE);
        return ZONE;
      },
    };
    adviceForAsk(core, zone, "Rename the scans folder?");
    adviceForAsk(core, zone, "Rename the scans folder?");
    expect(asked).toHaveLength(2);
  });

  it("the ask advice in the process's own zone reads hours and days as Intl does, without Intl or a locale comparison", async () => {
    const specs = [...SPECS, ...hourElevenAnswers(10)];
    const named = adviceForAsk(await statsBox(specs), ZONE, REPEATED);
    expect(named.hint).toBe(REPEATED_HINT);
    expect(named.expectedWaitSeconds).toBe(300);
    const own = await statsBox(specs);
    const before = process.env.TZ;
    // The process's own zone is the fixture's (a service without QBRIDGE_TIMEZONE there).
    process.env.TZ = ZONE;
    const formatters = vi.spyOn(Intl, "DateTimeFormat");
    const compared = vi.spyOn(String.prototype, "localeCompare");
    try {
      const zone = {
        ownZone: true,
        get timeZone(): string {
          throw new Error("the zone's name was asked for");
        },
      };
      expect(adviceForAsk(own, zone, REPEATED)).toEqual(named);
      expect(formatters).not.toHaveBeenCalled();
      expect(compared).not.toHaveBeenCalled();
    } finally {
      formatters.mockRestore();
      compared.mockRestore();
      if (before === undefined) delete process.env.TZ;
      else process.env.TZ = before;
    }
  });

  it("expectedWaitSeconds is the median at this hour once there are 10 answers, null with 9", async () => {
    const nine = await (
      await apiOf(await statsBox(hourElevenAnswers(9)))("POST", "/questions", textCard())
    ).json();
    expect(nine.expectedWaitSeconds).toBeNull();
    const ten = await (
      await apiOf(await statsBox(hourElevenAnswers(10)))("POST", "/questions", textCard())
    ).json();
    expect(ten.expectedWaitSeconds).toBe(300);
  });

  it("qbridge ask --json carries expectedWaitSeconds and the hint", async () => {
    const box = await statsBox([...SPECS, ...hourElevenAnswers(10)]);
    const res = await runCli(["ask", "--json", "--box", box.dir], {
      env: { QBRIDGE_TIMEZONE: ZONE },
      input: JSON.stringify(textCard({ prompt: REPEATED })),
    });
    expect(res.code).toBe(0);
    const body = JSON.parse(res.stdout);
    expect(body).toMatchObject({
      deduplicated: false,
      expectedWaitSeconds: 300,
      hint: REPEATED_HINT,
    });
    expect(body.card.prompt).toBe(REPEATED);
  });
});
