// An MCP form's schema cut to what MCP's elicitation form may hold: flat fields of the kinds
// the specification lists (string with minLength, maxLength and one of four formats; number
// and integer with minimum and maximum; boolean; single and multiple choice), each with title,
// description and default, as the MCP SDK's own schema of the form reads them. Any other
// keyword (a `pattern`, `additionalProperties`, `$schema`, an `x-` extension) is left out and
// named, so the card says what qbridge does not check. Pure reading: nothing is written.
//
// `pattern` is never run here: MCP's form has none, and a pattern written by whoever wrote the
// server, run by a backtracking engine inside `serve`, could hold the whole service (its health
// probe, every tap) for minutes on one answer. The server checks its own rules on the content.

import { ElicitRequestFormParamsSchema } from "@modelcontextprotocol/sdk/types.js";

type Schema = Record<string, unknown>;

export type FormSchema =
  | { ok: true; schema: Schema; dropped: string[] }
  | { ok: false; where: string; problem: string };

function sdkFormSchema() {
  return ElicitRequestFormParamsSchema.shape.requestedSchema;
}

let formSchema: ReturnType<typeof sdkFormSchema> | undefined;

/** The keywords of `given` that `kept` left out, named by their place ("name.pattern"). */
function droppedKeys(given: unknown, kept: unknown, at: string): string[] {
  if (given === null || typeof given !== "object" || Array.isArray(given)) return [];
  const keep = (kept ?? {}) as Schema;
  return Object.entries(given as Schema).flatMap(([key, value]) => {
    const place = at ? `${at}.${key}` : key;
    if (!(key in keep)) return [place];
    return key === "properties" || at.startsWith("properties")
      ? droppedKeys(value, keep[key], place)
      : [];
  });
}

/** The schema as MCP's form, with the keywords left out; or why it is no MCP form at all. */
export function mcpFormSchema(schema: Schema): FormSchema {
  formSchema ??= sdkFormSchema();
  const checked = formSchema.safeParse(schema);
  if (!checked.success) {
    const issue = checked.error.issues[0];
    return {
      ok: false,
      where: issue?.path.length ? issue.path.join(".") : "requested_schema",
      problem: issue?.message ?? "invalid",
    };
  }
  const kept = checked.data as Schema;
  const dropped = droppedKeys(schema, kept, "").map((place) => place.replace(/^properties\./, ""));
  return { ok: true, schema: kept, dropped };
}
