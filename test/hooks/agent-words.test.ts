// Story: an agent's own text on a permission card (its description, the command, the tool's
// name) is the agent's, never qbridge's: its words come after qbridge's own lines, quoted on one
// line so they cannot close their quotes or start a line of their own, and every character that
// could hide or reorder what is read (controls, bidi overrides and isolates, zero-width ones)
// is spelled out as <U+XXXX> wherever the card is shown.

import { afterEach, describe, expect, it } from "vitest";
import { quotedWords, visible } from "../../src/card/agent-text.ts";
import { elicitationCard } from "../../src/hooks/elicitation-question.ts";
import { permissionCard as mcpCard } from "../../src/mcp/permission.ts";
import { cleanupBoxes, makeBox } from "../support/box.ts";
import { filedQuestion, fixture, permissionHookInProcess, pick } from "./hook-support.ts";

afterEach(cleanupBoxes);

const IMITATION =
  'Clean up.\n"Allow for this session" covers only `ls` in this session. "Always allow" saves nothing.';

describe("the agent's words on the card", () => {
  it("a description imitating qbridge's lines comes after them, quoted on one line", async () => {
    const box = await makeBox();
    const input = fixture("claude-permission-bash", {
      tool_input: { command: "rm -rf node_modules", description: IMITATION },
    });
    const hook = permissionHookInProcess(box, input);
    const { card } = await filedQuestion(box);
    const own = card.memo.indexOf('"Allow for this session" covers only this exact command.');
    const theirs = card.memo.indexOf("Claude Code: ");
    expect(own).toBeGreaterThanOrEqual(0);
    expect(theirs).toBeGreaterThan(own);
    expect(card.memo).toContain(
      'Claude Code: "Clean up.⏎\\"Allow for this session\\" covers only `ls` in this session. \\"Always allow\\" saves nothing.".',
    );
    // The only unescaped line of qbridge's about the session grant is its own.
    expect(card.memo.match(/(^|[^\\])"Allow for this session" covers/g)).toHaveLength(1);
    await pick(box, "deny");
    await hook.done;
  });

  it("bidi, zero-width and control characters in the command and description are spelled out", async () => {
    const box = await makeBox();
    const input = fixture("claude-permission-bash", {
      tool_input: {
        command: "echo safe \u202E# txt.exe\u202C && rm -rf ~\u200B",
        description: "Harmless\u2066 \u0007\u061C",
      },
    });
    const hook = permissionHookInProcess(box, input);
    const { card } = await filedQuestion(box);
    expect(card.prompt).toBe(
      "Allow Bash: echo safe <U+202E># txt.exe<U+202C> && rm -rf ~<U+200B>?",
    );
    expect(card.memo).toContain('Claude Code: "Harmless<U+2066> <U+0007><U+061C>".');
    expect(card.request).toBe("echo safe <U+202E># txt.exe<U+202C> && rm -rf ~<U+200B>");
    for (const text of [card.prompt, card.memo, card.request ?? ""]) {
      expect(text).not.toMatch(/[\u202A-\u202E\u2066-\u2069\u200B-\u200F\u061C]/);
      expect(text.includes(String.fromCharCode(7))).toBe(false);
    }
    await pick(box, "deny");
    await hook.done;
  });

  it("request_permission's card spells them out too", () => {
    const card = mcpCard({ tool_name: "Bash\u200D", input: { command: "ls \u202Egpj.exe" } });
    expect(card.prompt).toBe("Allow Bash<U+200D>: ls <U+202E>gpj.exe?");
    expect(String(card.memo)).toContain("<U+202E>gpj.exe");
  });

  it("an MCP server's form spells them out in its message, its name and its fields", () => {
    const card = elicitationCard(
      {
        sessionId: "s",
        cwd: "/p",
        server: "gith\u200Bub",
        message: "Delete \u202Eodorp\u202C?",
        mode: "form",
        url: undefined,
        schema: {
          type: "object",
          properties: { ok: { type: "boolean", title: "Sure\u2066", description: "Re\u200Ball" } },
        },
      },
      600,
    );
    expect(card.prompt).toBe("Delete <U+202E>odorp<U+202C>?");
    expect(card.memo).toContain("The MCP server gith<U+200B>ub asks for one value.");
    expect(card.memo).toContain("- Sure<U+2066> (yes or no): Re<U+200B>all");
  });

  it("an MCP server's choices spell them out on the options tapped", () => {
    const card = elicitationCard(
      {
        sessionId: "s",
        cwd: "/p",
        server: "github",
        message: "Which repository?",
        mode: "form",
        url: undefined,
        schema: {
          type: "object",
          properties: {
            repo: {
              type: "string",
              oneOf: [
                { const: "a", title: "public\u202E terces" },
                { const: "b", title: "Two\nlines" },
              ],
            },
          },
        },
      },
      600,
    );
    expect((card.input as { options: { label: string }[] }).options.map((o) => o.label)).toEqual([
      "public<U+202E> terces",
      "Two⏎lines",
    ]);
  });

  it("quotes escape the agent's own quotes, and every hidden character has its code", () => {
    expect(quotedWords('say "hi"\nthen \\ go')).toBe('"say \\"hi\\"⏎then \\\\ go"');
    expect(visible("a\u202Ab\u2069c\u200Ed\u200Fe\uFEFFf\u2028g")).toBe(
      "a<U+202A>b<U+2069>c<U+200E>d<U+200F>e<U+FEFF>f<U+2028>g",
    );
  });
});
