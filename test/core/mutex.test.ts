// The one promise mutex under the slot's lock and the box's in-process file-lock queue.

import { describe, expect, it } from "vitest";
import { createKeyedMutex, createMutex } from "../../src/mutex.ts";

/** A promise and the function that settles it, so a test decides when a holder finishes. */
function gate(): { opened: Promise<void>; open: () => void } {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}

describe("the promise mutex", () => {
  it("runs callers one at a time in the order they called, and a failure does not stop the next", async () => {
    const mutex = createMutex();
    const log: string[] = [];
    const first = gate();
    const a = mutex.run(async () => {
      log.push("a starts");
      await first.opened;
      log.push("a ends");
      throw new Error("a failed");
    });
    const b = mutex.run(async () => {
      log.push("b runs");
      return "b";
    });
    await Promise.resolve();
    expect(log).toEqual(["a starts"]);
    first.open();
    await expect(a).rejects.toThrow("a failed");
    expect(await b).toBe("b");
    expect(log).toEqual(["a starts", "a ends", "b runs"]);
  });

  it("per key: the same key waits, another key does not", async () => {
    const withLock = createKeyedMutex();
    const log: string[] = [];
    const held = gate();
    const a = withLock("q1", async () => {
      await held.opened;
      log.push("q1 first");
    });
    const b = withLock("q1", async () => {
      log.push("q1 second");
    });
    await withLock("q2", async () => {
      log.push("q2");
    });
    expect(log).toEqual(["q2"]);
    held.open();
    await Promise.all([a, b]);
    expect(log).toEqual(["q2", "q1 first", "q1 second"]);
  });
});
