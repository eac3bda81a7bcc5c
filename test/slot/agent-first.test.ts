// A question an agent waits on (a hook's permission request, its form) dies in minutes with its
// asker: it goes before every ordinary question, a high-priority one included, and takes the
// slot from an ordinary question already shown, which goes back to the queue with nothing
// recorded and comes back once the agent's question is answered.

import { afterEach, describe, expect, it } from "vitest";
import { askQuestion } from "../../src/questions/ask.ts";
import { askPermission } from "../../src/questions/ask-permission.ts";
import { loadQuestion } from "../../src/questions/store.ts";
import type { Closure, Presenter } from "../../src/slot/presentation/presenter.ts";
import { createSlot } from "../../src/slot/slot.ts";
import { cleanupBoxes, confirmCard, makeBox, selectCard, type TestBox } from "../support/box.ts";

afterEach(cleanupBoxes);

function screen(): Presenter & { shown: string[]; closures: [string, Closure["kind"]][] } {
  const shown: string[] = [];
  const closures: [string, Closure["kind"]][] = [];
  return {
    surface: "screen",
    shown,
    closures,
    ready: () => true,
    async present(request) {
      shown.push(request.question.id);
      return { chatId: "desk", messageId: String(shown.length) };
    },
    async closed(presentation, closure) {
      closures.push([presentation.questionId, closure.kind]);
    },
  };
}

async function permissionIn(box: TestBox, command: string): Promise<string> {
  const card = confirmCard({ prompt: `Allow Bash: ${command}?`, irreversible: false });
  const key = { agent: "claude", sessionId: "s", tool: "Bash", input: { command } };
  return (await askPermission(box, card, key, "hook")).id;
}

describe("a question an agent waits on, in the slot", () => {
  it("is presented before a high-priority ordinary question asked earlier", async () => {
    const box = await makeBox();
    const slot = createSlot({ core: box });
    const presenter = screen();
    slot.attach(presenter);
    await askQuestion(box, selectCard({ priority: "high", prompt: "Renew the domain?" }));
    const permission = await permissionIn(box, "make deploy");
    await slot.reconcile();
    expect(presenter.shown).toEqual([permission]);
  });

  it("takes the slot from a low-priority question shown, which returns unanswered after it", async () => {
    const box = await makeBox();
    const slot = createSlot({ core: box });
    const presenter = screen();
    slot.attach(presenter);
    const low = (await askQuestion(box, selectCard({ priority: "low", prompt: "Tidy tags?" }))).id;
    await slot.reconcile();
    expect(presenter.shown).toEqual([low]);

    const permission = await permissionIn(box, "rm -rf build");
    await slot.reconcile();
    expect(presenter.shown).toEqual([low, permission]);
    expect(presenter.closures).toEqual([[low, "set-aside"]]);
    expect(loadQuestion(box, low).card.status).toBe("pending");

    const { closed } = await slot.answer(permission, { text: "yes" }, { via: "telegram" });
    await slot.settle(closed);
    expect(presenter.shown).toEqual([low, permission, low]);
    expect(loadQuestion(box, low).card.status).toBe("pending");
  });
});
