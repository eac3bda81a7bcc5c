// The agents qbridge serves, one export line each: adding an agent is its room (a file beside
// this one that exports an AgentRoom, room.ts) and its line here. Nothing else names them.

export { claude } from "./claude.ts";
export { codex } from "./codex.ts";
export { copilot } from "./copilot.ts";
