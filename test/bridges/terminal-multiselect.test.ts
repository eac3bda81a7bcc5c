// Story: a multi-select at the keyboard (`qbridge chat`). The question lists its options with
// letters and says how to pick several; the boxholder types them separated by commas, and the
// same judge records them as one answer. An item that names no option is named back, and an
// irreversible question asks "Record ...?" first, as every typed answer to one does.

import { afterEach, describe, expect, it } from "vitest";
import { askQuestion } from "../../src/questions/ask.ts";
import { listJobs } from "../../src/questions/state.ts";
import { loadQuestion } from "../../src/questions/store.ts";
import { cleanupBoxes, makeBox, multiselectCard } from "../support/box.ts";
import { keyboardOn } from "../support/keyboard.ts";

afterEach(cleanupBoxes);

async function atKeyboard(card: Record<string, unknown>) {
  const box = await makeBox();
  const keyboard = keyboardOn(box);
  const { id } = await askQuestion(box, card);
  await keyboard.slot.reconcile();
  return { box, id, ...keyboard };
}

describe("a multi-select at the keyboard", () => {
  it("lists the options with letters, says how to type several, and records the typed picks", async () => {
    const k = await atKeyboard(multiselectCard({ recommended: "lint" }));
    try {
      const shown = k.screen();
      expect(shown).toContain("  a) Unit tests\n  b) Lint  (recommended)\n  c) Type check\n");
      expect(shown).toContain(
        'Type letters or labels separated by commas, optionally "a, c - note".',
      );
      expect(await k.type("Type check, a")).toContain("Recorded: Unit tests, Type check\n");
      const { card } = loadQuestion(k.box, k.id);
      expect(card.answer).toEqual({ text: "Unit tests, Type check", selected: "unit,types" });
      expect(card["answered-via"]).toBe("terminal");
      expect(listJobs(k.box)).toHaveLength(1);
    } finally {
      await k.slot.close();
    }
  });

  it("names the item that is no option, records nothing, then takes the corrected line", async () => {
    const k = await atKeyboard(multiselectCard());
    try {
      expect(await k.type("a, docs")).toContain('"docs" names none of them');
      expect(loadQuestion(k.box, k.id).card.status).toBe("pending");
      expect(await k.type("a, b")).toContain("Recorded: Unit tests, Lint\n");
    } finally {
      await k.slot.close();
    }
  });

  it("an irreversible one asks before recording the picks, and a yes records them", async () => {
    const k = await atKeyboard(multiselectCard({ irreversible: true }));
    try {
      expect(await k.type("b, c")).toBe(
        'Record "Lint, Type check" as your answer? It cannot be undone. Type yes or no.\n',
      );
      expect(loadQuestion(k.box, k.id).card.status).toBe("pending");
      expect(await k.type("yes")).toContain("Recorded: Lint, Type check\n");
      expect(loadQuestion(k.box, k.id).card.answer?.selected).toBe("lint,types");
    } finally {
      await k.slot.close();
    }
  });
});
