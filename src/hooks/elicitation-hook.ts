// `qbridge hook elicitation`: Claude Code's Elicitation hook. The form (or link) an MCP server
// asks for becomes one question filed through the core as `kind: elicitation` with the form's
// schema on its card; the hook waits and prints accept with the content, decline when the
// boxholder dismissed it, or cancel when nobody answered before the hook ended (the question
// is then withdrawn, so no later answer is taken for one the server still waits on).

import { ElicitRequestFormParamsSchema } from "@modelcontextprotocol/sdk/types.js";
import { InvalidInput } from "../errors.ts";
import { askQuestion } from "../questions/ask.ts";
import type { Core } from "../questions/core.ts";
import { loadQuestion } from "../questions/store.ts";
import { parseElicitationInput } from "./agent-input.ts";
import { elicitationOutput } from "./agent-output.ts";
import { actionOf, elicitationCard } from "./elicitation-question.ts";
import { waitWhileHookLives, withdrawUnlessDecided } from "./hook-wait.ts";
import { hookLifetime } from "./lifetime.ts";

export interface ElicitationHookOptions {
  timeoutSeconds: number;
  print: (value: Record<string, unknown>) => void;
}

/** The form must be MCP's flat form (the SDK's own schema of it), or no question is filed. */
async function checkForm(schema: Record<string, unknown>): Promise<void> {
  const checked = ElicitRequestFormParamsSchema.shape.requestedSchema.safeParse(schema);
  if (!checked.success) {
    const issue = checked.error.issues[0];
    const where = issue?.path.length ? issue.path.join(".") : "requested_schema";
    throw new InvalidInput(
      `the Elicitation hook input's requested_schema is not an MCP form (${where}: ${issue?.message ?? "invalid"}): Claude Code asks at its own screen`,
    );
  }
}

export async function runElicitationHook(
  core: Core,
  text: string,
  options: ElicitationHookOptions,
): Promise<void> {
  const ask = parseElicitationInput(text);
  if (ask.mode === "form" && ask.schema) await checkForm(ask.schema);
  const lifetime = hookLifetime(options.timeoutSeconds);
  try {
    const card = elicitationCard(ask, options.timeoutSeconds);
    const { id } = await askQuestion(core, card, {
      via: "hook",
      agentPrompt: {
        kind: "elicitation",
        requestedSchema: ask.mode === "form" ? ask.schema : undefined,
      },
    });
    const outcome = await waitWhileHookLives(core, id, lifetime);
    const filed = loadQuestion(core, id).card;
    options.print(elicitationOutput(actionOf(ask, outcome, filed)));
    if (outcome.status === "dismissed") {
      await withdrawUnlessDecided(core, id, "dismissed on the phone: the server was told no");
    }
  } finally {
    lifetime.dispose();
  }
}
