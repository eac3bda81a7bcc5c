// The documented hook inputs of fixtures/ (each citing its page in fixtures/README.md) as the
// pure agent modules take them: the whole input as text, or its parts as parsed JSON. Light on
// purpose: a unit test reads them without the hook harness.

import { readFileSync } from "node:fs";
import { join } from "node:path";

const FIXTURES = join(import.meta.dirname, "fixtures");

/** A documented hook input, as the agent writes it on the hook's standard input. */
export function fixtureText(name: string): string {
  return readFileSync(join(FIXTURES, `${name}.json`), "utf8");
}

/** A documented hook input, parsed. */
export function fixtureInput(name: string): Record<string, unknown> {
  return JSON.parse(fixtureText(name)) as Record<string, unknown>;
}

/** The `tool_input` of a documented PermissionRequest input. */
export function toolInputOf(name: string): Record<string, unknown> {
  return fixtureInput(name).tool_input as Record<string, unknown>;
}
