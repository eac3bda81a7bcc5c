// `qbridge link` prints a fresh signed link the web page accepts; `qbridge web` runs the page.

import { spawn } from "node:child_process";
import { afterEach, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config.ts";
import { askQuestion } from "../../src/questions/ask.ts";
import { createWebApp } from "../../src/web/app.ts";
import { loadSecret } from "../../src/web/links.ts";
import { CLI, cleanupBoxes, makeBox, runCli, selectCard, T0 } from "../support/box.ts";

afterEach(cleanupBoxes);

describe("qbridge link", () => {
  it("prints a signed link under the public URL that opens the question", async () => {
    const box = await makeBox();
    const { id } = await askQuestion(box, selectCard());
    const result = await runCli(["link", id, "--box", box.dir, "--json"], {
      env: { QBRIDGE_PUBLIC_URL: "https://q.example.org" },
    });
    expect(result.code).toBe(0);
    const { url, expires } = JSON.parse(result.stdout);
    expect(url).toMatch(
      new RegExp(`^https://q\\.example\\.org/q/${id}\\?s=[0-9a-z]+\\.[A-Za-z0-9_-]{43}$`),
    );
    expect(expires).toBe("2026-07-17T09:00:00.000Z");
    const app = createWebApp({
      core: box,
      config: loadConfig({}, { box: box.dir }),
      secret: loadSecret(box.box),
    });
    const page = await app.request(url.replace("https://q.example.org", ""));
    expect(page.status).toBe(200);
  });

  it("prints a link to the questions page with --questions", async () => {
    const box = await makeBox();
    const result = await runCli(["link", "--questions", "--box", box.dir], {
      env: { QBRIDGE_PUBLIC_URL: "", QBRIDGE_WEB_HOST: "", QBRIDGE_WEB_PORT: "" },
    });
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^http:\/\/127\.0\.0\.1:8787\/questions\?s=\S+\n$/);
    expect(result.stderr).toContain("QBRIDGE_PUBLIC_URL is not set");
    // A page started with `qbridge web --port 9000` is elsewhere: the warning says how to match.
    expect(result.stderr).toContain(
      "this link uses http://127.0.0.1:8787 (QBRIDGE_WEB_HOST and QBRIDGE_WEB_PORT): if the page runs with --host or --port, set those to match",
    );
  });

  it("exits 2 for a question that is not in the box, and 1 without an id", async () => {
    const box = await makeBox();
    const missing = await runCli(["link", "2026-07-10-nothing", "--box", box.dir]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('no question "2026-07-10-nothing"');
    const usage = await runCli(["link", "--box", box.dir]);
    expect(usage.code).toBe(1);
    expect(usage.stderr).toContain("--questions");
  });
});

describe("qbridge web", () => {
  it("serves the page on the port it prints until it is stopped", async () => {
    const box = await makeBox();
    const child = spawn(process.execPath, [CLI, "web", "--box", box.dir, "--port", "0", "--json"], {
      env: { ...process.env, QBRIDGE_TIME: T0, QBRIDGE_LOG_LEVEL: "silent", QBRIDGE_API_TOKEN: "" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let out = "";
        child.stdout.on("data", (d) => {
          out += d;
          const match = /"url": "([^"]+)"/.exec(out);
          if (match) resolve(match[1] as string);
        });
        child.on("exit", (code) => reject(new Error(`qbridge web exited ${code}`)));
      });
      const health = await fetch(`${url}/healthz`);
      expect(health.status).toBe(200);
      const api = await fetch(`${url}/api/v1/questions`);
      expect(api.status).toBe(503);
    } finally {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      expect(await exited).toBe(0);
    }
  });
});
