// A stop signal that arrives while `qbridge serve` is still starting (here: waiting for the
// lock of a writer that died moments ago) stops it cleanly once it is up, instead of killing it
// halfway through finishing that dead writer's change.

import { mkdirSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { askQuestion } from "../../src/questions/ask.ts";
import { loadQuestion } from "../../src/questions/store.ts";
import { cleanupBoxes, makeBox, readBoxFile, selectCard, T0 } from "../support/box.ts";
import { loggedWebPort } from "../support/child.ts";
import { eventually, spawnServe } from "../support/telegram.ts";

afterEach(cleanupBoxes);

describe("a stop signal during start-up", () => {
  it("lets serve finish starting, undo the dead writer's half-change, and exit 0", async () => {
    const box = await makeBox();
    const { id, rel } = await askQuestion(box, selectCard());
    const committed = readBoxFile(box.dir, rel);
    // A writer died a moment ago: its journal, its half-written card, its still-fresh lock.
    const half = committed.replace(
      "status: pending",
      "status: dismissed\ndismissed-at: 2026-07-10T09:00:00Z",
    );
    mkdirSync(box.box.paths.journalDir, { recursive: true });
    writeFileSync(
      join(box.box.paths.journalDir, `${id}.json`),
      JSON.stringify({ key: id, files: [{ rel, before: committed, after: half }] }),
    );
    writeFileSync(join(box.dir, rel), half);
    const lock = join(box.box.paths.locksDir, `q-${id}.lock`);
    mkdirSync(lock, { recursive: true });
    // The writer is alive (it refreshes its lock, as every holder does) until the page answers;
    // it dies then, and its lock goes stale one stale time after its last refresh.
    const holder = setInterval(() => utimesSync(lock, new Date(), new Date()), 500);

    const serve = spawnServe([], {
      cwd: box.dir,
      env: {
        QBRIDGE_BOX: box.dir,
        QBRIDGE_WEB_PORT: "0",
        QBRIDGE_LOCK_STALE_MS: "5000",
        QBRIDGE_TIME: T0,
      },
    });
    try {
      // The web page is up before the slot reconciles, which waits for the writer's lock.
      const port = await eventually(() => loggedWebPort(serve.stdout()), 20_000, "the web page");
      await eventually(
        () =>
          fetch(`http://127.0.0.1:${port}/healthz`).then(
            (r) => r.ok || undefined,
            () => undefined,
          ),
        20_000,
        "the web page to answer",
      );
    } finally {
      clearInterval(holder);
    }
    expect(serve.stderr()).not.toContain("qbridge serve is running");
    const code = await serve.stop("SIGTERM");

    expect(code).toBe(0);
    expect(serve.stderr()).toContain("qbridge serve is running");
    expect(readBoxFile(box.dir, rel)).toBe(committed);
    expect(loadQuestion(box, id).card.status).toBe("pending");
  });
});
