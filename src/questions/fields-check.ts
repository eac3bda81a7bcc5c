// The check an answer to an elicitation passes before it is recorded: the form's content it
// gives (src/card/elicitation.ts) must satisfy the form's schema, as the MCP server would
// check it. The validator is built on the first form answered, never in a process that
// answers none. Only MCP's form is checked (form-schema.ts): a keyword the form cannot hold, a
// `pattern` above all, never reaches the validator, even on a card filed before that rule or
// edited by hand, so no answer can hold `serve` in a regular expression.
// It never records anything: a content that fails is an InvalidAnswer naming what is wrong.

import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import { formContent } from "../card/elicitation.ts";
import type { Answer, Question } from "../card/question.ts";
import { InvalidAnswer } from "../errors.ts";
import { mcpFormSchema } from "./form-schema.ts";

let validator: AjvJsonSchemaValidator | undefined;

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
  validator ??= new AjvJsonSchemaValidator();
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
