// The conformance stories every bridge passes: the same person's actions and what must come of
// them, whatever the surface. A bridge brings a driver (how to pick an option, confirm, repeat
// the last attempt, act as a stranger, and read what the person was told); the stories are
// written once here. A new bridge adds a driver and a three-line test file, nothing else.

import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { questionFingerprint } from "../../src/card/fingerprint.ts";
import { answerQuestion } from "../../src/questions/answer.ts";
import { listJobs } from "../../src/questions/state.ts";
import { loadQuestion } from "../../src/questions/store.ts";
import { judgeAnswer } from "../../src/slot/judge/by-id.ts";
import type { From } from "../../src/slot/judge/proof.ts";
import type { Slot } from "../../src/slot/slot.ts";
import { WEB_SURFACE } from "../../src/surfaces.ts";
import { gitLog, selectCard, type TestBox } from "../support/box.ts";

/** Whoever posts the web form through the link a bridge sent the boxholder. */
const BOXHOLDER_PAGE: From = { surface: WEB_SURFACE, proof: { kind: "link", role: "boxholder" } };

/** One box with the bridge attached and one question presented on it. */
export interface Session {
  box: TestBox;
  slot: Slot;
  /** The presented question. */
  id: string;
  /** Picks an option by its letter (a tap on its button, or the letter typed); what was said. */
  pick(letter: string): Promise<string>;
  /** Confirms the answer asked about (the Confirm button, or yes); what was said. */
  confirm(): Promise<string>;
  /** Does the last attempt again, as a redelivery or a second tap would; what was said. */
  again(): Promise<string>;
  /** Everything the person has been shown so far, in order. */
  shown(): string;
  close(): Promise<void>;
}

export interface Driver {
  /** The surface name the bridge records: telegram, terminal, ... */
  surface: string;
  open(card: Record<string, unknown>): Promise<Session>;
  /**
   * Someone who is not the boxholder picks an option; what they were told. Absent where the
   * surface has no strangers (a terminal is the boxholder's own keyboard).
   */
  stranger?(session: Session, letter: string): Promise<string>;
  /**
   * The surface's commands, by the judge's names (park, next, waiting, ...), and how a person
   * sends one: the boxholder, or (where the surface has strangers) someone else. What they
   * were told.
   */
  commands?: {
    names: string[];
    send(session: Session, name: string, who: "boxholder" | "stranger"): Promise<string>;
  };
}

const answerCommits = async (box: TestBox) =>
  (await gitLog(box.dir)).filter((s) => s.startsWith("answer:")).length;

/** Rewrites the card on disk as an editor would (bypassing every transition). */
function editCard(box: TestBox, id: string, edit: (text: string) => string): void {
  const path = join(box.dir, loadQuestion(box, id).rel);
  writeFileSync(path, edit(readFileSync(path, "utf8")));
}

async function unanswered(s: Session): Promise<void> {
  expect(loadQuestion(s.box, s.id).card.status).toBe("pending");
  expect(listJobs(s.box)).toHaveLength(0);
  expect(await answerCommits(s.box)).toBe(0);
}

async function story(
  driver: Driver,
  card: Record<string, unknown>,
  run: (s: Session) => Promise<void>,
) {
  const s = await driver.open(card);
  try {
    await run(s);
  } finally {
    await s.close();
  }
}

export function conformance(driver: Driver): void {
  it("a pick answers the presented question, through one commit and one job", () =>
    story(driver, selectCard(), async (s) => {
      expect(await s.pick("b")).toContain("Recorded");
      const { card } = loadQuestion(s.box, s.id);
      expect(card).toMatchObject({
        status: "answered",
        "answered-via": driver.surface,
        answer: { text: "Taxes", selected: "taxes" },
      });
      expect(listJobs(s.box)).toHaveLength(1);
      expect(await answerCommits(s.box)).toBe(1);
    }));

  it("the same attempt again answers nothing new", () =>
    story(driver, selectCard(), async (s) => {
      await s.pick("b");
      await s.again();
      expect(loadQuestion(s.box, s.id).card.answer).toMatchObject({ selected: "taxes" });
      expect(listJobs(s.box)).toHaveLength(1);
      expect(await answerCommits(s.box)).toBe(1);
    }));

  const { stranger } = driver;
  if (stranger) {
    it("a stranger's pick changes nothing", () =>
      story(driver, selectCard(), async (s) => {
        expect(await stranger(s, "b")).toContain("answers only its owner");
        await unanswered(s);
      }));
    it("a stranger's pick (a tap or a typed letter) is audited as refused", () =>
      story(driver, selectCard(), async (s) => {
        await stranger(s, "b");
        const rows = s.box.ledger.auditFor().filter((row) => row.surface === driver.surface);
        expect(rows.map((row) => row.outcome)).toEqual(["refused:stranger"]);
      }));
  }

  const { commands } = driver;
  if (commands && stranger) {
    it("a stranger's every command changes nothing, and each is audited as refused", () =>
      story(driver, selectCard(), async (s) => {
        const open = s.slot.current();
        for (const name of commands.names) await commands.send(s, name, "stranger");
        await unanswered(s);
        expect(s.slot.current()?.seq).toBe(open?.seq);
        const refused = s.box.ledger
          .auditFor()
          .filter((row) => row.surface === driver.surface && row.action.startsWith("command:"))
          .map((row) => [row.action, row.outcome]);
        expect(refused).toEqual(
          commands.names.map((name) => [`command:${name}`, "refused:stranger"]),
        );
      }));
  }
  if (commands) {
    it("the boxholder's command goes through the judge and is audited", () =>
      story(driver, selectCard(), async (s) => {
        const open = s.slot.current();
        await commands.send(s, "park", "boxholder");
        expect(s.slot.current()?.seq).not.toBe(open?.seq);
        expect(loadQuestion(s.box, s.id).card.status).toBe("pending");
        const rows = s.box.ledger.auditFor(s.id).filter((row) => row.action === "command:park");
        expect(rows.map((row) => [row.surface, row.outcome])).toEqual([[driver.surface, "parked"]]);
      }));
  }

  it("an edited card refuses the presentation that showed it before the edit", () =>
    story(driver, selectCard(), async (s) => {
      editCard(s.box, s.id, (text) => text.replace("label: Taxes", "label: Tax office"));
      expect(await s.pick("b")).toContain("edited since it was shown");
      await unanswered(s);
    }));

  it("options whose labels were swapped on disk refuse the letter shown for the old order", () =>
    story(driver, selectCard(), async (s) => {
      // Shown: a) Finance  b) Taxes. On disk now: a) Taxes  b) Finance, ids unchanged. "b"
      // meant Taxes; recording it now would file {"text":"Finance","selected":"taxes"}.
      editCard(s.box, s.id, (text) =>
        text
          .replace("label: Finance", "label: @@")
          .replace("label: Taxes", "label: Finance")
          .replace("label: @@", "label: Taxes"),
      );
      expect(await s.pick("b")).toContain("edited since it was shown");
      await unanswered(s);
    }));

  it("an irreversible answer is recorded only after its confirmation", () =>
    story(driver, selectCard({ irreversible: true }), async (s) => {
      expect(await s.pick("b")).toMatch(/Confirm Taxes|Record "Taxes"/);
      await unanswered(s);
      expect(await s.confirm()).toContain("Recorded");
      expect(loadQuestion(s.box, s.id).card.answer).toMatchObject({ selected: "taxes" });
      expect(listJobs(s.box)).toHaveLength(1);
    }));

  it("an answer from another surface closes the presentation; a pick on it records nothing", () =>
    story(driver, selectCard(), async (s) => {
      await answerQuestion(s.box, s.id, { text: "a" }, { via: "web" });
      await s.slot.reconcile();
      expect(s.shown().toLowerCase()).toContain("answered via web: finance");
      expect(s.slot.current()).toBeUndefined();
      await s.pick("b");
      expect(loadQuestion(s.box, s.id).card.answer).toMatchObject({ selected: "finance" });
      expect(listJobs(s.box)).toHaveLength(1);
    }));

  it("the web form's answer, judged by the page's fingerprint, closes the presentation", () =>
    story(driver, selectCard(), async (s) => {
      const shown = questionFingerprint(loadQuestion(s.box, s.id).card);
      const outcome = await judgeAnswer(s.box, {
        kind: "answer",
        from: BOXHOLDER_PAGE,
        questionId: s.id,
        answer: { text: "finance", option: "finance" },
        version: { kind: "shown", hash: shown },
      });
      expect(outcome).toMatchObject({ kind: "recorded", name: "answered" });
      await s.slot.reconcile();
      expect(s.shown().toLowerCase()).toContain("answered via web: finance");
      expect(s.slot.current()).toBeUndefined();
      expect(await s.pick("b")).not.toContain("Recorded: Taxes");
      expect(loadQuestion(s.box, s.id).card.answer).toMatchObject({ selected: "finance" });
      expect(listJobs(s.box)).toHaveLength(1);
    }));

  it("a page opened before an edit answers nothing through the judge, nor does a pick", () =>
    story(driver, selectCard(), async (s) => {
      const shown = questionFingerprint(loadQuestion(s.box, s.id).card);
      editCard(s.box, s.id, (text) => text.replace("label: Taxes", "label: Tax office"));
      const outcome = await judgeAnswer(s.box, {
        kind: "answer",
        from: BOXHOLDER_PAGE,
        questionId: s.id,
        answer: { text: "taxes", option: "taxes" },
        version: { kind: "shown", hash: shown },
      });
      expect(outcome).toMatchObject({ kind: "refused", reason: "changed" });
      expect(await s.pick("b")).toContain("edited since it was shown");
      await unanswered(s);
    }));
}
