// The check an answer to an elicitation passes before it is recorded: the form's content it
// gives (src/card/elicitation.ts) must satisfy the form's schema, as the MCP server would
// check it. The validator is built on the first form answered, never in a process that
// answers none. Only MCP's form is checked (form-schema.ts): a keyword the form cannot hold, a
// `pattern` above all, never reaches the validator, even on a card filed before that rule or
// edited by hand, so no answer can hold `serve` in a regular expression.
// It never records anything: a content that fails is an InvalidAnswer naming, in the form's
// words, what was given and what is wrong (src/card/form-words.ts).

import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import { formContent, formFields } from "../card/elicitation.ts";
import { formAnswerLine, refusalWords } from "../card/form-words.ts";
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
  if (formFields(schema).length > 1 && !isJsonObject(answer.text)) {
    // Words that are no form's values would give empty content, which a form whose every
    // field is optional accepts: a "no" typed in reply must never reach the server as accept.
    throw new InvalidAnswer(
      answer.text.slice(0, 200),
      "the form's values: fill in the form on the web page (or reply with the JSON object of the values); Dismiss declines",
    );
  }
  validator ??= new AjvJsonSchemaValidator();
  const content = formContent(card, answer);
  const result = validator.getValidator(schema as Parameters<typeof validator.getValidator>[0])(
    content,
  );
  if (!result.valid) {
    const given = formAnswerLine(card, answer) ?? answer.text;
    const reason = refusalWords(schema, result.errorMessage);
    throw new InvalidAnswer(given.slice(0, 200), `an answer the form accepts (${reason})`);
  }
}

function isJsonObject(text: string): boolean {
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === "object" && !Array.isArray(value);
  } catch {
    return false;
  }
}
