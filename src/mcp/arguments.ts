// A tool's arguments as a strict object: an argument the tool does not know is refused with a
// sentence naming it (and the right spelling when only the spelling differs, as with the
// card's `while-waiting` for `while_waiting`), instead of being dropped without a word and
// leaving the caller sure the owner saw it. For the tools a model calls; request_permission,
// which a coding agent's permission prompt calls with fields of its own, stays lenient.

import { type ZodRawShape, z } from "zod";

function spelledAs(key: string, known: string[]): string | undefined {
  const plain = (name: string) => name.toLowerCase().replace(/[-_\s]/g, "");
  return known.find((name) => plain(name) === plain(key));
}

export function toolArguments<Shape extends ZodRawShape>(shape: Shape) {
  const known = Object.keys(shape);
  return z
    .object(shape, {
      errorMap: (issue, ctx) => {
        if (issue.code !== z.ZodIssueCode.unrecognized_keys) return { message: ctx.defaultError };
        const named = issue.keys.map((key) => {
          const meant = spelledAs(key, known);
          return meant ? `"${key}" (did you mean "${meant}"?)` : `"${key}"`;
        });
        return {
          message: `unknown argument ${named.join(", ")}: the arguments are ${known.join(", ")}; nothing was done`,
        };
      },
    })
    .strict();
}

/** How every tool that takes a question id describes it: the CLI's forms are taken too. */
export const QUESTION_ID =
  "The question id, or a unique beginning of it, or its end (the last 6 characters); 4 characters at least.";
