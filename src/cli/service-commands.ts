// The commands that run or connect surfaces, each family in its own file.

import type { Command } from "commander";
import { registerChatCommand } from "./chat-command.ts";
import { registerDemoCommand } from "./demo-command.ts";
import { registerServeCommands } from "./serve-commands.ts";
import { registerWebCommands } from "./web-commands.ts";

export function registerServiceCommands(program: Command): void {
  registerServeCommands(program);
  registerWebCommands(program);
  registerChatCommand(program);
  registerDemoCommand(program);
}
