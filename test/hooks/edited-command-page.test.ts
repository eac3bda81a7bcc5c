// Story: on the web page the boxholder picks "Allow an edited command" of an agent's permission
// request but writes only a note. The note is never taken for the command: the page asks for
// the command in one sentence and nothing is recorded; with the command typed in its own field,
// the agent gets that command, and the note stays a note.

import { afterEach, describe, expect, it } from "vitest";
import { OTHER_OPTION } from "../../src/card/question.ts";
import { loadQuestion } from "../../src/questions/store.ts";
import { cleanupBoxes } from "../support/box.ts";
import { formTokenIn, postForm, webFixture } from "../web/web-support.ts";
import { filedQuestion, fixture, permissionHookInProcess } from "./hook-support.ts";

afterEach(cleanupBoxes);

describe("Allow an edited command on the web page", () => {
  it("with only a note asks for the command and records nothing; with the command, allows that", async () => {
    const web = await webFixture();
    const hook = permissionHookInProcess(web.box, fixture("claude-permission-bash"));
    const { id } = await filedQuestion(web.box);
    const link = web.link(id);
    const form = formTokenIn(await (await web.app.request(link)).text());

    const noteOnly = { form, action: "answer", choice: OTHER_OPTION, note: "rm -rf ~" };
    const refused = await (await postForm(web.app, link, noteOnly)).text();
    expect(refused).toContain(
      "Type the command next to “Allow an edited command” (a note is not taken for it); nothing was recorded.",
    );
    expect(loadQuestion(web.box, id).card.status).toBe("pending");

    const command = "rm -rf node_modules/.cache";
    const fields = { ...noteOnly, other: command, note: "only the cache" };
    expect((await postForm(web.app, link, fields)).status).toBe(303);
    expect((await hook.done)?.hookSpecificOutput).toMatchObject({
      decision: { behavior: "allow", updatedInput: { command } },
    });
  });
});
