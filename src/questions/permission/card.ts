// The question a permission request becomes, built once for every asker (the agents' hooks and
// MCP's `request_permission`). The prompt is the call in words where the asker has them
// (request.ts's ToolWords, a line each in the memo too), else it names the tool and its request
// (src/card/agent-request.ts: whole when it fits a phone's prompt, else its head and tail with
// the rest counted); the card's `request` holds it whole for the page, `qbridge chat` and
// `qbridge show`. The memo says first, in qbridge's own words, where it runs, what an edit
// changes, what "Allow for this session" covers and what "Always allow" saves; then the asker's
// own words, quoted and marked as its own, with hidden characters spelled out; then the input.
// It offers exactly the answers the asker takes (PermissionOffers): with none beyond yes and
// no, a confirm. Pure. Never offers an answer the asker cannot take.

import {
  headAndTail,
  REQUEST_MAX_CHARS,
  requestOf,
  requestPrompt,
} from "../../card/agent-request.ts";
import { quotedWords, visibleLine, visibleLines } from "../../card/agent-text.ts";
import { formatDuration } from "../../card/duration.ts";
import { type Option, OTHER_OPTION } from "../../card/question.ts";
import { letterOf } from "../../card/resolve.ts";
import { InvalidInput } from "../../errors.ts";
import type { PermissionOffers, PermissionRequest } from "./request.ts";
import { diffSummary, lastTwoParts } from "./tool-words.ts";

/** The option ids of a permission select. */
export const CHOICES = {
  once: "allow-once",
  session: "allow-session",
  always: "allow-always",
  edited: OTHER_OPTION,
  deny: "deny",
  stop: "stop",
} as const;

/** Room for the input in the memo (the card allows 20,000 characters). */
const INPUT_CHARS = 12_000;

/** Whether the request offers more than yes and no. */
export function offersChoices(offers: PermissionOffers): boolean {
  return Boolean(offers.session || offers.always || offers.edit || offers.stop);
}

/** The options, in the order a person reads them: the allows, then Deny, then Stop. */
export function permissionOptions(offers: PermissionOffers): Option[] {
  const options: Option[] = [{ id: CHOICES.once, label: "Allow once" }];
  if (offers.session) options.push({ id: CHOICES.session, label: "Allow for this session" });
  if (offers.always) options.push({ id: CHOICES.always, label: "Always allow" });
  if (offers.edit) options.push({ id: CHOICES.edited, label: "Allow an edited command" });
  options.push({ id: CHOICES.deny, label: "Deny" });
  if (offers.stop) options.push({ id: CHOICES.stop, label: "Stop" });
  return options;
}

/** qbridge's own lines: where it runs, what changes, what each allow covers. */
function ownLines(request: PermissionRequest, offers: PermissionOffers): string[] {
  const lines = request.cwd ? [`In ${visibleLine(lastTwoParts(request.cwd))}.`] : [];
  const diff = diffSummary(request.tool, request.input);
  if (diff) lines.push(diff);
  if (offers.session) lines.push(`"Allow for this session" covers ${offers.session}.`);
  if (offers.always) lines.push(`"Always allow" saves ${offers.always}.`);
  if (offers.stop) lines.push(`"Stop" denies it and ends ${request.asker}'s turn.`);
  return lines;
}

/** How to answer with words: an edited command, or why not. */
function replyLines(offers: PermissionOffers, options: Option[]): string[] {
  if (!offersChoices(offers)) return [];
  const letter = (id: string) => letterOf(options.findIndex((option) => option.id === id));
  const lines: string[] = [];
  if (offers.edit) {
    lines.push(`To change the command first, reply "${letter(CHOICES.edited)} - <the command>".`);
  }
  lines.push(`To say why not, or what to do instead, reply "${letter(CHOICES.deny)} - <why>".`);
  return lines;
}

/**
 * The memo: qbridge's own lines first (a phone shows them before it cuts), then the asker's
 * words, quoted on one line so they can never pass for those lines, then the call in words,
 * then the input.
 */
function memoOf(request: PermissionRequest, offers: PermissionOffers, options: Option[]): string {
  const words = request.description?.trim()
    ? `${request.asker}: ${quotedWords(request.description)}.`
    : `${request.asker} gave no words of its own.`;
  const input = request.words?.shown ?? visibleLines(JSON.stringify(request.input, null, 2));
  const shown =
    input.length <= INPUT_CHARS
      ? input
      : `${headAndTail(input, INPUT_CHARS)}\n(The whole request is on the web page and in qbridge show.)`;
  const head = [...ownLines(request, offers), words, ...replyLines(offers, options)];
  const call = request.words ? `\n\n${request.words.lines.join("\n")}` : "";
  return `${head.join(" ")}${call}\n\nThe full input (${visibleLine(request.tool)}):\n${shown}`;
}

/**
 * The card: an irreversible question, a select of the offered answers (a confirm when only yes
 * and no are offered), expiring when the asker would stop waiting. Its whole request (the
 * card's `request`, requestOf) is filed beside it.
 */
export function permissionCard(
  request: PermissionRequest,
  offers: PermissionOffers,
  expiresSeconds?: number,
): Record<string, unknown> {
  const length = requestOf(request.input).length;
  if (length > REQUEST_MAX_CHARS) {
    throw new InvalidInput(
      `the request is ${length} characters, more than a question can show whole (${REQUEST_MAX_CHARS}): answer it at the computer`,
    );
  }
  const options = permissionOptions(offers);
  const tool = visibleLine(request.tool);
  const card: Record<string, unknown> = {
    prompt: request.words?.prompt ?? requestPrompt(request.tool, request.input),
    memo: memoOf(request, offers, options),
    input: offersChoices(offers) ? { type: "select", options } : { type: "confirm" },
    directive: `Nothing to do on the box: ${request.asker} waits on this question and runs ${tool} only if it is allowed.`,
    "while-waiting": `${request.asker} waits; ${tool} does not run.`,
    irreversible: true,
    "asked-by": request.askedBy,
  };
  if (expiresSeconds !== undefined) card["expires-after"] = formatDuration(expiresSeconds * 1000);
  return card;
}
