// `qbridge web` (the web page and API alone) and `qbridge link ID` (a fresh signed link).

import type { Command } from "commander";

export function registerWebCommands(_program: Command): void {}
