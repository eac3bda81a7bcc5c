// node's crypto, loaded the first time something hashes or draws random bytes, not with every
// module that might: `qbridge ask`, `show`, `wait` and `list` usually do neither, and loading
// crypto (a dozen of node's modules) was a few ms of each.

import { createRequire } from "node:module";

let loaded: typeof import("node:crypto") | undefined;

export function nodeCrypto(): typeof import("node:crypto") {
  loaded ??= createRequire(import.meta.url)("node:crypto") as typeof import("node:crypto");
  return loaded;
}
