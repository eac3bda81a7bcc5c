// The question a permission request becomes, and the decision its outcome becomes. The
// question fits one phone screen: the tool and its command or file in the prompt; the agent's
// own words, the last two parts of the working directory, what an edit changes (line counts)
// and what a session grant covers at the head of the memo; the whole input below it (the web
// page shows all of it). Only a recorded "allow" allows; silence is never consent. Pure.

import { basename, dirname } from "node:path";
import { formatDuration } from "../card/duration.ts";
import { type Option, OTHER_OPTION } from "../card/question.ts";
import { letterOf } from "../card/resolve.ts";
import type { QuestionOutcome } from "../questions/outcome.ts";
import { AGENT_NAMES, type PermissionAsk } from "./agent-input.ts";
import type { HookDecision } from "./agent-output.ts";
import { patternWords } from "./grant-pattern.ts";

export const CHOICES = {
  once: "allow-once",
  session: "allow-session",
  always: "allow-always",
  edited: OTHER_OPTION,
  deny: "deny",
} as const;

const SUMMARY_CHARS = 300;
/** Room for the input in the memo (the card allows 20,000 characters). */
const INPUT_CHARS = 16_000;

function flat(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

function shortened(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

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

/** The one line that names what the tool will do: a command, a file, a URL, or the input. */
export function requestSummary(input: Record<string, unknown>): string {
  for (const key of ["command", "file_path", "notebook_path", "path", "url", "query"]) {
    const value = input[key];
    if (typeof value === "string" && value.trim() !== "") {
      return shortened(flat(value), SUMMARY_CHARS);
    }
  }
  return shortened(flat(JSON.stringify(input)), SUMMARY_CHARS);
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
  if (ask.agent === "claude" && ask.suggestions.length > 0) {
    options.push({ id: CHOICES.always, label: "Always allow" });
  }
  if (editable(ask)) options.push({ id: CHOICES.edited, label: "Allow an edited command" });
  options.push({ id: CHOICES.deny, label: "Deny" });
  return options;
}

function memoOf(ask: PermissionAsk, pattern: string, options: Option[]): string {
  const agent = AGENT_NAMES[ask.agent];
  const words = ask.description?.trim()
    ? `${agent}: "${flat(ask.description)}".`
    : `${agent} asks.`;
  const lines = [`${words} In ${lastTwoParts(ask.cwd)}.`];
  const diff = diffSummary(ask.tool, ask.input);
  if (diff) lines.push(diff);
  lines.push(`"Allow for this session" covers ${patternWords(pattern)} in this session.`);
  const letter = (id: string) => letterOf(options.findIndex((option) => option.id === id));
  if (editable(ask)) {
    lines.push(`To change the command first, reply "${letter(CHOICES.edited)} - <the command>".`);
  }
  lines.push(`To say why not, reply "${letter(CHOICES.deny)} - <why>".`);
  const full = JSON.stringify(ask.input, null, 2);
  const shown =
    full.length <= INPUT_CHARS
      ? full
      : `${full.slice(0, INPUT_CHARS)}\n… (cut here: the input is ${full.length} characters in all)`;
  return `${lines.join(" ")}\n\nThe full input (${ask.tool}):\n${shown}`;
}

/** The card: an irreversible select that expires when the agent's hook would give up. */
export function permissionCard(
  ask: PermissionAsk,
  pattern: string,
  timeoutSeconds: number,
): Record<string, unknown> {
  const agent = AGENT_NAMES[ask.agent];
  const options = optionsFor(ask);
  return {
    prompt: shortened(`Allow ${flat(ask.tool)}: ${requestSummary(ask.input)}?`, 2_000),
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
      return {
        decision: { behavior: "allow", updatedPermissions: ask.suggestions },
        grant: false,
      };
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
