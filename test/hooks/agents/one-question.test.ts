// The permission question is built once, in the core (src/questions/permission/), for MCP's
// request_permission and for every agent's hook: the same prompt, the same input section and
// the same rules, differing only in the answers each asker takes (MCP: yes or no).

import { describe, expect, it } from "vitest";
import { codex } from "../../../src/hooks/agents/codex.ts";
import { hookOffers, hookRequest } from "../../../src/hooks/permission-question.ts";
import { permissionCard as mcpCard } from "../../../src/mcp/permission.ts";
import { permissionCard } from "../../../src/questions/permission/card.ts";
import { fixtureInput } from "../agent-fixtures.ts";

const INPUT = { command: "npm run deploy -- --env staging", description: "ship it" };

/** Codex's documented Bash request, asking for INPUT. */
function codexAsk() {
  const text = JSON.stringify({ ...fixtureInput("codex-permission-bash"), tool_input: INPUT });
  const read = codex.readPermission(text, "/home/ada");
  if (read.kind !== "permission") throw new Error("a Codex Bash request asks a permission");
  return read.ask;
}

function sections(memo: unknown): string {
  return String(memo).split("\n\n")[1] as string;
}

describe("one permission question for MCP and every hook", () => {
  it("MCP's card and a hook's card show the same prompt and the same input section", () => {
    const viaMcp = mcpCard({ tool_name: "Bash", input: INPUT });
    const ask = codexAsk();
    const viaHook = permissionCard(hookRequest(codex, ask), hookOffers(codex, ask, "x"), 600);
    expect(viaHook.prompt).toBe(viaMcp.prompt);
    expect(sections(viaHook.memo)).toBe(sections(viaMcp.memo));
    expect(viaMcp.irreversible).toBe(true);
    expect(viaHook.irreversible).toBe(true);
  });

  it("MCP, which takes only yes or no, gets a confirm; a hook gets the answers its agent takes", () => {
    const viaMcp = mcpCard({ tool_name: "Bash", input: INPUT });
    expect(viaMcp.input).toEqual({ type: "confirm" });
    const ask = codexAsk();
    const card = permissionCard(hookRequest(codex, ask), hookOffers(codex, ask, "x"));
    const ids = (card.input as { options: { id: string }[] }).options.map((o) => o.id);
    expect(ids).toEqual(["allow-once", "allow-session", "deny"]);
  });
});
