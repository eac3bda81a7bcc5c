// Story: an MCP server asks, through Claude Code's Elicitation hook, "Delete repository
// acme/prod?", and the agent holds the API token. A question from an agent's hook is answered
// only by the boxholder, on a surface that proves it: the API speaks for agents and answers
// ordinary questions only, so its answer is refused (403) and the question stays pending.

import { afterEach, describe, expect, it } from "vitest";
import { askQuestion } from "../../src/questions/ask.ts";
import { loadQuestion } from "../../src/questions/store.ts";
import { cleanupBoxes, confirmCard } from "../support/box.ts";
import { webFixture } from "./web-support.ts";

afterEach(cleanupBoxes);

describe("the API and a question from an agent's hook", () => {
  it("an elicitation answered over the API is refused with 403 and stays pending", async () => {
    const web = await webFixture();
    const { id } = await askQuestion(
      web.box,
      confirmCard({ prompt: "Delete repository acme/prod?", irreversible: false }),
      { via: "hook", agentPrompt: { kind: "elicitation" } },
    );
    const res = await web.app.request(`/api/v1/questions/${id}/answer`, {
      method: "POST",
      headers: { "content-type": "application/json", ...web.auth() },
      body: JSON.stringify({ answer: "yes" }),
    });
    expect(res.status).toBe(403);
    const body = (await res.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe("NotOwnSurface");
    expect(body.error.message).toContain("answered only by the boxholder");
    expect(loadQuestion(web.box, id).card.status).toBe("pending");
    const rows = web.box.ledger.auditFor(id).filter((row) => row.surface === "api");
    expect(rows.map((row) => row.outcome)).toEqual(["refused:not-own-surface"]);
  });
});
