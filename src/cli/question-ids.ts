// The CLI's side of question ids: resolved once, before any command that asks for a question
// id runs, so every such command (show, answer, dismiss, link, ...) takes a beginning or an end
// of an id alike. The resolving itself is the core's (questions/question-ids.ts), shared with
// the API and the MCP tools.

import type { Command } from "commander";
import { BoxPaths } from "../box/paths.ts";
import { couldBeQuestionId, findQuestionId } from "../questions/question-ids.ts";
import { type CommonOptions, configFor } from "./context.ts";

/**
 * The full question id `given` stands for in the box `options` name (commander's hook below).
 * Text that cannot be an id is left as given: the command's own check refuses it in its words.
 */
export function fullQuestionId(given: string, options: CommonOptions): string {
  // Text that cannot be an id needs no box: the command's own check refuses it.
  if (!couldBeQuestionId(given)) return given;
  return findQuestionId(new BoxPaths(configFor(options).boxDir), given);
}

/** Before a command runs: its `id` argument, if it has one, becomes the full question id. */
export function resolveIdArgument(_program: Command, command: Command): void {
  const at = command.registeredArguments.findIndex((arg) => arg.name() === "id");
  const given = command.processedArgs[at] as unknown;
  if (at < 0 || typeof given !== "string") return;
  command.processedArgs[at] = fullQuestionId(given, command.opts());
}
