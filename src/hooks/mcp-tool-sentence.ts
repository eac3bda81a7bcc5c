// An MCP tool call as a person reads it: "Run deploy-tools' deploy on staging?", never
// `Allow mcp__deploy-tools__deploy: {}?`. Claude Code and Codex both name an MCP tool
// `mcp__<server>__<tool>` in their hooks and pass the tool's own arguments as `tool_input`
// (code.claude.com/docs/en/hooks "Match MCP tools"; openai/codex PR #18385). The sentence
// keeps the server's and the tool's names exactly; the arguments follow in a one-screen
// summary, each on its own line. Pure.

const PREFIX = "mcp__";
const SEPARATOR = "__";
const SENTENCE_CHARS = 300;
const VALUE_CHARS = 120;
/** About one phone screen of arguments. */
export const ARGUMENT_LINES = 12;

/** Arguments that say where a call acts, read as "on <value>". */
const WHERE_KEYS = ["environment", "env", "stage", "target", "host", "cluster", "region"];

export interface McpTool {
  server: string;
  tool: string;
}

/** The server and the tool of an MCP tool name; undefined for a tool that is not an MCP one. */
export function mcpToolOf(toolName: string): McpTool | undefined {
  if (!toolName.startsWith(PREFIX)) return undefined;
  const rest = toolName.slice(PREFIX.length);
  const at = rest.indexOf(SEPARATOR);
  if (at <= 0 || at + SEPARATOR.length >= rest.length) return undefined;
  return { server: rest.slice(0, at), tool: rest.slice(at + SEPARATOR.length) };
}

function flat(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

function shortened(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** "deploy-tools'" and "github's": the possessive of a name, as English writes it. */
function possessive(name: string): string {
  return /s$/i.test(name) ? `${name}'` : `${name}'s`;
}

function shortText(value: unknown): string | undefined {
  if (typeof value !== "string") return undefined;
  const text = flat(value);
  return text !== "" && text.length <= 60 ? text : undefined;
}

/** What follows the tool's name: where it acts, its one argument, or how many it takes. */
function sentenceTail(args: Record<string, unknown>): string {
  const keys = Object.keys(args);
  if (keys.length === 0) return " with no arguments";
  for (const key of WHERE_KEYS) {
    const where = shortText(args[key]);
    if (where !== undefined) return ` on ${where}`;
  }
  const [only] = keys;
  const value = only === undefined ? undefined : shortText(args[only]);
  if (keys.length === 1 && value !== undefined) return ` with ${only} "${value}"`;
  return ` with ${keys.length} argument${keys.length === 1 ? "" : "s"}`;
}

/** The question a call asks: "Run <server>'s <tool> …?". */
export function mcpSentence(call: McpTool, args: Record<string, unknown>): string {
  const text = `Run ${possessive(flat(call.server))} ${flat(call.tool)}${sentenceTail(args)}`;
  return `${shortened(text, SENTENCE_CHARS - 1)}?`;
}

function valueText(value: unknown): string {
  const text = typeof value === "string" ? value : JSON.stringify(value);
  return shortened(flat(text ?? String(value)), VALUE_CHARS);
}

/** The arguments, one "name: value" line each, with how much is left out counted. */
export function argumentLines(args: Record<string, unknown>, most = ARGUMENT_LINES): string[] {
  const entries = Object.entries(args);
  const shown = entries.slice(0, most).map(([key, value]) => `${key}: ${valueText(value)}`);
  const left = entries.length - shown.length;
  if (left > 0) {
    const chars = JSON.stringify(args).length.toLocaleString("en-US");
    shown.push(`… and ${left} more argument${left === 1 ? "" : "s"} (${chars} characters in all)`);
  }
  return shown;
}
