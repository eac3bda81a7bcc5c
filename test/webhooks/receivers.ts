// Webhook receivers for the tests: real HTTP servers on loopback, each closed (its kept-alive
// connections too) by closeReceivers after every test.

import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";

const servers: Server[] = [];

/** Keeps a server the test started so that closeReceivers closes it. */
export function track(server: Server): void {
  servers.push(server);
}

/** A receiver that answers every request with `status`; the requests it got, in order. */
export async function receiver(
  status = 200,
): Promise<{ port: number; url: string; received: IncomingMessage[] }> {
  const received: IncomingMessage[] = [];
  const server = createServer((req, res) => {
    received.push(req);
    req.resume();
    req.on("end", () => res.writeHead(status).end());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  track(server);
  const { port } = server.address() as AddressInfo;
  return { port, url: `http://127.0.0.1:${port}/hook`, received };
}

export async function closeReceivers(): Promise<void> {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
}
