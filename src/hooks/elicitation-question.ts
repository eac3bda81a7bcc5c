// The question an MCP server's elicitation becomes, and the action its outcome becomes. One
// field is asked as its own kind of question (an enum a select, a multi-select a multiselect, a
// boolean a yes/no, a string or a number a text); several fields are one question answered with
// the form on the web page (its answer is the JSON of the values); a form without fields, and
// URL mode (which sends the link), ask yes or no: yes accepts, no declines.
// The core checks every answer against the form before it records it. The server's words (its
// message, name and field texts) are shown with hidden characters spelled out. Pure.

import { visible, visibleLine } from "../card/agent-text.ts";
import { formatDuration } from "../card/duration.ts";
import { type FormField, formContent, formFields, singleFieldInput } from "../card/elicitation.ts";
import type { Question } from "../card/question.ts";
import type { QuestionOutcome } from "../questions/outcome.ts";
import type { ElicitationAsk } from "./agent-input.ts";
import type { ElicitationAction } from "./agent-output.ts";

function flat(text: string): string {
  return visibleLine(text).replace(/\s+/g, " ").trim();
}

function prompted(message: string, fallback: string): string {
  const text = flat(message) || fallback;
  return text.length <= 2_000 ? text : `${text.slice(0, 1_999)}…`;
}

function fieldLine(field: FormField): string {
  const choices = (field.choices ?? []).map((c) => c.label).join(" / ");
  const kind =
    field.type === "enum"
      ? choices
      : field.type === "multiselect"
        ? `any of ${choices}`
        : field.type === "boolean"
          ? "yes or no"
          : field.type;
  const about = field.description ? `: ${flat(field.description)}` : "";
  return `- ${flat(field.title)} (${visible(kind)}${field.required ? ", required" : ""})${about}`;
}

function common(ask: ElicitationAsk, timeoutSeconds: number) {
  const server = flat(ask.server);
  return {
    directive: `Nothing to do on the box: Claude Code's hook waits on this question and hands the answer to the MCP server ${server}.`,
    "while-waiting": "Claude Code waits for the answer.",
    "expires-after": formatDuration(timeoutSeconds * 1000),
    "asked-by": `Claude Code (MCP server ${server})`,
  };
}

/** The sentence naming what the form asked that MCP's form cannot hold (not checked here). */
function droppedLine(dropped: readonly string[]): string {
  if (dropped.length === 0) return "";
  const named = dropped.slice(0, 12).join(", ");
  const more = dropped.length > 12 ? ` and ${dropped.length - 12} more` : "";
  return `\nNot checked here (MCP's form has no such rule; the server checks it): ${named}${more}.`;
}

/** `dropped`: the form's keywords MCP's form cannot hold, left out of it (form-schema.ts). */
export function elicitationCard(
  ask: ElicitationAsk,
  timeoutSeconds: number,
  dropped: readonly string[] = [],
): Record<string, unknown> {
  const server = flat(ask.server);
  if (ask.mode === "url") {
    return {
      prompt: prompted(ask.message, `${server} asks you to open a link`),
      memo: `The MCP server ${server} asks you to open this link and finish there: ${visible(ask.url ?? "")}\n\nSay yes once you are done (Claude Code goes on), no to decline.`,
      input: { type: "confirm" },
      ...common(ask, timeoutSeconds),
    };
  }
  const fields = formFields(ask.schema ?? {});
  const [only] = fields;
  if (fields.length === 0) {
    return {
      prompt: prompted(ask.message, `${server} asks you to confirm`),
      memo: `The MCP server ${server} asks for no values, only your yes or no: yes accepts, no declines.${droppedLine(dropped)}`,
      input: { type: "confirm" },
      ...common(ask, timeoutSeconds),
    };
  }
  if (fields.length === 1 && only) {
    return {
      prompt: prompted(ask.message, `${server} asks for ${flat(only.title)}`),
      memo: `The MCP server ${server} asks for one value.\n${fieldLine(only)}${droppedLine(dropped)}`,
      input: singleFieldInput(only),
      ...common(ask, timeoutSeconds),
    };
  }
  return {
    prompt: prompted(ask.message, `${server} asks you to fill in a form`),
    memo: `The MCP server ${server} asks you to fill in ${fields.length} fields: use the form on the web page. (A reply with the JSON of the values works too.)\n${fields.map(fieldLine).join("\n")}${droppedLine(dropped)}`,
    input: { type: "text" },
    ...common(ask, timeoutSeconds),
  };
}

/** What Claude Code is told: accept with the content, decline, or cancel (nobody decided). */
export function actionOf(
  ask: ElicitationAsk,
  outcome: QuestionOutcome,
  card: Pick<Question, "requested-schema" | "input">,
): ElicitationAction {
  if (outcome.status === "dismissed") return { action: "decline" };
  if (outcome.status !== "answered" || !outcome.answer) return { action: "cancel" };
  if (ask.mode === "url") {
    return outcome.answer.selected === "yes" ? { action: "accept" } : { action: "decline" };
  }
  if (formFields(ask.schema ?? {}).length === 0) {
    // A form without fields was asked as a yes/no: its no is no acceptance.
    return outcome.answer.selected === "yes"
      ? { action: "accept", content: {} }
      : { action: "decline" };
  }
  return { action: "accept", content: formContent(card, outcome.answer) };
}
