// Turning `qbridge ask` flags into the same card object a JSON caller sends. A missing flag is
// named as the person adds it (`--memo TEXT (why you ask)`), not as the card's schema sees it.

import { InvalidInput } from "../errors.ts";

export interface AskFlags {
  prompt?: string;
  memo?: string;
  type?: string;
  option: string[];
  directive?: string;
  learningSink?: string;
  learningRef?: string;
  proposal?: string;
  context: string[];
  expiresAfter?: string;
  priority?: string;
  recommended?: string;
  whileWaiting?: string;
  irreversible?: boolean;
  task: string[];
  askedBy?: string;
  id?: string;
}

function optionFrom(text: string, index: number): { id: string; label: string } {
  const eq = text.indexOf("=");
  if (eq > 0) return { id: text.slice(0, eq).trim(), label: text.slice(eq + 1).trim() };
  const id = text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
  return { id: id || `option-${index + 1}`, label: text.trim() };
}

/** The flags a card needs, as a person adds them: the flag, its value, and what it is for. */
const NEEDED: [keyof AskFlags, string][] = [
  ["prompt", "--prompt TEXT (the question itself)"],
  ["memo", "--memo TEXT (why you ask)"],
  ["directive", "--directive TEXT (what the answer unblocks)"],
];
const LEARNING: [keyof AskFlags, string][] = [
  ["learningSink", "--learning-sink SINK (guide, briefing or personality)"],
  ["learningRef", "--learning-ref REF (the card the learning is recorded in)"],
  ["proposal", "--proposal TEXT (what the box will learn)"],
];
/** The parts a learning cannot go without; its ref is optional, as in the card (DESIGN.md). */
const LEARNING_NEEDED = new Set<keyof AskFlags>(["learningSink", "proposal"]);

/** Did the caller describe the card with flags (rather than send JSON on stdin)? */
export function usesCardFlags(flags: AskFlags): boolean {
  return [...NEEDED, ...LEARNING].some(([key]) => flags[key]) || flags.option.length > 0;
}

/** Every flag still missing, all at once, each with what to put in it. */
function missingFlags(flags: AskFlags): string[] {
  const missing = NEEDED.filter(([key]) => !flags[key]);
  // The learning is optional, but given at all it needs its sink and its proposal.
  if (LEARNING.some(([key]) => flags[key]))
    missing.push(...LEARNING.filter(([key]) => LEARNING_NEEDED.has(key) && !flags[key]));
  return missing.map(([, flag]) => flag);
}

export function askInputFromFlags(flags: AskFlags): Record<string, unknown> {
  const missing = missingFlags(flags);
  if (missing.length > 0) {
    throw new InvalidInput(
      `ask needs ${missing.slice(0, -1).join(", ")}${missing.length > 1 ? " and " : ""}${missing.at(-1)}: run "qbridge help ask" for every flag`,
    );
  }
  const type = flags.type ?? (flags.option.length > 0 ? "select" : "text");
  const options = flags.option.map(optionFrom);
  const learning =
    flags.learningSink || flags.proposal || flags.learningRef
      ? { sink: flags.learningSink, ref: flags.learningRef, proposal: flags.proposal }
      : undefined;
  const card: Record<string, unknown> = {
    prompt: flags.prompt,
    memo: flags.memo,
    input: options.length > 0 ? { type, options } : { type },
    learning,
    directive: flags.directive,
    ...fieldFlags(flags),
    recommended: recommendedId(flags.recommended, options),
  };
  return JSON.parse(JSON.stringify(card));
}

/**
 * `--recommended` as the person typed it: ids made from labels (`--option "Tax office"`) are
 * not ones they wrote, so a label (any case) stands for its option, and Yes/No for yes/no.
 */
function recommendedId(
  given: string | undefined,
  options: { id: string; label: string }[],
): string | undefined {
  if (given === undefined || options.some((o) => o.id === given)) return given;
  const byLabel = options.find((o) => o.label.toLowerCase() === given.trim().toLowerCase());
  if (byLabel) return byLabel.id;
  return options.length === 0 && /^(yes|no)$/i.test(given.trim())
    ? given.trim().toLowerCase()
    : given;
}

/** The fields set by the flags beyond prompt, memo, input, learning and directive: those given. */
function fieldFlags(flags: AskFlags): Record<string, unknown> {
  const fields: Record<string, unknown> = {
    context: flags.context.length
      ? flags.context.map((c) => {
          const eq = c.indexOf("=");
          return eq > 0 ? { ref: c.slice(0, eq), text: c.slice(eq + 1) } : { ref: c };
        })
      : undefined,
    "expires-after": flags.expiresAfter,
    priority: flags.priority,
    recommended: flags.recommended,
    "while-waiting": flags.whileWaiting,
    irreversible: flags.irreversible,
    tasks: flags.task.length ? flags.task : undefined,
    "asked-by": flags.askedBy,
    id: flags.id,
  };
  return JSON.parse(JSON.stringify(fields));
}

/**
 * A JSON card from standard input with the field flags given beside it (--priority, --id,
 * --asked-by, ...) set on it: a flag is never dropped in silence, and it wins over the card's
 * own value, as a flag on the command line is the later word. `--type` sets the input's type.
 */
export function jsonCardWithFlags(given: unknown, flags: AskFlags): unknown {
  if (!given || typeof given !== "object" || Array.isArray(given)) return given;
  const card = { ...(given as Record<string, unknown>), ...fieldFlags(flags) };
  if (flags.type) {
    const input = card.input;
    card.input =
      input && typeof input === "object" && !Array.isArray(input)
        ? { ...input, type: flags.type }
        : { type: flags.type };
  }
  return card;
}
