// The question a permission request becomes, and the decision its outcome becomes. The prompt
// names the tool and its request (src/card/agent-request.ts: whole when it fits a phone's
// prompt, else its head and tail with the rest counted, and the card's `request` holds it whole
// for the page, `qbridge chat` and `qbridge show`). The memo says first, in qbridge's own words,
// where it runs, what an edit changes, what "Allow for this session" covers and every rule
// "Always allow" writes; then the agent's own words, quoted and marked as its own, with hidden
// characters spelled out; then the input. Only a recorded "allow" allows; silence is never
// consent; "Always allow" writes exactly the updates the card states. Pure.

import { basename, dirname } from "node:path";
import { headAndTail, REQUEST_MAX_CHARS, requestOf, requestPrompt } from "../card/agent-request.ts";
import { quotedWords, visibleLine, visibleLines } from "../card/agent-text.ts";
import { formatDuration } from "../card/duration.ts";
import { type Option, OTHER_OPTION } from "../card/question.ts";
import { letterOf } from "../card/resolve.ts";
import { InvalidInput } from "../errors.ts";
import type { QuestionOutcome } from "../questions/outcome.ts";
import { AGENT_NAMES, type PermissionAsk } from "./agent-input.ts";
import type { HookDecision } from "./agent-output.ts";
import { alwaysWords } from "./always-allow.ts";
import { patternWords } from "./grant-pattern.ts";

export const CHOICES = {
  once: "allow-once",
  session: "allow-session",
  always: "allow-always",
  edited: OTHER_OPTION,
  deny: "deny",
} as const;

/** Room for the input in the memo (the card allows 20,000 characters). */
const INPUT_CHARS = 12_000;

/** The last two parts of a path: enough to tell two checkouts apart on a phone. */
export function lastTwoParts(path: string): string {
  const parent = basename(dirname(path));
  return parent && parent !== "/" && parent !== "."
    ? `${parent}/${basename(path)}`
    : basename(path);
}

function lineCount(value: unknown): number {
  return typeof value === "string" && value !== "" ? value.split("\n").length : 0;
}

/** The one line the audit keeps of a request: its head and tail. */
export function requestSummary(input: Record<string, unknown>): string {
  return headAndTail(requestOf(input).replace(/\s+/g, " "), 300);
}

/** What an edit changes, in line counts: Edit and MultiEdit old/new, Write the new content. */
export function diffSummary(tool: string, input: Record<string, unknown>): string | undefined {
  if (typeof input.old_string === "string" || typeof input.new_string === "string") {
    return `Replaces ${lineCount(input.old_string)} line(s) with ${lineCount(input.new_string)}.`;
  }
  if (Array.isArray(input.edits)) {
    const edits = input.edits as Record<string, unknown>[];
    const old = edits.reduce((n, e) => n + lineCount(e.old_string), 0);
    const next = edits.reduce((n, e) => n + lineCount(e.new_string), 0);
    return `${edits.length} edit(s): ${old} line(s) replaced with ${next}.`;
  }
  if (tool === "Write" && typeof input.content === "string") {
    return `Writes ${lineCount(input.content)} line(s).`;
  }
  return undefined;
}

/** The command can be edited before it is allowed: Claude Code takes updatedInput, Codex not. */
export function editable(ask: PermissionAsk): boolean {
  return ask.agent === "claude" && typeof ask.input.command === "string";
}

function optionsFor(ask: PermissionAsk): Option[] {
  const options: Option[] = [
    { id: CHOICES.once, label: "Allow once" },
    { id: CHOICES.session, label: "Allow for this session" },
  ];
  if (ask.agent === "claude" && ask.always.length > 0) {
    options.push({ id: CHOICES.always, label: "Always allow" });
  }
  if (editable(ask)) options.push({ id: CHOICES.edited, label: "Allow an edited command" });
  options.push({ id: CHOICES.deny, label: "Deny" });
  return options;
}

/** qbridge's own lines: where it runs, what changes, what each allow covers. */
function ownLines(ask: PermissionAsk, pattern: string, options: Option[]): string[] {
  const lines = [`In ${visibleLine(lastTwoParts(ask.cwd))}.`];
  const diff = diffSummary(ask.tool, ask.input);
  if (diff) lines.push(diff);
  lines.push(`"Allow for this session" covers ${patternWords(pattern)}.`);
  if (options.some((o) => o.id === CHOICES.always)) {
    lines.push(`"Always allow" saves ${alwaysWords(ask.always)}.`);
  }
  return lines;
}

/** How to answer with words: an edited command, or why not. */
function replyLines(ask: PermissionAsk, options: Option[]): string[] {
  const letter = (id: string) => letterOf(options.findIndex((option) => option.id === id));
  const lines: string[] = [];
  if (editable(ask)) {
    lines.push(`To change the command first, reply "${letter(CHOICES.edited)} - <the command>".`);
  }
  lines.push(`To say why not, reply "${letter(CHOICES.deny)} - <why>".`);
  return lines;
}

/**
 * The memo: qbridge's own lines first (a phone shows them before it cuts), then the agent's
 * words, quoted on one line so they can never pass for those lines, then the input.
 */
function memoOf(ask: PermissionAsk, pattern: string, options: Option[]): string {
  const agent = AGENT_NAMES[ask.agent];
  const words = ask.description?.trim()
    ? `${agent}: ${quotedWords(ask.description)}.`
    : `${agent} gave no words of its own.`;
  const input = visibleLines(JSON.stringify(ask.input, null, 2));
  const shown =
    input.length <= INPUT_CHARS
      ? input
      : `${headAndTail(input, INPUT_CHARS)}\n(The whole request is on the web page and in qbridge show.)`;
  const head = [...ownLines(ask, pattern, options), words, ...replyLines(ask, options)];
  return `${head.join(" ")}\n\nThe full input (${visibleLine(ask.tool)}):\n${shown}`;
}

/**
 * The card: an irreversible select that expires when the agent's hook would give up. Its whole
 * request (the card's `request`, requestOf) is filed beside it.
 */
export function permissionCard(
  ask: PermissionAsk,
  pattern: string,
  timeoutSeconds: number,
): Record<string, unknown> {
  const agent = AGENT_NAMES[ask.agent];
  const options = optionsFor(ask);
  const length = requestOf(ask.input).length;
  if (length > REQUEST_MAX_CHARS) {
    throw new InvalidInput(
      `the request is ${length} characters, more than a question can show whole (${REQUEST_MAX_CHARS}): answer it at the computer`,
    );
  }
  return {
    prompt: requestPrompt(ask.tool, ask.input),
    memo: memoOf(ask, pattern, options),
    input: { type: "select", options },
    directive: `Nothing to do on the box: ${agent}'s hook waits on this question and hands the decision to the agent.`,
    "while-waiting": `${agent} waits; nothing runs.`,
    irreversible: true,
    "expires-after": formatDuration(timeoutSeconds * 1000),
    "asked-by": `${agent} (PermissionRequest hook)`,
  };
}

export interface Decided {
  decision: HookDecision;
  /** The boxholder chose "Allow for this session": the caller writes the grant. */
  grant: boolean;
}

/** What the agent is told; undefined when there is nothing to tell (then it asks itself). */
export function decisionOf(ask: PermissionAsk, outcome: QuestionOutcome): Decided | undefined {
  const id = outcome.id;
  if (outcome.status === "dismissed") {
    const message = `The owner set this request aside on their phone without allowing it (question ${id}). Do not run ${ask.tool}.`;
    return { decision: { behavior: "deny", message }, grant: false };
  }
  if (outcome.status !== "answered" || !outcome.answer) return undefined;
  const { selected, text, note } = outcome.answer;
  switch (selected) {
    case CHOICES.once:
      return { decision: { behavior: "allow" }, grant: false };
    case CHOICES.session:
      return { decision: { behavior: "allow" }, grant: true };
    case CHOICES.always:
      return { decision: { behavior: "allow", updatedPermissions: ask.always }, grant: false };
    case CHOICES.edited:
      return {
        decision: { behavior: "allow", updatedInput: { ...ask.input, command: text } },
        grant: false,
      };
    default: {
      const message = note?.trim()
        ? `The owner denied this: "${note.trim()}" (question ${id}).`
        : `The owner denied this on their phone (question ${id}). Do not run it; ask differently if it still matters.`;
      return { decision: { behavior: "deny", message }, grant: false };
    }
  }
}
