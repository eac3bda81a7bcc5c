// node's crypto, loaded the first time something hashes or draws random bytes, not with every
// module that might: `qbridge ask`, `show`, `wait` and `list` usually do neither, and loading
// crypto (a dozen of node's modules) was a few ms of each.

import { closeSync, openSync, readSync } from "node:fs";
import { createRequire } from "node:module";

let loaded: typeof import("node:crypto") | undefined;

export function nodeCrypto(): typeof import("node:crypto") {
  loaded ??= createRequire(import.meta.url)("node:crypto") as typeof import("node:crypto");
  return loaded;
}

/**
 * `bytes` random bytes in hex, as for a question id's suffix: read from the kernel's random
 * source where there is one (an open and a read, where loading crypto for randomBytes was a few
 * ms of each `qbridge ask` without an id), else from node's crypto.
 */
export function randomHex(bytes: number): string {
  const buffer = Buffer.alloc(bytes);
  try {
    const fd = openSync("/dev/urandom", "r");
    try {
      if (readSync(fd, buffer, 0, bytes, null) === bytes) return buffer.toString("hex");
    } finally {
      closeSync(fd);
    }
  } catch {
    // no /dev/urandom here (another system): node's crypto below
  }
  return nodeCrypto().randomBytes(bytes).toString("hex");
}
