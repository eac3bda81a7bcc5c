// The one permission request every asker files, whichever door it came through: a coding
// agent's hook (src/hooks/agents/) or the MCP tool `request_permission` (src/mcp/). It holds
// what the person is shown and what each answer may do: the tool and its whole input, who asks,
// where it runs, the asker's own words, and the answers this asker can take (its offers). Pure:
// types only. It never holds an answer the asker cannot take: the card offers exactly these.

/** A tool call that waits for the boxholder's yes. */
export interface PermissionRequest {
  /** Who asks, in words, able to start a sentence: "Claude Code", "A coding agent". */
  asker: string;
  /** How it asked, for the card's `asked-by`: "Claude Code (PermissionRequest hook)". */
  askedBy: string;
  tool: string;
  input: Record<string, unknown>;
  /** The folder it runs in; undefined when the asker does not say. */
  cwd: string | undefined;
  /** The asker's own words for what the call is for; shown quoted, as its own. */
  description: string | undefined;
  /** The call in qbridge's words, for a tool whose input a person cannot read as it comes. */
  words?: ToolWords | undefined;
}

/**
 * A call in words: an MCP tool's sentence and arguments, a patch's files. Never the request
 * itself: the card's `request` holds that whole, and a prompt without it allows only where it
 * is shown whole.
 */
export interface ToolWords {
  prompt: string;
  /** What the call does, a line each, for the memo (about one phone screen). */
  lines: string[];
  /** The input as the memo shows it, when not as JSON (a patch as its own text). */
  shown: string | undefined;
}

/**
 * The answers besides "Allow once" and "Deny" that this request offers. With none of them the
 * question is a plain yes/no.
 */
export interface PermissionOffers {
  /** "Allow for this session", with what it covers in words; undefined when not offered. */
  session: string | undefined;
  /** "Always allow", with what it saves in words; undefined when not offered. */
  always: string | undefined;
  /** "Allow an edited command": the asker takes a changed `command`. */
  edit: boolean;
  /** "Stop": deny and end the asker's turn. */
  stop: boolean;
}

/** A plain yes/no: what an asker that takes nothing more offers. */
export const YES_OR_NO: PermissionOffers = {
  session: undefined,
  always: undefined,
  edit: false,
  stop: false,
};
