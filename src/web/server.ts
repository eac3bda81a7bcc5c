// Serving the web app on the configured host and port (port 0: any free port). Returns the
// address it really listens on and a close that ends open connections too.

import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createAdaptorServer } from "@hono/node-server";
import type { Logger } from "pino";
import type { Config } from "../config.ts";
import { InvalidInput } from "../errors.ts";
import type { Core } from "../questions/core.ts";
import { createWebApp } from "./app.ts";
import type { McpEndpoint, TransitionListener } from "./deps.ts";
import type { HealthProbe } from "./health.ts";
import { linkSecretIfAny, nothingToServe, pagesOff } from "./link-secret.ts";
import { loadSecret } from "./links.ts";
import type { ListenAddress } from "./own-host.ts";

export interface RunningWeb {
  /** Where the server listens, e.g. http://127.0.0.1:8787 (not the public URL). */
  url: string;
  close(): Promise<void>;
  /** Whether the signed pages are on: off on a read-only box that has no link key. */
  pages: boolean;
}

export interface StartWebOptions {
  core: Core;
  config: Config;
  logger?: Logger | undefined;
  /** Told after each answer or dismissal made through the web page or the API. */
  onTransition?: TransitionListener | undefined;
  /** What /healthz shows (the service's, with its parts); else one made for this server. */
  health?: HealthProbe | undefined;
  /** The MCP endpoint served at /mcp (src/mcp/http.ts's `serveMcp`), wired by the caller. */
  mcp?: McpEndpoint | undefined;
}

function urlOf(address: AddressInfo): string {
  const host = address.family === "IPv6" ? `[${address.address}]` : address.address;
  return `http://${host}:${address.port}`;
}

export async function startWeb(options: StartWebOptions): Promise<RunningWeb> {
  const { core, config, logger } = options;
  // A read-only box never served has no key and cannot make one: its API still reads.
  const secret = linkSecretIfAny(() => loadSecret(core.box));
  if (!secret && !config.apiToken) throw nothingToServe(core.box);
  let listening: ListenAddress = config.web;
  const app = createWebApp({
    core,
    config,
    secret,
    logger,
    onTransition: options.onTransition,
    health: options.health,
    mcp: options.mcp,
    listening: () => listening,
  });
  const server = createAdaptorServer({ fetch: app.fetch }) as Server;
  const { host, port } = config.web;
  await new Promise<void>((resolve, reject) => {
    const failed = (error: NodeJS.ErrnoException) => {
      reject(
        new InvalidInput(
          // --host/--port win over the settings, so both are named; a port in use is most
          // often a second serve or web started on the same machine.
          `the web page cannot listen on ${host}:${port} (${error.code ?? error.message}${error.code === "EADDRINUSE" ? "; is another qbridge serve or web running?" : ""}): choose a free address with --host/--port or QBRIDGE_WEB_HOST/QBRIDGE_WEB_PORT`,
        ),
      );
    };
    server.once("error", failed);
    server.listen(port, host, () => {
      server.off("error", failed);
      resolve();
    });
  });
  server.on("error", (error) => logger?.error({ err: error }, "the web server failed"));
  const address = server.address() as AddressInfo;
  listening = { host, port: address.port };
  const url = urlOf(address);
  const pages = secret ? "on" : "off";
  logger?.info({ url, api: config.apiToken ? "on" : "off", pages }, "web page listening");
  if (!secret) logger?.warn({}, `the pages are off: ${pagesOff(core.box)}`);
  return {
    url,
    pages: Boolean(secret),
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}
