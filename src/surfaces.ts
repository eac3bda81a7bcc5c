// What each surface of the agent side and the web proves of whoever acts on it, declared once
// here (a chat bridge declares its own in its BridgePlug). The judge (src/slot/judge/who.ts)
// turns a surface's declaration and what it saw into a trust level: the web page trusts the
// role its signed link was made for; the API, MCP, the CLI and the hooks speak for agents, who
// ask, read, withdraw and answer ordinary questions only, never a question an agent's hook filed.

import type { SurfaceDeclaration } from "./slot/judge/proof.ts";

/** The web page: a link signed for the boxholder answers; one handed to an asker shows only. */
export const WEB_SURFACE: SurfaceDeclaration = { name: "web", proves: "signed-link" };

/** The JSON API: whoever holds its bearer token, agents too. */
export const API_SURFACE: SurfaceDeclaration = { name: "api", proves: "agent" };

/** MCP, over stdio or /mcp: an agent's session. */
export const MCP_SURFACE: SurfaceDeclaration = { name: "mcp", proves: "agent" };

/** The `qbridge` command in a shell, which agents run too. */
export const CLI_SURFACE: SurfaceDeclaration = { name: "cli", proves: "agent" };

/** `qbridge hook`: the agent's own process, filing its prompt and waiting. */
export const HOOK_SURFACE: SurfaceDeclaration = { name: "hook", proves: "agent" };
