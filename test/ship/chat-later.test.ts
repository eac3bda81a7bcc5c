// Story: `later` in `qbridge chat`. A question put off at the keyboard is not lost: `waiting`
// and `next` say what is put off and until when, and `next` brings it back; "Recorded: X" comes
// before the next question's block; the hint line and `qbridge help chat` name every command.

import { afterEach, describe, expect, it } from "vitest";
import { cleanupBoxes, selectCard, textCard } from "../support/box.ts";
import { chatOverStreams } from "../support/chat-streams.ts";
import { qbridge } from "../support/child.ts";

afterEach(cleanupBoxes);

describe("later in qbridge chat", () => {
  it("waiting and next say what is put off and until when; next brings it back", async () => {
    const k = await chatOverStreams();
    const id = await k.ask(selectCard());
    await k.start();
    await k.type("later morning", "Later: back");
    const waiting = await k.type("waiting", "put off");
    expect(waiting).toContain("1 put off: Where do photographed receipts belong? (until ");
    expect(waiting).not.toContain("Nothing is waiting on you");
    const next = await k.type("next", "? Where do photographed receipts belong?");
    expect(next).not.toContain("Nothing is waiting on you");
    expect(k.slot.current()?.questionId).toBe(id);
    expect(k.slot.later.until(id)).toBeUndefined();
    await k.quit();
  });

  it("Recorded: X comes before the next question's block", async () => {
    const k = await chatOverStreams();
    await k.ask(selectCard({ priority: "high" }));
    await k.ask(textCard());
    await k.start();
    const said = await k.type("b", "? What is the name");
    expect(said).toContain("Recorded: Taxes");
    expect(said.indexOf("Recorded: Taxes")).toBeLessThan(said.indexOf("? What is the name"));
    await k.quit();
  });

  it("the hint line and qbridge help chat list later, extend, same, accept and record", async () => {
    const k = await chatOverStreams();
    await k.ask(selectCard());
    await k.start();
    const hint =
      k
        .screen()
        .split("\n")
        .find((line) => line.includes("(park, dismiss")) ?? "";
    for (const word of ["later", "extend", "same", "accept", "record"]) {
      expect(hint).toContain(word);
    }
    await k.quit();
    const help = qbridge(["help", "chat"], { cwd: k.dir });
    expect(await help.exited).toBe(0);
    const commands = /Commands: ([^.]*)/.exec(help.stdout().replace(/\s+/g, " "))?.[1] ?? "";
    for (const word of ["later", "extend", "same", "accept", "record"]) {
      expect(commands).toContain(word);
    }
  });
});
