// The two options every box command takes: which box, and JSON output.

import type { Command } from "commander";

export function common(command: Command): Command {
  return command
    .option("--box <dir>", "the box directory (default: $QBRIDGE_BOX or ./box)")
    .option("--json", "print machine-readable JSON");
}
