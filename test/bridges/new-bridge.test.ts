// Story: someone adds a bridge. Outside this repository (a temporary folder whose src/ and the
// bridges already there are this checkout's), they put its folder under bridges/ (the desk
// bridge, test/bridges/desk/) and add one line to a copy of the bridge list. With no other edit
// it is configured with the others, shows the slot's question, has a tap judged, takes its part
// in /healthz and is asked by doctor; and it reaches the core through the port only. The e-mail
// bridge, a real one, was added the same way: its folder, and one line of the list that nothing
// else in src/ repeats.

import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import pino from "pino";
import { afterEach, describe, expect, it } from "vitest";
import { bridgesOf } from "../../src/cli/bridges.ts";
import { doctorChecks } from "../../src/cli/doctor-checks.ts";
import { loadConfig } from "../../src/config.ts";
import { askQuestion } from "../../src/questions/ask.ts";
import { loadQuestion } from "../../src/questions/store.ts";
import { type Service, startService } from "../../src/service.ts";
import { cleanupBoxes, makeBox, ROOT, scratchDir, selectCard, T0 } from "../support/box.ts";
import { deskService } from "../support/desk-service.ts";
import { readImports, sourceFiles } from "../support/imports.ts";

const running: Service[] = [];
afterEach(async () => {
  for (const service of running.splice(0)) await service.stop();
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
  const tree = scratchDir("qbridge-new-bridge-");
  for (const linked of [
    "src",
    "node_modules",
    "bridges/telegram",
    "bridges/email",
    "bridges/terminal",
  ]) {
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
    expect(bridges.map((b) => b.surface).sort()).toEqual(["desk", "email", "telegram"]);
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

const EMAIL_LINE = 'export { email } from "../../bridges/email/bridge.ts";';

/** A copy of the bridge list beside this tree's src/ and bridges/, with `lines` as its lines. */
function listOf(lines: string[]): string {
  const tree = scratchDir("qbridge-list-");
  for (const linked of ["src", "node_modules", "bridges"])
    symlinkSync(join(ROOT, linked), join(tree, linked));
  const file = join(tree, "bridge-list.ts");
  writeFileSync(file, lines.join("\n").replaceAll('"../../bridges/', '"./bridges/'));
  return file;
}

describe("the e-mail bridge, added as its folder and one line of the bridge list", () => {
  it("is that one line in src/: without it there is no e-mail; with it, e-mail is configured and asked by doctor", async () => {
    const lines = readFileSync(join(ROOT, LIST), "utf8").split("\n");
    expect(lines).toContain(EMAIL_LINE);
    const naming = sourceFiles(join(ROOT, "src"))
      .filter((file) => readFileSync(file, "utf8").includes("bridges/email"))
      .map((file) => file.slice(ROOT.length + 1));
    expect(naming).toEqual([LIST]);

    const without = bridgesOf(await import(listOf(lines.filter((l) => l !== EMAIL_LINE))));
    expect(without.map((b) => b.surface)).toEqual(["telegram"]);
    const bridges = bridgesOf(await import(listOf(lines)));
    const box = await makeBox();
    const env = {
      QBRIDGE_EMAIL_IMAP_URL: "imap://boxholder:secret@127.0.0.1:1143/INBOX",
      QBRIDGE_EMAIL_SMTP_URL: "smtp://127.0.0.1:2525",
      QBRIDGE_EMAIL_FROM: "q@bridge.test",
    };
    const config = loadConfig(env, { box: box.dir }, bridges);
    expect(config.bridges.find((b) => b.surface === "email")).toMatchObject({
      on: true,
      declaration: { name: "email", proves: "paired-address" },
      secrets: ["secret"],
    });
    expect((await doctorChecks(config)).map((check) => check.label)).toContain("email");
  });

  it("reaches the core only through the port (besides the floor and the settings)", () => {
    const allowed = ["src/slot/port.ts", "src/errors.ts", "src/backoff.ts", "src/config.ts"];
    const around = readImports(ROOT, ["bridges/email"])
      .filter(({ to }) => !to.startsWith("bridges/email/") && !allowed.includes(to))
      .map(({ from, to }) => `${from} imports ${to}`);
    expect(around).toEqual([]);
  });
});
