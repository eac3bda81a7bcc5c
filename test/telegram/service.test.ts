// The service as the boxholder lives with it: cards changed by other processes reach the
// chat within 2 s, restarts present nothing twice and lose nothing, a nudge is sent once.

import { afterEach, describe, expect, it } from "vitest";
import { BRIDGES } from "../../src/cli/bridges.ts";
import { loadConfig } from "../../src/config.ts";
import { askQuestion } from "../../src/questions/ask.ts";
import { loadQuestion } from "../../src/questions/store.ts";
import { type Service, startService } from "../../src/service.ts";
import { cleanupBoxes, makeBox, runCli, selectCard, T0, textCard } from "../support/box.ts";
import {
  buttonData,
  type Call,
  eventually,
  OWNER,
  recorder,
  TOKEN,
  toBotMessage,
  useEmulator,
} from "../support/telegram.ts";

const emulator = useEmulator();
const running: Service[] = [];
afterEach(async () => {
  for (const s of running.splice(0)) await s.stop();
  cleanupBoxes();
});

const quiet = { info() {}, warn() {}, error() {}, debug() {}, child: () => quiet } as never;

async function serve(
  dir: string,
  calls: ReturnType<typeof recorder>,
  watchMs?: number,
  env: Record<string, string> = {},
) {
  const config = loadConfig(
    {
      QBRIDGE_BOX: dir,
      QBRIDGE_TIME: T0,
      TELEGRAM_BOT_TOKEN: TOKEN,
      TELEGRAM_OWNER_ID: String(OWNER),
      TELEGRAM_API_ROOT: emulator().apiRoot,
      ...env,
    },
    {},
    BRIDGES,
  );
  const service = await startService({
    config,
    logger: quiet,
    web: false,
    watchMs,
    seams: { telegram: { transformers: [calls.transformer], idleMs: 20 } },
  });
  running.push(service);
  return service;
}

const sentWith = (calls: Call[], text: string) =>
  calls.filter((c) => c.method === "sendMessage" && String(c.payload.text).includes(text));

describe("cards changed by other processes", () => {
  it("a question asked by another process while the service runs is presented within 2 s", async () => {
    const box = await makeBox();
    const rec = recorder();
    await serve(box.dir, rec);
    const asked = await runCli(["ask", "--box", box.dir, "--json"], {
      input: JSON.stringify(textCard()),
    });
    expect(asked.code).toBe(0);
    const sent = await eventually(
      () => sentWith(rec.calls, "What is the name of the person")[0],
      2_000,
      "the new question to be presented",
    );
    expect(Number(sent.payload.chat_id)).toBe(OWNER);
  });

  it("with the poll slowed to once a minute, a card filed in the questions folder is still presented at once", async () => {
    const box = await makeBox();
    const rec = recorder();
    await serve(box.dir, rec, 60_000);
    const asked = await runCli(["ask", "--box", box.dir], { input: JSON.stringify(textCard()) });
    expect(asked.code).toBe(0);
    // Well inside the minute: the folder watch, not the poll, brought it.
    await eventually(
      () => sentWith(rec.calls, "What is the name of the person")[0],
      10_000,
      "the new question to be presented",
    );
  });

  it("`qbridge answer` while a question is presented edits its message and presents the next", async () => {
    const box = await makeBox();
    const { id } = JSON.parse(
      (
        await runCli(["ask", "--box", box.dir, "--json"], {
          input: JSON.stringify(selectCard({ priority: "high" })),
        })
      ).stdout,
    ) as { id: string };
    await runCli(["ask", "--box", box.dir], { input: JSON.stringify(textCard()) });
    const rec = recorder();
    await serve(box.dir, rec);
    const shown = toBotMessage(sentWith(rec.calls, "photographed receipts")[0] as Call);
    const answered = await runCli(["answer", "--box", box.dir, id, "Finance"]);
    expect(answered.code).toBe(0);
    const edit = await eventually(
      () => rec.calls.find((c) => c.method === "editMessageText"),
      2_000,
      "the presented message to be edited",
    );
    expect(edit.payload.message_id).toBe(shown.messageId);
    expect(edit.payload.text).toContain("Answered via cli: Finance");
    await eventually(() => sentWith(rec.calls, "What is the name of the person")[0], 2_000);
  });
});

describe("quiet hours", () => {
  it("QBRIDGE_QUIET_HOURS reaches the slot: a normal question waits, a high one is sent", async () => {
    const box = await makeBox();
    const rec = recorder();
    // T0 is 09:00 UTC, inside these quiet hours.
    const service = await serve(box.dir, rec, undefined, {
      QBRIDGE_QUIET_HOURS: "08:00-10:00",
      QBRIDGE_TIMEZONE: "UTC",
    });
    expect(service.started).toContain(
      "quiet hours 08:00-10:00 (UTC): only high-priority questions are sent then",
    );
    await askQuestion(box, textCard());
    await service.slot.reconcile();
    expect(sentWith(rec.calls, "What is the name of the person")).toEqual([]);
    await askQuestion(box, selectCard({ priority: "high" }));
    await service.slot.reconcile();
    expect(sentWith(rec.calls, "photographed receipts")).toHaveLength(1);
  });
});

describe("restarts", () => {
  it("a restart mid-queue re-presents nothing twice and loses nothing", async () => {
    const box = await makeBox();
    const prompts = ["First?", "Second?", "Third?"];
    for (const [i, prompt] of prompts.entries()) {
      await runCli(["ask", "--box", box.dir], {
        input: JSON.stringify(selectCard({ prompt, "asked-at": `2026-07-0${i + 7}T09:00:00Z` })),
      });
    }
    const rec = recorder();
    let service = await serve(box.dir, rec);
    await service.stop();
    for (const [i] of prompts.entries()) {
      service = await serve(box.dir, rec);
      const message = toBotMessage(sentWith(rec.calls, prompts[i] as string)[0] as Call);
      const person = emulator().server.getClient(TOKEN, { userId: OWNER, chatId: OWNER });
      await person.sendCallback(
        person.makeCallbackQuery(buttonData(message, "a)"), {
          message: { message_id: message.messageId },
        }),
      );
      await eventually(
        () =>
          i + 1 < prompts.length
            ? sentWith(rec.calls, prompts[i + 1] as string)[0]
            : service.slot.current() === undefined || undefined,
        5_000,
        `question ${i + 2} to be presented`,
      );
      await service.stop();
    }
    for (const prompt of prompts) expect(sentWith(rec.calls, prompt)).toHaveLength(1);
    const state = await runCli(["list", "--box", box.dir, "--json"]);
    expect(JSON.parse(state.stdout).pending).toEqual([]);
  });

  it("a nudge is sent exactly once across two service restarts", async () => {
    const box = await makeBox();
    const eightDaysAgo = new Date(new Date(T0).getTime() - 8 * 86_400_000).toISOString();
    const asked = await runCli(["ask", "--box", box.dir, "--json"], {
      input: JSON.stringify(selectCard({ "asked-at": eightDaysAgo })),
    });
    const questionId = (JSON.parse(asked.stdout) as { id: string }).id;
    const rec = recorder();
    for (let run = 0; run < 3; run++) {
      const service = await serve(box.dir, rec);
      await service.sweep();
      await service.stop();
    }
    const nudges = sentWith(rec.calls, "⏰");
    expect(nudges).toHaveLength(1);
    const presented = toBotMessage(sentWith(rec.calls, "photographed receipts")[0] as Call);
    expect(nudges[0]?.payload.reply_parameters).toMatchObject({ message_id: presented.messageId });
    expect(loadQuestion(box, questionId).card.status).toBe("pending");
  });

  it("questions that expire unanswered are told once, in one message, and not again after a restart", async () => {
    const box = await makeBox();
    const monthAgo = new Date(new Date(T0).getTime() - 31 * 86_400_000).toISOString();
    for (const prompt of ["Keep the old invoices?", "Rename the scans folder?"]) {
      await runCli(["ask", "--box", box.dir, "--json"], {
        input: JSON.stringify(selectCard({ prompt, "asked-at": monthAgo })),
      });
    }
    const rec = recorder();
    for (let run = 0; run < 2; run++) {
      const service = await serve(box.dir, rec);
      await service.sweep();
      await service.stop();
    }
    const notices = sentWith(rec.calls, "expired unanswered");
    expect(notices).toHaveLength(1);
    const text = String(notices[0]?.payload.text);
    expect(text).toContain("2 questions expired unanswered");
    expect(text).toContain("Keep the old invoices?");
    expect(text).toContain("Rename the scans folder?");
    expect(text).toContain("They stay answerable on the web");
  });
});
