// The check an answer to an elicitation passes before it is recorded: the form's content it
// gives (src/card/elicitation.ts) must satisfy the form's schema, as the MCP server would
// check it. The validator (ajv, large) is loaded and built on the first form answered, never
// in a process that answers none. Only MCP's form is checked (form-schema.ts): a keyword the
// form cannot hold, a `pattern` above all, never reaches the validator, even on a card filed
// before that rule or edited by hand, so no answer can hold `serve` in a regular expression.
// It never records anything: a content that fails is an InvalidAnswer naming what is wrong.

import { createRequire } from "node:module";
import type { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import { formContent } from "../card/elicitation.ts";
import type { Answer, Question } from "../card/question.ts";
import { InvalidAnswer } from "../errors.ts";
import { mcpFormSchema } from "./form-schema.ts";

const load = createRequire(import.meta.url);
let validator: AjvJsonSchemaValidator | undefined;

function newValidator(): AjvJsonSchemaValidator {
  const ajv = load(
    "@modelcontextprotocol/sdk/validation/ajv",
  ) as typeof import("@modelcontextprotocol/sdk/validation/ajv");
  return new ajv.AjvJsonSchemaValidator();
}

/** Throws InvalidAnswer when the answer's content does not fit the card's requested schema. */
export function checkFields(card: Question, answer: Answer): void {
  const given = card["requested-schema"];
  if (!given) return;
  const form = mcpFormSchema(given);
  if (!form.ok) {
    throw new InvalidAnswer(
      answer.text.slice(0, 200),
      `a form this card's schema cannot give (${form.where}: ${form.problem}): answer it at the agent's screen`,
    );
  }
  const schema = form.schema;
  validator ??= newValidator();
  const content = formContent(card, answer);
  const result = validator.getValidator(schema as Parameters<typeof validator.getValidator>[0])(
    content,
  );
  if (!result.valid) {
    const reason = result.errorMessage
      .replace(/^data\/?/, "")
      .replace(/, data\/?/g, ", ")
      .trim();
    throw new InvalidAnswer(answer.text.slice(0, 200), `an answer the form accepts (${reason})`);
  }
}
