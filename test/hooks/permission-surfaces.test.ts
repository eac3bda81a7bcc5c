// Story: a coding agent's permission request waits in the box. Only the boxholder decides it, on
// their own surfaces (Telegram, qbridge chat, the signed web page): the API and the CLI, whose
// tokens and shells agents hold too, are refused and change nothing; bulk triage never lists
// it; and a look-alike question an asker files is never taken for the agent's request.

import { afterEach, describe, expect, it } from "vitest";
import { answerQuestion } from "../../src/questions/answer.ts";
import { askQuestion } from "../../src/questions/ask.ts";
import { askPermission } from "../../src/questions/ask-permission.ts";
import { pendingQuestions } from "../../src/questions/state.ts";
import { loadQuestion } from "../../src/questions/store.ts";
import { triageDigest } from "../../src/slot/triage/triage.ts";
import {
  type CliResult,
  cleanupBoxes,
  cliEnv,
  confirmCard,
  makeBox,
  runCli,
  type TestBox,
} from "../support/box.ts";
import { webFixture } from "../web/web-support.ts";

afterEach(cleanupBoxes);

const REQUEST = {
  agent: "claude",
  sessionId: "s-1",
  tool: "Bash",
  input: { command: "rm -rf ~/projects" },
};
const CARD = confirmCard({
  prompt: "Allow Bash: rm -rf ~/projects?",
  memo: "Claude Code asks to run a command in ~/work.",
  recommended: "yes",
  irreversible: false,
});

async function permissionIn(box: TestBox): Promise<string> {
  return (await askPermission(box, CARD, REQUEST, "hook")).id;
}

describe("a permission request is answered only on the boxholder's own surfaces", () => {
  it("the API refuses it with 403 and one sentence, and the card stays pending", async () => {
    const web = await webFixture();
    const id = await permissionIn(web.box);
    const res = await web.app.request(`/api/v1/questions/${id}/answer`, {
      method: "POST",
      headers: { "content-type": "application/json", ...web.auth() },
      body: JSON.stringify({ answer: "yes" }),
    });
    expect(res.status).toBe(403);
    const body = (await res.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe("NotOwnSurface");
    expect(body.error.message).toMatch(
      /answered only by the boxholder, on Telegram, in qbridge chat or on its signed web page, not through api/,
    );
    expect(loadQuestion(web.box, id).card.status).toBe("pending");
  });

  it("qbridge answer exits 1 saying where to answer, and the card stays pending", async () => {
    const box = await makeBox();
    const id = await permissionIn(box);
    const result: CliResult = await runCli(["answer", id, "yes"], { env: cliEnv(box.dir) });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /answered only by the boxholder, on Telegram, in qbridge chat or on its signed web page, not through cli/,
    );
    expect(loadQuestion(box, id).card.status).toBe("pending");
  });

  it("neither the API nor qbridge dismiss sets it aside: the agent would be told the owner did", async () => {
    const web = await webFixture();
    const id = await permissionIn(web.box);
    const res = await web.app.request(`/api/v1/questions/${id}/dismiss`, {
      method: "POST",
      headers: { "content-type": "application/json", ...web.auth() },
      body: JSON.stringify({}),
    });
    expect(res.status).toBe(403);
    const body = (await res.json()) as { error: { code: string } };
    expect(body.error.code).toBe("NotOwnSurface");
    expect(loadQuestion(web.box, id).card.status).toBe("pending");

    const box = await makeBox();
    const other = await permissionIn(box);
    const result = await runCli(["dismiss", other], { env: cliEnv(box.dir) });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/only by the boxholder, .* not through cli/);
    expect(loadQuestion(box, other).card.status).toBe("pending");
  });

  it("Telegram, the terminal chat and the web page answer it", async () => {
    for (const via of ["telegram", "terminal", "web"]) {
      const box = await makeBox();
      const id = await permissionIn(box);
      const result = await answerQuestion(box, id, { text: "yes" }, { via });
      expect(result.answer).toMatchObject({ selected: "yes" });
      expect(loadQuestion(box, id).card["answered-via"]).toBe(via);
    }
  });

  it("bulk triage never lists it, beside an ordinary question it does list", async () => {
    const box = await makeBox();
    const permission = await permissionIn(box);
    const ordinary = [];
    for (const n of [1, 2, 3, 4]) {
      ordinary.push(
        (await askQuestion(box, confirmCard({ prompt: `Keep backup ${n}?`, recommended: "yes" })))
          .id,
      );
    }
    const digest = triageDigest(pendingQuestions(box).pending);
    expect(digest?.lines.map((l) => l.id)).toContain(permission);
    expect(digest?.offer.map((o) => o.id).sort()).toEqual(ordinary.sort());
  });

  it("a look-alike question filed by an asker is never reused for the agent's request", async () => {
    const box = await makeBox();
    const decoy = (await askQuestion(box, CARD)).id;
    const filed = await permissionIn(box);
    expect(filed).not.toBe(decoy);
    expect(loadQuestion(box, filed).card.kind).toBe("permission");
    expect(loadQuestion(box, decoy).card.kind).toBeUndefined();
    // The same request again waits on the agent's own question, not on the decoy.
    expect((await askPermission(box, CARD, REQUEST, "hook")).id).toBe(filed);
  });
});
