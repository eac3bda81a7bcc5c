// Which agent's reading a PermissionRequest hook input gets: the agent named on the command line
// (`--agent`, as `qbridge hook install` writes it), else the one its shape says (agentOf).
// Codex's input is read by its own parser, which takes any tool's input (a shell command, an
// MCP tool's arguments, a patch); Claude Code's by agent-input.ts. Pure.

import { type Agent, agentOf, type PermissionAsk, parsePermissionInput } from "./agent-input.ts";
import { parseCodexPermission } from "./codex/permission-request.ts";

function looseJson(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === "object" ? (value as Record<string, unknown>) : {};
  } catch {
    // Not JSON: the agent's own parser names what is wrong.
    return {};
  }
}

/** The request; `home` is the person's home folder, which "Always allow" never opens. */
export function readPermission(text: string, home: string, agent?: Agent): PermissionAsk {
  const from = agent ?? agentOf(looseJson(text));
  return from === "codex" ? parseCodexPermission(text) : parsePermissionInput(text, home, from);
}
