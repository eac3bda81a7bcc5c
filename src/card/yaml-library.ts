// The YAML library, loaded with the first card read or written, not with the modules that may
// read one: `qbridge list` over a card index that is current reads no card, and loading yaml
// was a seventh of its start-up. In the CLI bundle (CommonJS) `require` is there and the build
// bundles yaml in; run as ES module sources (tests, tsx) it comes from node_modules.

import { createRequire } from "node:module";
import type * as Yaml from "yaml";

let loaded: typeof Yaml | undefined;

export function yaml(): typeof Yaml {
  loaded ??= (
    typeof require === "function" ? require("yaml") : createRequire(import.meta.url)("yaml")
  ) as typeof Yaml;
  return loaded;
}
