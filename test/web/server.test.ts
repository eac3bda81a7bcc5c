// The real server: it listens where the config says (port 0: any free port), reports the
// address it really got, serves the same app, and closes.

import { afterEach, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config.ts";
import { startWeb } from "../../src/web/server.ts";
import { cleanupBoxes, makeBox, selectCard } from "../support/box.ts";

afterEach(cleanupBoxes);

describe("startWeb", () => {
  it("listens on 127.0.0.1 on a free port, serves the pages and the API, and closes", async () => {
    const box = await makeBox();
    const config = loadConfig(
      { QBRIDGE_WEB_PORT: "0", QBRIDGE_API_TOKEN: "server-test-token-123456" },
      { box: box.dir },
    );
    const seen: string[] = [];
    const web = await startWeb({
      core: box,
      config,
      onTransition: (event) => {
        seen.push(`${event.action} via ${event.via}`);
      },
    });
    try {
      expect(web.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(web.url).not.toBe("http://127.0.0.1:0");
      const health = await fetch(`${web.url}/healthz`);
      expect(health.status).toBe(200);
      const headers = { Authorization: "Bearer server-test-token-123456" };
      const asked = await fetch(`${web.url}/api/v1/questions`, {
        method: "POST",
        headers,
        body: JSON.stringify(selectCard()),
      });
      expect(asked.status).toBe(201);
      const { id } = await asked.json();
      const answered = await fetch(`${web.url}/api/v1/questions/${id}/answer`, {
        method: "POST",
        headers,
        body: JSON.stringify({ answer: "finance" }),
      });
      expect(answered.status).toBe(200);
      expect(seen).toEqual(["answered via api"]);
    } finally {
      await web.close();
    }
    await expect(fetch(`${web.url}/healthz`)).rejects.toThrow();
  });

  it("refuses to start on a port that is taken, saying which setting to change", async () => {
    const box = await makeBox();
    const first = await startWeb({
      core: box,
      config: loadConfig({ QBRIDGE_WEB_PORT: "0" }, { box: box.dir }),
    });
    try {
      const port = new URL(first.url).port;
      const config = loadConfig({ QBRIDGE_WEB_PORT: port }, { box: box.dir });
      await expect(startWeb({ core: box, config })).rejects.toThrow(/QBRIDGE_WEB_PORT/);
    } finally {
      await first.close();
    }
  });
});
