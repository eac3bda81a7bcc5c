/**
 * A loopback port for a server that must be told its port before it listens (Dovecot's
 * configuration, a webhook URL, a Bot API that comes back later). Servers that can listen on 0
 * must do so and say which port they got: only then can no other process take it first.
 */
import { readFileSync } from "node:fs";
import { createServer } from "node:net";

/**
 * The kernel hands out ports from this range to every `listen(0)` and outgoing connection, so a
 * port chosen inside it and let go can be taken by any test running beside this one before the
 * server it was chosen for listens. Ports below it are only ever taken by name.
 */
function ephemeralLow(): number {
  try {
    const low = Number(
      readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8").split(/\s+/)[0],
    );
    if (Number.isInteger(low) && low > 2048) return low;
  } catch {
    // not Linux: the IANA range's start
  }
  return 49152;
}

function listensOn(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once("error", () => resolve(false));
    server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)));
  });
}

/** A random free loopback port below the ephemeral range; throws after 50 taken ones. */
export async function unusedPort(): Promise<number> {
  const high = ephemeralLow();
  const low = Math.max(1024, high - 16_384);
  for (let tries = 0; tries < 50; tries++) {
    const port = low + Math.floor(Math.random() * (high - low));
    if (await listensOn(port)) return port;
  }
  throw new Error(`no free loopback port in ${low}-${high - 1} after 50 tries`);
}
