// DNS-rebinding protection on the real server: requests carry the Host and Origin headers a
// rebound browser sends (node:http, which writes them exactly as given), and everything the
// server serves (/mcp, the API, the pages, /healthz) refuses a foreign one with a 403 that
// says what to set, while the listen address, the loopback names and QBRIDGE_PUBLIC_URL's host
// keep working.

import { request } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config.ts";
import { serveMcp } from "../../src/mcp/http.ts";
import { type RunningWeb, startWeb } from "../../src/web/server.ts";
import { cleanupBoxes, makeBox } from "../support/box.ts";

const TOKEN = "own-host-test-token-0123";
const INITIALIZE = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: {
    protocolVersion: "2025-11-25",
    capabilities: {},
    clientInfo: { name: "rebinding-test", version: "1" },
  },
});

interface Answer {
  status: number;
  body: string;
}

/** One request to the server with exactly these headers (Host included). */
function send(
  web: RunningWeb,
  path: string,
  headers: Record<string, string>,
  body?: string,
): Promise<Answer> {
  const { hostname, port } = new URL(web.url);
  return new Promise((resolve, reject) => {
    const req = request(
      { hostname, port, path, method: body === undefined ? "GET" : "POST", headers },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk) => {
          text += chunk;
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

const mcpHeaders = (host: string, origin?: string) => ({
  Host: host,
  ...(origin ? { Origin: origin } : {}),
  Authorization: `Bearer ${TOKEN}`,
  "Content-Type": "application/json",
  Accept: "application/json, text/event-stream",
});

let web: RunningWeb | undefined;
afterEach(async () => {
  await web?.close();
  web = undefined;
  cleanupBoxes();
});

async function serve(env: Record<string, string> = {}): Promise<RunningWeb> {
  const box = await makeBox();
  const config = loadConfig(
    { QBRIDGE_WEB_PORT: "0", QBRIDGE_API_TOKEN: TOKEN, ...env },
    { box: box.dir },
  );
  web = await startWeb({ core: box, config, mcp: serveMcp });
  return web;
}

describe("a request addressed to another host", () => {
  it("is refused on /mcp, the API, the pages and /healthz, naming QBRIDGE_PUBLIC_URL", async () => {
    const server = await serve();
    const evil = { host: "evil.example.com", origin: "http://evil.example.com" };
    const mcp = await send(server, "/mcp", mcpHeaders(evil.host, evil.origin), INITIALIZE);
    expect(mcp.status).toBe(403);
    const refusal = JSON.parse(mcp.body) as { error: { code: string; message: string } };
    expect(refusal.error.code).toBe("ForeignHost");
    expect(refusal.error.message).toContain('not to "evil.example.com"');
    expect(refusal.error.message).toContain("set QBRIDGE_PUBLIC_URL");

    const api = await send(server, "/api/v1/questions", mcpHeaders(evil.host, evil.origin));
    expect(api.status).toBe(403);
    expect(JSON.parse(api.body).error.code).toBe("ForeignHost");

    for (const path of ["/", "/healthz", "/questions"]) {
      const answer = await send(server, path, { Host: evil.host });
      expect(answer.status, path).toBe(403);
      expect(answer.body, path).toContain("QBRIDGE_PUBLIC_URL");
    }
  });

  it("is refused when only the port differs from the listen port", async () => {
    const server = await serve();
    const answer = await send(server, "/healthz", { Host: "127.0.0.1:1" });
    expect(answer.status).toBe(403);
    expect(answer.body).toContain('not to "127.0.0.1:1"');
  });
});

describe("a request addressed to this server", () => {
  it("is served at the listen address and at each loopback name with the listen port", async () => {
    const server = await serve();
    const { port } = new URL(server.url);
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`]) {
      const health = await send(server, "/healthz", { Host: host });
      expect(health.status, host).toBe(200);
      const mcp = await send(server, "/mcp", mcpHeaders(host, `http://${host}`), INITIALIZE);
      expect(mcp.status, host).toBe(200);
      expect(mcp.body, host).toContain('"serverInfo"');
    }
  });

  it("is refused when a page of another origin sends it", async () => {
    const server = await serve();
    const host = new URL(server.url).host;
    const mcp = await send(server, "/mcp", mcpHeaders(host, "http://evil.example.com"), INITIALIZE);
    expect(mcp.status).toBe(403);
    const refusal = JSON.parse(mcp.body) as { error: { code: string; message: string } };
    expect(refusal.error.code).toBe("ForeignOrigin");
    expect(refusal.error.message).toContain('a page at "http://evil.example.com"');
    const other = await send(server, "/api/v1/questions", {
      ...mcpHeaders(host, "http://localhost:3000"),
    });
    expect(other.status).toBe(403);
    // A page's own form posts say `Origin: null` (no referrer); an agent's endpoint refuses it.
    const page = await send(server, "/healthz", { Host: host, Origin: "null" });
    expect(page.status).toBe(200);
    const agent = await send(server, "/mcp", mcpHeaders(host, "null"), INITIALIZE);
    expect(agent.status).toBe(403);
  });

  it("is served under QBRIDGE_PUBLIC_URL's host, as a reverse proxy forwards it", async () => {
    const server = await serve({ QBRIDGE_PUBLIC_URL: "https://q.example.org" });
    const mcp = await send(
      server,
      "/mcp",
      mcpHeaders("q.example.org", "https://q.example.org"),
      INITIALIZE,
    );
    expect(mcp.status).toBe(200);
    const api = await send(server, "/api/v1/questions", mcpHeaders("q.example.org"));
    expect(api.status).toBe(200);
    const elsewhere = await send(server, "/healthz", { Host: "other.example.org" });
    expect(elsewhere.status).toBe(403);
    expect(elsewhere.body).toContain("q.example.org");
  });
});
