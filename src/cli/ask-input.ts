// Turning `qbridge ask` flags into the same card object a JSON caller sends.

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

export function askInputFromFlags(flags: AskFlags): Record<string, unknown> {
  const type = flags.type ?? (flags.option.length > 0 ? "select" : "text");
  const learning =
    flags.learningSink || flags.proposal
      ? { sink: flags.learningSink, ref: flags.learningRef, proposal: flags.proposal }
      : undefined;
  const card: Record<string, unknown> = {
    prompt: flags.prompt,
    memo: flags.memo,
    input: flags.option.length > 0 ? { type, options: flags.option.map(optionFrom) } : { type },
    learning,
    directive: flags.directive,
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
  return JSON.parse(JSON.stringify(card));
}

export async function readStdin(): Promise<string> {
  if (process.stdin.isTTY) return "";
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}
