// Who a hook can reach: the slot of a process that presents questions (serve, chat) records,
// while it watches, the surfaces that deliver through it; a hook reads those records before it
// files anything. A slot with no surface that delivers (a service with no bridge paired) counts
// for nobody, and a process that is gone counts for nothing whatever its record says.

import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { afterEach, describe, expect, it } from "vitest";
import { createTerminalBridge } from "../../bridges/terminal/chat.ts";
import { TERMINAL } from "../../bridges/terminal/presenter.ts";
import { openDoor } from "../../src/slot/door.ts";
import { holdPresence, livePresence, reachableSurfaces } from "../../src/slot/presence.ts";
import type { Presenter } from "../../src/slot/presentation/presenter.ts";
import { createSlot, type Slot } from "../../src/slot/slot.ts";
import { cleanupBoxes, makeBox } from "../support/box.ts";
import { eventually } from "../support/child.ts";

const slots: Slot[] = [];
afterEach(async () => {
  for (const slot of slots.splice(0)) await slot.close();
  cleanupBoxes();
});

function screen(surface: string, ready: () => boolean): Presenter {
  return {
    surface,
    ready,
    async present() {
      return { chatId: "desk", messageId: "1" };
    },
    async closed() {},
  };
}

async function watching(presenters: Presenter[]) {
  const box = await makeBox();
  const slot = createSlot({ core: box });
  for (const presenter of presenters) slot.attach(presenter);
  slots.push(slot);
  slot.watch(50);
  return { box, slot, locks: box.box.paths.locksDir };
}

describe("the presence a watching slot records", () => {
  it("names the surfaces that are ready, follows them as they change, and goes with close", async () => {
    let paired = false;
    const { slot, locks } = await watching([screen("telegram", () => paired)]);
    await eventually(
      () => (livePresence(locks).length === 1 ? true : undefined),
      5_000,
      "a record",
    );
    expect(reachableSurfaces(locks)).toEqual([]);
    paired = true;
    await eventually(
      () => (reachableSurfaces(locks).includes("telegram") ? true : undefined),
      5_000,
      "telegram recorded",
    );
    await slot.close();
    slots.splice(0);
    expect(livePresence(locks)).toEqual([]);
    expect(reachableSurfaces(locks)).toEqual([]);
  });

  it("a slot with no presenter at all (a service with no bridge) reaches nobody", async () => {
    const { locks } = await watching([]);
    await eventually(
      () => (livePresence(locks).length === 1 ? true : undefined),
      5_000,
      "a record",
    );
    expect(reachableSurfaces(locks)).toEqual([]);
  });

  it("a record whose process is gone reaches nobody and is removed by its reader", async () => {
    const box = await makeBox();
    const locks = box.box.paths.locksDir;
    const presence = holdPresence(locks, () => undefined);
    await presence.update(["terminal"]);
    expect(reachableSurfaces(locks)).toEqual(["terminal"]);
    // As a process killed with SIGKILL leaves it: its record, a lease nobody keeps fresh.
    const dead = join(locks, "presence", "0123456789abcdef.json");
    writeFileSync(
      dead,
      JSON.stringify({ holder: "999999:0123456789abcdef@gone", surfaces: ["x"] }),
    );
    await presence.release();
    expect(reachableSurfaces(locks)).toEqual([]);
    expect(livePresence(locks)).toEqual([]);
  });
});

describe("a chat reaches the boxholder only from a terminal", () => {
  /** A watching slot with the terminal bridge over streams that are terminals, or piped. */
  async function chat(tty: boolean) {
    const box = await makeBox();
    const slot = createSlot({ core: box });
    slots.push(slot);
    const stream = () => Object.assign(new PassThrough(), tty ? { isTTY: true } : {});
    createTerminalBridge({ door: openDoor(slot, TERMINAL), input: stream(), output: stream() });
    slot.watch(50);
    const locks = box.box.paths.locksDir;
    await eventually(() => livePresence(locks).length === 1 || undefined, 5_000, "a record");
    return reachableSurfaces(locks);
  }

  it("a piped chat (its keys prove only an asker) is nobody a hook's question could reach", async () => {
    expect(await chat(false)).toEqual([]);
  });

  it("a chat whose streams are terminals reaches the boxholder there", async () => {
    expect(await chat(true)).toEqual(["terminal"]);
  });
});
