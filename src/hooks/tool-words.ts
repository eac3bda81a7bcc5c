// A tool call in words, for the tools whose input a person cannot read as it comes: an MCP
// tool ("Run deploy-tools' deploy on staging?" and its arguments one per line) and Codex's
// apply_patch ("Apply a patch to 3 files (+2 -1)?" and each file it adds, updates or deletes
// with its +/- lines). Every other tool keeps "Allow <tool>: <request>?" (card/agent-request.ts).
// The words never stand for the request: the card's `request` holds it whole, and a prompt that
// does not hold it whole lets only a surface that shows the request whole allow it. An MCP
// call short enough is in the prompt whole, so a phone may allow it; a patch never is. Pure.

import { PROMPT_SHOWN_CHARS, requestInOneLine, requestOf } from "../card/agent-request.ts";
import { visibleLine, visibleLines } from "../card/agent-text.ts";
import { QbridgeError } from "../errors.ts";
import type { ToolWords } from "../questions/permission/request.ts";
import { changeLine, parseApplyPatch, patchSentence } from "./codex/apply-patch.ts";
import { argumentLines, mcpSentence, mcpToolOf } from "./mcp-tool-sentence.ts";

/** Codex's patch tool: its input's `command` is the patch text. */
export const APPLY_PATCH = "apply_patch";

function mcpWords(tool: string, input: Record<string, unknown>): ToolWords | undefined {
  const call = mcpToolOf(tool);
  if (!call) return undefined;
  const sentence = visibleLine(mcpSentence(call, input));
  const whole = `${sentence.slice(0, -1)}: ${requestInOneLine(requestOf(input))}?`;
  const lines = argumentLines(input).map(visibleLine);
  return {
    prompt: whole.length <= PROMPT_SHOWN_CHARS ? whole : sentence,
    lines,
    shown: undefined,
  };
}

function patchWords(tool: string, input: Record<string, unknown>): ToolWords | undefined {
  if (tool !== APPLY_PATCH || typeof input.command !== "string") return undefined;
  try {
    const changes = parseApplyPatch(input.command);
    return {
      prompt: patchSentence(changes),
      lines: changes.map((change) => visibleLine(changeLine(change))),
      shown: visibleLines(input.command),
    };
  } catch (error) {
    // A patch Codex's format does not describe is shown as any other request is.
    if (error instanceof QbridgeError) return undefined;
    throw error;
  }
}

/** The words of a call to `tool`, when it has its own; undefined for "Allow <tool>: …?". */
export function toolWords(tool: string, input: Record<string, unknown>): ToolWords | undefined {
  return mcpWords(tool, input) ?? patchWords(tool, input);
}
