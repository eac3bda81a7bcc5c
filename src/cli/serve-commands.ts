// `qbridge serve` and `qbridge pair`: the long-running service and Telegram pairing.

import type { Command } from "commander";

export function registerServeCommands(_program: Command): void {}
