// Story: an operator reads what `serve` did. By default one JSON line per event (for journald and
// log shippers); with --pretty the same events for a person.

import { afterEach, describe, expect, it } from "vitest";
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
  it("are one JSON object per line by default, each with a level, a time and a message", async () => {
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
