// `qbridge web` and `qbridge serve` over a box bind-mounted read-only (in a user and mount
// namespace of their own) that was never served, so it has no link key and cannot make one.
// `web` serves the API and /mcp read-only with its pages off, each page saying why; with the API off too
// it would serve nothing and stops at start with one sentence; `serve` (whose work is writing)
// stops at start naming the box before it reaches the key.

import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { askQuestion } from "../../src/questions/ask.ts";
import { cleanupBoxes, confirmCard, makeBox, T0 } from "../support/box.ts";
import { initializeAs } from "../support/mcp-raw.ts";
import { runOnReadOnlyBox, startOnReadOnlyBox } from "../support/read-only.ts";

afterEach(cleanupBoxes);

const TOKEN = "read-only-token-1234567890";

/** A box with one pending question, never served: no .qbridge/secret. */
async function neverServedBox(): Promise<{ dir: string; id: string }> {
  const box = await makeBox();
  const { id } = await askQuestion(box, confirmCard({ prompt: "Read only?" }));
  box.ledger.close();
  expect(existsSync(join(box.dir, ".qbridge/secret"))).toBe(false);
  return { dir: box.dir, id };
}

function envFor(dir: string, more: Record<string, string> = {}): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH ?? "", HOME: dir, QBRIDGE_TIME: T0, ...more };
}

describe("qbridge web on a read-only box that has no link key", () => {
  it("serves the API read-only and turns the pages off, each saying why and what to do", async () => {
    const { dir, id } = await neverServedBox();
    const env = envFor(dir, { QBRIDGE_API_TOKEN: TOKEN, QBRIDGE_PUBLIC_URL: "https://q.example" });
    const web = startOnReadOnlyBox(dir, ["web", "--box", dir, "--port", "0", "--json"], env);
    try {
      await web.waitFor(/"pages": false/);
      const started = JSON.parse(web.stdout()) as { url: string; api: boolean; pages: boolean };
      expect(started).toMatchObject({ api: true, pages: false });
      const headers = { Authorization: `Bearer ${TOKEN}` };

      const shown = await fetch(`${started.url}/api/v1/questions/${id}`, { headers });
      expect(shown.status).toBe(200);
      const outcome = (await shown.json()) as Record<string, unknown>;
      expect(outcome).toMatchObject({ id, status: "pending" });
      expect(outcome).not.toHaveProperty("link");

      const answered = await fetch(`${started.url}/api/v1/questions/${id}/answer`, {
        method: "POST",
        headers,
        body: JSON.stringify({ answer: "yes" }),
      });
      expect(answered.status).toBe(503);
      expect(((await answered.json()) as { error: { code: string } }).error.code).toBe(
        "BoxReadOnly",
      );

      for (const path of [`/q/${id}?s=x`, "/questions?s=x", "/stats?s=x"]) {
        const page = await fetch(`${started.url}${path}`);
        expect(page.status, path).toBe(503);
        const text = await page.text();
        expect(text, path).toContain("This box has no link key yet");
        expect(text, path).toContain("qbridge link --questions");
      }
      expect((await fetch(`${started.url}/healthz`)).status).toBe(200);
      const mcp = await fetch(`${started.url}/mcp`, {
        method: "POST",
        headers: {
          ...headers,
          "Content-Type": "application/json",
          Accept: "application/json, text/event-stream",
        },
        body: JSON.stringify(initializeAs("read-only")),
      });
      expect(mcp.status).toBe(200);
      expect(await mcp.text()).toContain('"name":"question-bridge"');
    } finally {
      expect(await web.kill("SIGTERM")).toBe(0);
    }
  });

  it("says at start, in its own words, that the pages are off and how to turn them on", async () => {
    const { dir } = await neverServedBox();
    const env = envFor(dir, { QBRIDGE_API_TOKEN: TOKEN });
    const web = startOnReadOnlyBox(dir, ["web", "--box", dir, "--port", "0"], env);
    try {
      await web.waitFor("pages off");
      expect(web.stdout()).toMatch(
        new RegExp(
          `^web page on http://127\\.0\\.0\\.1:\\d+\\nAPI on\\npages off: ${dir} is read-only and has no link key yet \\(\\.qbridge/secret\\), so no link can open a page: make the box writable, or run "qbridge link --questions" once where it is, and start again\\n$`,
        ),
      );
    } finally {
      expect(await web.kill("SIGTERM")).toBe(0);
    }
  });

  it("with the API off too, stops at start with exit 4 and one sentence", async () => {
    const { dir } = await neverServedBox();
    const run = await runOnReadOnlyBox(dir, ["web", "--box", dir, "--port", "0"], {
      env: envFor(dir),
    });
    expect(run.code).toBe(4);
    expect(run.stdout).toBe("");
    expect(run.stderr).toBe(
      `qbridge: ${dir} is read-only and has no link key yet (.qbridge/secret), and the API is off, so the web page would serve nothing: make the box writable, or run "qbridge link --questions" once where it is, or set QBRIDGE_API_TOKEN to serve the API alone\n`,
    );
  });
});

describe("qbridge serve on a read-only box that has no link key", () => {
  it("stops at start with exit 4 naming the box and the fix, before it reaches the key", async () => {
    const { dir } = await neverServedBox();
    const run = await runOnReadOnlyBox(dir, ["serve", "--box", dir], {
      env: envFor(dir, { QBRIDGE_WEB_PORT: "0", QBRIDGE_API_TOKEN: TOKEN }),
    });
    expect(run.code).toBe(4);
    expect(run.stderr).toBe(
      `qbridge: QBRIDGE_BOX ${dir} is not a writable directory (EROFS): make it writable for the user running qbridge, or point QBRIDGE_BOX (or --box) at a directory that is\n`,
    );
  });
});
