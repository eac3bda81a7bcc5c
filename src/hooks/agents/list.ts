// The agent list and its look-ups: the rooms exported by rooms.ts (one line per agent), found
// by name (`--agent`, `--<name>`) or by the shape of an input given without --agent. Nothing
// here names an agent: every agent's knowledge is in its room.

import { InvalidInput } from "../../errors.ts";
import type { AgentRoom } from "./room.ts";
import * as rooms from "./rooms.ts";

/** Every room, in the order help and the doctor list them (by name). */
export const AGENT_ROOMS: readonly AgentRoom[] = Object.values(rooms).sort((a, b) =>
  a.name.localeCompare(b.name),
);

/** The room of an agent's name (`--agent`); InvalidInput naming the agents qbridge knows. */
export function roomNamed(name: string): AgentRoom {
  const room = AGENT_ROOMS.find((r) => r.name === name);
  if (!room) {
    const known = AGENT_ROOMS.map((r) => r.name).join(", ");
    throw new InvalidInput(`--agent ${name} is not an agent qbridge knows: ${known}`);
  }
  return room;
}

/**
 * The room an input without --agent belongs to: the first that recognizes it, else the room
 * that takes what no other recognizes.
 */
export function roomOfInput(raw: Record<string, unknown>): AgentRoom {
  const found = AGENT_ROOMS.find((r) => r.recognizes?.(raw));
  const fallback = AGENT_ROOMS.find((r) => r.fallback);
  if (found ?? fallback) return (found ?? fallback) as AgentRoom;
  throw new InvalidInput(
    "the hook input is no agent's qbridge knows: run it with --agent and the agent's name",
  );
}

/** The agent's name in words; the name itself for an agent no room declares. */
export function agentLabel(name: string): string {
  return AGENT_ROOMS.find((r) => r.name === name)?.label ?? name;
}
