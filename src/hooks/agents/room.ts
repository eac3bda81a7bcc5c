// What an agent's room declares: everything qbridge knows about one coding agent, in one file
// beside this one, and nowhere else. Its hook input read into one neutral request (or a set of
// questions, or a plan, or nothing to ask), the answers it can take, the neutral decision
// written in its own output shape, and where its hooks are installed. Adding an agent is its
// room and one line in list.ts. Types only: a room never imports another room or the list.

import type { AgentDecision } from "../agent-decision.ts";
import type { PermissionAsk } from "../agent-input.ts";
import type { QuestionSet } from "../claude/ask-user-question.ts";
import type { PlanRequest } from "../claude/plan-review.ts";
import type { GrantBy } from "../grant-pattern.ts";

/** What one PermissionRequest hook input asks of the boxholder. */
export type AgentAsk =
  /** A tool call to allow or deny. */
  | { kind: "permission"; ask: PermissionAsk }
  /** Questions the agent asks in its own words (Claude Code's AskUserQuestion). */
  | { kind: "questions"; ask: PermissionAsk; set: QuestionSet }
  /** A plan to approve or send back (Claude Code's ExitPlanMode). */
  | { kind: "plan"; ask: PermissionAsk; plan: PlanRequest }
  /** Nothing to ask: the agent settles it itself (the hook prints nothing). */
  | { kind: "fall-through"; why: string };

/** The answers an agent takes; a card offers only these. */
export interface AgentTakes {
  /** "Allow for this session": a grant qbridge keeps for the agent's session. */
  session: boolean;
  /** "Always allow": a rule the agent suggested, written by the agent itself. */
  always: boolean;
  /** "Allow an edited command": an allow with a changed input. */
  edit: boolean;
  /** "Stop": a deny that ends the agent's turn. */
  stop: boolean;
  /** Its own questions answered with its own options. */
  questions: boolean;
  /** Its plans approved or sent back. */
  plans: boolean;
}

/**
 * A hook file qbridge owns whole (Copilot CLI reads every `*.json` of its hooks folders): what
 * it holds for the entries, and the qbridge commands a file holds per event (the doctor).
 */
export interface OwnHookFile {
  write(entries: { event: string; command: string }[], timeoutSeconds: number): object;
  commands(file: Record<string, unknown>): Map<string, string[]>;
}

/** Where `qbridge hook install --<name>` writes, and what. */
export interface AgentInstall {
  /** The settings file: `<home or project>/<folder>/<file>`. */
  folder: string;
  /** The folder in a project, when it is not `folder` (Copilot CLI: .github/hooks). */
  projectFolder?: string | undefined;
  file: string;
  /** Set when the file is qbridge's own, written whole; else the entries merge into settings. */
  own?: OwnHookFile | undefined;
  /** One entry per hook event: the `qbridge hook` subcommand it runs (its words after "hook"). */
  hooks: { event: string; run: string; timeoutSeconds?: number | undefined }[];
  /** A sentence said after installing (what the person still does before it runs). */
  afterInstall?: string | undefined;
  /** The same, as the doctor adds it to an installed place's line. */
  doctorNote?: string | undefined;
}

/** The agent's hook for a turn stopped at the computer (Codex's Interrupt). */
export interface AgentInterrupt {
  /** The hook input read; InvalidInput when it is not this agent's. */
  read(text: string): { sessionId: string };
  /** What the hook prints once `withdrawn` questions were withdrawn; undefined: nothing. */
  write(withdrawn: number): object | undefined;
}

export interface AgentRoom {
  /** The `--agent` value and the `--<name>` install flag: lower-case letters. */
  name: string;
  /** The agent's name in words: "Claude Code". */
  label: string;
  /** Whether an input is this agent's, when the hook is run without --agent. */
  recognizes?: ((raw: Record<string, unknown>) => boolean) | undefined;
  /** An input no room recognizes is this agent's (one room says so: the first agent served). */
  fallback?: boolean | undefined;
  /** The hook input (standard input's text) read; InvalidInput when it is not this agent's. */
  readPermission(text: string, home: string): AgentAsk;
  takes: AgentTakes;
  /** The decision in the agent's output shape; refuses (throws) what the agent cannot take. */
  writePermission(decision: AgentDecision): Record<string, unknown>;
  /** Its turn-stopped hook, when it has one (Claude Code has none: the hook's own end tells). */
  interrupt?: AgentInterrupt | undefined;
  /** Where its hooks are installed; undefined when qbridge cannot install them yet. */
  install?: AgentInstall | undefined;
  /**
   * Its own tools whose session grant may reach past their exact input, by name in lower case:
   * a command tool's by its command, a file tool's by its file's folder, a fetch tool's by its
   * URL's host. Any other tool (an MCP server's among them) is granted its exact input: its
   * file, URL or command may be one argument among others a wider grant would leave open.
   * Without it, every tool's.
   */
  grantBy?: Readonly<Record<string, GrantBy>> | undefined;
}
