// The commands that run or connect surfaces: filled in by the Telegram and web work.

import type { Command } from "commander";

export function registerServiceCommands(_program: Command): void {}
