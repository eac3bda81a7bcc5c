// Story: `qbridge hook install --project` runs in a repository someone else made. The settings
// and their backup are written as new files renamed into place: a symbolic link planted beside
// the settings is never written through, a settings file (or folder) that is a link is refused
// in one sentence and left as it is, and the old file's mode stays (a 0600 file stays 0600,
// and so does its backup).

import {
  chmodSync,
  chownSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  readlinkSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { writeAtomic } from "../../src/box/atomic.ts";
import { hookEntries } from "../../src/hooks/install.ts";
import { installInto } from "../../src/hooks/settings-file.ts";
import { scratchDir } from "../support/box.ts";

const OLD = `${JSON.stringify({ model: "opus" }, null, 2)}\n`;
const ENTRIES = hookEntries("claude", "qbridge", "/srv/box", 600);

/** A project folder with .claude/settings.json holding OLD, and a file outside it. */
function project(): { settings: string; outside: string } {
  const dir = scratchDir("qbridge-project-");
  mkdirSync(join(dir, ".claude"));
  const settings = join(dir, ".claude", "settings.json");
  writeFileSync(settings, OLD);
  const outside = join(dir, "elsewhere.txt");
  writeFileSync(outside, "not yours\n");
  return { settings, outside };
}

describe("hook install writes the settings without following a link", () => {
  it("a link planted at the backup's name is refused: the link, its target and the settings are untouched", () => {
    const { settings, outside } = project();
    symlinkSync(outside, `${settings}.qbridge-backup`);
    expect(() => installInto(settings, ENTRIES, 600)).toThrow(
      /settings\.json\.qbridge-backup is a symbolic link, and qbridge never writes through one/,
    );
    expect(readFileSync(outside, "utf8")).toBe("not yours\n");
    expect(lstatSync(`${settings}.qbridge-backup`).isSymbolicLink()).toBe(true);
    expect(readlinkSync(`${settings}.qbridge-backup`)).toBe(outside);
    expect(readFileSync(settings, "utf8")).toBe(OLD);
  });

  it("a settings file that is a link is refused in one sentence; the link and its target stay", () => {
    const { settings, outside } = project();
    const real = join(outside, "..", "real-settings.json");
    writeFileSync(real, OLD);
    const linked = join(outside, "..", ".claude", "linked.json");
    symlinkSync(real, linked);
    expect(() => installInto(linked, ENTRIES, 600)).toThrow(
      /linked\.json is a symbolic link, and qbridge never writes through one: put the file itself there \(or remove the link\), then try again; nothing was changed/,
    );
    expect(lstatSync(linked).isSymbolicLink()).toBe(true);
    expect(readFileSync(real, "utf8")).toBe(OLD);
    expect(readFileSync(settings, "utf8")).toBe(OLD);
  });

  it("a .claude folder that is a link is refused, and nothing is written where it points", () => {
    const dir = scratchDir("qbridge-project-");
    const target = scratchDir("qbridge-target-");
    symlinkSync(target, join(dir, ".claude"));
    expect(() => installInto(join(dir, ".claude", "settings.json"), ENTRIES, 600)).toThrow(
      /\.claude is a symbolic link/,
    );
    expect(() => statSync(join(target, "settings.json"))).toThrow(/ENOENT/);
  });

  it("a 0600 settings file stays 0600 and keeps its owner, and its backup is the same", () => {
    const { settings } = project();
    chmodSync(settings, 0o600);
    // As root (CI), the file belongs to another user, as under sudo. A contributor who is not
    // root cannot give a file away: there it stays theirs.
    const owner =
      process.getuid?.() === 0
        ? { uid: 4242, gid: 4343 }
        : { uid: statSync(settings).uid, gid: statSync(settings).gid };
    chownSync(settings, owner.uid, owner.gid);
    const result = installInto(settings, ENTRIES, 600);
    expect(result.changed).toBe(true);
    expect(statSync(settings).mode & 0o777).toBe(0o600);
    expect(statSync(`${settings}.qbridge-backup`).mode & 0o777).toBe(0o600);
    expect(readFileSync(`${settings}.qbridge-backup`, "utf8")).toBe(OLD);
    for (const path of [settings, `${settings}.qbridge-backup`]) {
      expect(statSync(path)).toMatchObject(owner);
    }
  });
});

describe("writeAtomic", () => {
  it("never writes through a link planted at its temporary file's name", () => {
    const { settings, outside } = project();
    symlinkSync(outside, `${settings}.${process.pid}.tmp`);
    writeAtomic(settings, "new\n", { durable: false });
    expect(readFileSync(settings, "utf8")).toBe("new\n");
    expect(readFileSync(outside, "utf8")).toBe("not yours\n");
  });
});
