// Story: someone adds a bridge. Outside this repository (a temporary folder whose src/ and the
// bridges already there are this checkout's), they put its folder under bridges/ (the desk
// bridge, test/bridges/desk/) and add one line to a copy of the bridge list. With no other edit
// it is configured with the others, shows the slot's question, has a tap judged, takes its part
// in /healthz and is asked by doctor; and it reaches the core through the port only.

import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pino from "pino";
import { afterEach, describe, expect, it } from "vitest";
import { bridgesOf } from "../../src/cli/bridges.ts";
import { doctorChecks } from "../../src/cli/doctor-checks.ts";
import { loadConfig } from "../../src/config.ts";
import { askQuestion } from "../../src/questions/ask.ts";
import { loadQuestion } from "../../src/questions/store.ts";
import { type Service, startService } from "../../src/service.ts";
import { cleanupBoxes, makeBox, ROOT, selectCard, T0 } from "../support/box.ts";
import { deskService } from "../support/desk-service.ts";
import { readImports } from "../support/imports.ts";

const folders: string[] = [];
const running: Service[] = [];
afterEach(async () => {
  for (const service of running.splice(0)) await service.stop();
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
  cleanupBoxes();
});

const LIST = "src/cli/bridge-list.ts";
const LINE = 'export { desk } from "./bridges/desk/bridge.ts";';

/**
 * A tree beside this one: its src/, its bridges and node_modules linked, the desk's folder
 * copied under bridges/ (its imports of the core as they would read from there), and the bridge
 * list copied to the top with one line added.
 */
function treeWithDesk(): string {
  const tree = mkdtempSync(join(tmpdir(), "qbridge-new-bridge-"));
  folders.push(tree);
  for (const linked of ["src", "node_modules", "bridges/telegram", "bridges/terminal"]) {
    mkdirSync(join(tree, linked, ".."), { recursive: true });
    symlinkSync(join(ROOT, linked), join(tree, linked));
  }
  mkdirSync(join(tree, "bridges/desk"));
  for (const file of ["bridge.ts", "serve.ts"]) {
    const text = readFileSync(join(ROOT, "test/bridges/desk", file), "utf8");
    writeFileSync(
      join(tree, "bridges/desk", file),
      text.replaceAll('"../../../src/', '"../../src/'),
    );
  }
  const list = readFileSync(join(ROOT, LIST), "utf8").replaceAll('"../../bridges/', '"./bridges/');
  writeFileSync(join(tree, "bridge-list.ts"), `${list}${LINE}\n`);
  return tree;
}

describe("a bridge added in its own folder and one line of the bridge list", () => {
  it("shows the question, has a tap judged, takes its part in /healthz and is asked by doctor", async () => {
    const tree = treeWithDesk();
    const added = readFileSync(join(tree, "bridge-list.ts"), "utf8").split("\n");
    // The list as it is here, its paths read from the top of the tree instead of src/cli/.
    const before = readFileSync(join(ROOT, LIST), "utf8")
      .replaceAll('"../../bridges/', '"./bridges/')
      .split("\n");
    expect(added.filter((line) => !before.includes(line))).toEqual([LINE]);

    const bridges = bridgesOf(await import(join(tree, "bridge-list.ts")));
    expect(bridges.map((b) => b.surface).sort()).toEqual(["desk", "telegram"]);
    const box = await makeBox();
    const env = { DESK_OWNER: "ada", QBRIDGE_TIME: T0 };
    const config = loadConfig(env, { box: box.dir }, bridges);
    const desk = deskService();
    const service = await startService({
      config,
      logger: pino({ level: "silent" }),
      web: false,
      seams: { desk },
    });
    running.push(service);
    expect(service.started).toContain("desk open");

    const { id } = await askQuestion(box, selectCard());
    await service.slot.reconcile();
    const shown = desk.messages.at(-1);
    expect(shown?.text).toBe("Where do photographed receipts belong?");
    const taxes = shown?.buttons.find((b) => b.text === "b) Taxes");
    const tap = { kind: "tap", user: "ada", chat: "ada", message: shown?.id as string } as const;
    await desk.act({ ...tap, user: "mallory", token: taxes?.token as string });
    expect(loadQuestion(box, id).card.status).toBe("pending");
    await desk.act({ ...tap, token: taxes?.token as string });
    expect(loadQuestion(box, id).card).toMatchObject({
      status: "answered",
      "answered-via": "desk",
      "answered-by": "ada",
      answer: { selected: "taxes" },
    });

    expect((await service.health.current()).parts).toMatchObject({ desk: { ok: true } });
    expect((await doctorChecks(config)).map((check) => check.label)).toContain("desk");
  });

  it("reaches the core only through the port (besides the floor and the settings)", () => {
    const tree = treeWithDesk();
    const allowed = ["src/slot/port.ts", "src/errors.ts", "src/backoff.ts", "src/config.ts"];
    const around = readImports(tree, ["bridges/desk"])
      .filter(({ to }) => !to.startsWith("bridges/desk/") && !allowed.includes(to))
      .map(({ from, to }) => `${from} imports ${to}`);
    expect(around).toEqual([]);
  });
});
