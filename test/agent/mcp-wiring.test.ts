// Who serves /mcp: the web app never loads the MCP adapter itself; the composition root plugs
// it in. `qbridge serve`'s web page answers MCP; a web app built without the endpoint says so
// in JSON-RPC instead of opening a page.

import pino from "pino";
import { afterEach, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config.ts";
import { startService } from "../../src/service.ts";
import { createWebApp } from "../../src/web/app.ts";
import { cleanupBoxes, makeBox } from "../support/box.ts";
import { initializeAs } from "../support/mcp-raw.ts";

afterEach(cleanupBoxes);

const TOKEN = "mcp-wiring-token-0123456789";
const initialize = {
  method: "POST",
  headers: {
    "Content-Type": "application/json",
    Accept: "application/json, text/event-stream",
    Authorization: `Bearer ${TOKEN}`,
  },
  body: JSON.stringify(initializeAs("wiring")),
};

describe("the /mcp endpoint's wiring", () => {
  it("the service's web page answers an MCP initialize", async () => {
    const box = await makeBox();
    box.ledger.close();
    const config = loadConfig(
      { QBRIDGE_BOX: box.dir, QBRIDGE_WEB_PORT: "0", QBRIDGE_API_TOKEN: TOKEN },
      {},
    );
    const service = await startService({ config, logger: pino({ level: "silent" }) });
    try {
      const response = await fetch(`${service.web?.url}/mcp`, initialize);
      expect(response.status).toBe(200);
      expect(await response.text()).toContain('"name":"question-bridge"');
    } finally {
      await service.stop();
    }
  });

  it("a web app built without the endpoint answers /mcp with a JSON-RPC error, not a page", async () => {
    const box = await makeBox();
    const config = loadConfig(
      { QBRIDGE_WEB_PORT: "0", QBRIDGE_API_TOKEN: TOKEN },
      { box: box.dir },
    );
    const app = createWebApp({ core: box, config, secret: undefined });
    const response = await app.request("/mcp", initialize);
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({
      jsonrpc: "2.0",
      error: { message: "this web server was started without MCP" },
    });
  });
});
