// `qbridge hook elicitation`: Claude Code's Elicitation hook. The form (or link) an MCP server
// asks for becomes one question filed through the core as `kind: elicitation` with the form's
// schema on its card; the hook waits and prints accept with the content, decline when the
// boxholder dismissed it, or cancel when nobody answered before the hook ended (the question
// is then withdrawn, so no later answer is taken for one the server still waits on). Nothing
// is filed when nobody can be reached; what is filed is filed under the hook's lease
// (filing.ts).

import { InvalidInput } from "../errors.ts";
import { askQuestion } from "../questions/ask.ts";
import type { Core } from "../questions/core.ts";
import { mcpFormSchema } from "../questions/form-schema.ts";
import { loadQuestion } from "../questions/store.ts";
import { parseElicitationInput } from "./agent-input.ts";
import { elicitationOutput } from "./agent-output.ts";
import { actionOf, elicitationCard } from "./elicitation-question.ts";
import { fileUnderLease } from "./filing.ts";
import { waitWhileHookLives, withdrawUnlessDecided } from "./hook-wait.ts";
import type { HookLifetime } from "./lifetime.ts";

export interface ElicitationHookOptions {
  timeoutSeconds: number;
  /** The hook process's life: its end (a signal, the agent gone, the timeout) withdraws. */
  lifetime: HookLifetime;
  print: (value: Record<string, unknown>) => void;
  /** Writes one line on standard error (why nothing was filed). */
  tell: (line: string) => void;
}

/**
 * The form as MCP's flat form (the SDK's own schema of it) and the keywords left out of it, or
 * no question is filed.
 */
function checkedForm(schema: Record<string, unknown>): {
  schema: Record<string, unknown>;
  dropped: string[];
} {
  const form = mcpFormSchema(schema);
  if (!form.ok) {
    throw new InvalidInput(
      `the Elicitation hook input's requested_schema is not an MCP form (${form.where}: ${form.problem}): Claude Code asks at its own screen`,
    );
  }
  return form;
}

export async function runElicitationHook(
  core: Core,
  text: string,
  options: ElicitationHookOptions,
): Promise<void> {
  const given = parseElicitationInput(text);
  const form = given.mode === "form" && given.schema ? checkedForm(given.schema) : undefined;
  const ask = form ? { ...given, schema: form.schema } : given;
  const card = elicitationCard(ask, options.timeoutSeconds, form?.dropped);
  const agentPrompt = {
    kind: "elicitation" as const,
    requestedSchema: ask.mode === "form" ? ask.schema : undefined,
  };
  const filed = await fileUnderLease(
    core,
    options.lifetime,
    "Claude Code",
    (meanwhile) => askQuestion(core, card, { via: "hook", agentPrompt, meanwhile }),
    options.tell,
  );
  if (!filed) return;
  const { id, lease } = filed;
  const outcome = await waitWhileHookLives(core, id, options.lifetime);
  const question = loadQuestion(core, id).card;
  options.print(elicitationOutput(actionOf(ask, outcome, question)));
  if (outcome.status === "dismissed") {
    await withdrawUnlessDecided(core, id, "dismissed on the phone: the server was told no");
  }
  await lease.release();
}
