// Story: two cards carry one id (a merge of two clones, a card copied into a subfolder). Which
// one a reader gets would depend on where it looks: the scan on one, `qbridge answer` on the
// other, and a tap shown from one is refused as "changed" against the other. So neither is a
// question: both are listed as broken with a reason naming both paths, `show` and `answer`
// refuse with it, `doctor` names them and says what to do, and the slot presents neither.

import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { answerQuestion } from "../../src/questions/answer.ts";
import { askQuestion } from "../../src/questions/ask.ts";
import { archivePage, boxState } from "../../src/questions/state.ts";
import { boxStats } from "../../src/questions/stats/box-stats.ts";
import type { Presenter, PresentRequest } from "../../src/slot/presentation/presenter.ts";
import { createSlot } from "../../src/slot/slot.ts";
import {
  cleanupBoxes,
  cliEnv,
  commitByHand,
  makeBox,
  questionRel,
  runCli,
  selectCard,
  type TestBox,
} from "../support/box.ts";

afterEach(cleanupBoxes);

/** Files a question, then a copy of its card under questions/old/ with another prompt. */
async function twinned(box: TestBox): Promise<{ id: string; top: string; copy: string }> {
  // The copy is high: first in slot order, while the top folder's card is low.
  const card = selectCard({ prompt: "Where do receipts go?", priority: "low" });
  const { id } = await askQuestion(box, card);
  const top = questionRel(id);
  const copy = `_bookkeeping/questions/old/${id}.question.card`;
  mkdirSync(join(box.dir, "_bookkeeping/questions/old"));
  copyFileSync(join(box.dir, top), join(box.dir, copy));
  const text = readFileSync(join(box.dir, copy), "utf8");
  const changed = text.replace("Where do receipts go?", "Where did they go?");
  writeFileSync(join(box.dir, copy), changed.replace("priority: low", "priority: high"));
  // Committed, as a merge of two clones leaves it.
  await commitByHand(box.dir, [copy], "a copy from another clone");
  return { id, top, copy };
}

describe("two cards with one id", () => {
  it("are both listed as broken, with a reason naming both paths, and neither as a question", async () => {
    const box = await makeBox();
    const { id: other } = await askQuestion(box, selectCard({ prompt: "Another one?" }));
    const { id, top, copy } = await twinned(box);

    const state = boxState(box);
    expect(state.pending.map((q) => q.id)).toEqual([other]);
    expect(state.unreadable.map((u) => u.rel).sort()).toEqual([top, copy].sort());
    for (const { reason } of state.unreadable) {
      expect(reason).toContain(id);
      expect(reason).toContain(top);
      expect(reason).toContain(copy);
      expect(reason).toMatch(/remove .*or rename/);
    }
  });

  it("are left out of the archive's pages and the box's figures when both are closed", async () => {
    const box = await makeBox();
    const { id: kept } = await askQuestion(box, selectCard({ prompt: "Another one?" }));
    await answerQuestion(box, kept, { text: "finance" }, { via: "cli" });
    const card = selectCard({ prompt: "Where do receipts go?" });
    const { id } = await askQuestion(box, card);
    await answerQuestion(box, id, { text: "taxes" }, { via: "cli" });
    const top = questionRel(id);
    mkdirSync(join(box.dir, "_bookkeeping/questions/old"));
    copyFileSync(
      join(box.dir, top),
      join(box.dir, `_bookkeeping/questions/old/${id}.question.card`),
    );

    const page = archivePage(box, 0);
    expect(page.views.map((v) => v.id)).toEqual([kept]);
    expect(page.total).toBe(1);
    const answered = boxStats(box, "UTC").days.reduce((sum, day) => sum + day.answered, 0);
    expect(answered).toBe(1);
  });

  it("`show` and `answer` refuse the id with that reason and change nothing", async () => {
    const box = await makeBox();
    const { id, top, copy } = await twinned(box);
    const before = readFileSync(join(box.dir, top), "utf8");
    const env = cliEnv(box.dir);

    const show = await runCli(["show", id], { env });
    expect(show.code).toBe(4);
    expect(show.stderr).toContain(top);
    expect(show.stderr).toContain(copy);
    const answer = await runCli(["answer", id, "finance"], { env });
    expect(answer.code).toBe(4);
    expect(answer.stderr).toContain(copy);
    expect(readFileSync(join(box.dir, top), "utf8")).toBe(before);
  });

  it("`doctor` names the id and both paths and says to remove or rename one", async () => {
    const box = await makeBox();
    const { id, top, copy } = await twinned(box);
    const doctor = await runCli(["doctor"], { env: cliEnv(box.dir) });
    expect(doctor.code).toBe(1);
    // Each card's finding names the id and the other path, and what to do.
    for (const [path, twin] of [
      [top, copy],
      [copy, top],
    ] as const) {
      // A finding is its "problem:" line and the lines under it, up to the next finding.
      const finding = doctor.stdout
        .split(/\n(?=\S)/)
        .find((block) => block.startsWith(`problem: ${path}:`));
      expect(finding, doctor.stdout).toBeDefined();
      expect(finding).toContain(`"${id}"`);
      expect(finding).toContain(twin);
      expect(finding).toMatch(/remove one .*or rename one/);
    }
  });

  it("are never presented by the slot; the next question is, once", async () => {
    const box = await makeBox();
    const { id } = await twinned(box);
    const { id: other } = await askQuestion(box, selectCard({ prompt: "Another one?" }));
    const shown: string[] = [];
    let next = 1;
    const presenter: Presenter = {
      surface: "notebook",
      ready: () => true,
      async present(request: PresentRequest) {
        shown.push(request.question.id);
        return { chatId: "desk", messageId: String(next++) };
      },
      async closed() {},
    };
    const slot = createSlot({ core: box });
    slot.attach(presenter);
    for (let tick = 0; tick < 5; tick++) await slot.reconcile();
    expect(shown).toEqual([other]);
    expect(shown).not.toContain(id);
  });
});
