// Story: an operator reads what `serve` did. At a terminal the events are readable by default;
// when standard output is not a terminal (journald, a log shipper, a pipe) one JSON line per
// event; --pretty and --json choose either.

import { spawn } from "node:child_process";
import { afterEach, describe, expect, it } from "vitest";
import { CLI } from "../support/box.ts";
import { eventually } from "../support/child.ts";
import { freshDir, qbridge, removeFreshDirs } from "./ship-support.ts";

afterEach(removeFreshDirs);

async function serveLogs(args: string[]): Promise<string> {
  const serve = qbridge(["serve", ...args], { cwd: freshDir(), env: { QBRIDGE_WEB_PORT: "0" } });
  await serve.waitFor("aging sweep every", 30_000, "stderr");
  await serve.waitFor("web page listening");
  expect(await serve.kill("SIGTERM")).toBe(0);
  return serve.stdout();
}

describe("serve's logs", () => {
  it("are one JSON object per line when not at a terminal, each with a level, a time and a message", async () => {
    const lines = (await serveLogs([])).trim().split("\n");
    expect(lines.length).toBeGreaterThanOrEqual(3);
    const events = lines.map(
      (line) => JSON.parse(line) as { level: number; time: number; msg: string },
    );
    for (const event of events) {
      expect(typeof event.level).toBe("number");
      expect(typeof event.time).toBe("number");
      expect(typeof event.msg).toBe("string");
    }
    expect(events.map((e) => e.msg)).toEqual(
      expect.arrayContaining(["web page listening", "stopping", "stopped"]),
    );
  });

  it("are human-readable with --pretty: a time, the level in words, the message, no JSON", async () => {
    const out = await serveLogs(["--pretty"]);
    expect(out).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: web page listening$/m);
    expect(out).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: stopped$/m);
    expect(out).not.toMatch(/^\{"level"/m);
  });
});

describe("serve's logs at a terminal", () => {
  it("are readable by default: the level in words and the message, no JSON", async () => {
    // script(1) gives serve a terminal of its own; its own group, so one signal stops both.
    const child = spawn("script", ["-qec", `"${process.execPath}" "${CLI}" serve`, "/dev/null"], {
      cwd: freshDir(),
      env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/", QBRIDGE_WEB_PORT: "0" },
      stdio: ["pipe", "pipe", "pipe"],
      detached: true,
    });
    let out = "";
    child.stdout.on("data", (d) => {
      out += d;
    });
    const exited = new Promise((resolve) => child.on("close", resolve));
    try {
      await eventually(() => out.includes("web page listening") || undefined, 30_000, "the log");
    } finally {
      process.kill(-(child.pid as number), "SIGTERM");
      await exited;
    }
    // biome-ignore lint/suspicious/noControlCharactersInRegex: the colours of a terminal
    const plain = out.replace(/\u001b\[[0-9;]*m/g, "");
    expect(plain).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: web page listening\r?$/m);
    expect(plain).not.toContain('{"level"');
  });

  it("are JSON lines with --json", async () => {
    const out = await serveLogs(["--json"]);
    expect(out).toMatch(/^\{"level":30,.*"msg":"web page listening"\}$/m);
  });
});
