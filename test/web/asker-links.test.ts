// Story: an agent holds the API token (or runs MCP, or the CLI) and is handed a signed link to
// the page of its own permission request. Links handed to askers show and never answer: the
// page shows the question with no form and no action, a post with the link changes nothing
// (403, one sentence), and the pages reached from it show only too. The boxholder's own link
// (the one a bridge sends) still answers.

import { afterEach, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config.ts";
import { serveMcp } from "../../src/mcp/http.ts";
import { askPermission } from "../../src/questions/ask-permission.ts";
import { loadQuestion } from "../../src/questions/store.ts";
import { createWebApp } from "../../src/web/app.ts";
import { loadSecret } from "../../src/web/links.ts";
import { startWeb } from "../../src/web/server.ts";
import { connectHttp } from "../agent/agent-support.ts";
import {
  cleanupBoxes,
  cliEnv,
  confirmCard,
  makeBox,
  runCli,
  type TestBox,
} from "../support/box.ts";
import { API_TOKEN, postForm, resolvedIn } from "./web-support.ts";

afterEach(cleanupBoxes);

const PUBLIC = "https://q.example.org";
const REQUEST = { agent: "claude", sessionId: "s-1", tool: "Bash", input: { command: "rm -rf ~" } };

async function permissionIn(box: TestBox): Promise<string> {
  const card = confirmCard({ prompt: "Allow Bash: rm -rf ~?", irreversible: false });
  return (await askPermission(box, card, REQUEST, "hook")).id;
}

function appOn(box: TestBox) {
  const config = loadConfig(
    { QBRIDGE_API_TOKEN: API_TOKEN, QBRIDGE_PUBLIC_URL: PUBLIC, QBRIDGE_WEB_PORT: "0" },
    { box: box.dir },
  );
  return createWebApp({ core: box, config, secret: loadSecret(box.box) });
}

const auth = { Authorization: `Bearer ${API_TOKEN}` };

/** The form token a page carries, or none when it has no form. */
const formTokenOf = (page: string) => /name="form" value="([^"]+)"/.exec(page)?.[1] ?? "none";

/** A permission request in a new box, its web app, and the asker's link the API gives for it. */
async function askerLinkOfPermission() {
  const box = await makeBox();
  const id = await permissionIn(box);
  const app = appOn(box);
  const outcome = (await (
    await app.request(`/api/v1/questions/${id}`, { headers: auth })
  ).json()) as { link: string };
  return { box, id, app, path: outcome.link.replace(PUBLIC, "") };
}

describe("a link handed to an asker", () => {
  it("with an option chosen in the address (an e-mail button's) says nothing of tapping a form it does not have", async () => {
    const { app, path } = await askerLinkOfPermission();
    const page = await (await app.request(`${path}&pick=yes`)).text();
    expect(page).toContain("Allow Bash: rm -rf ~?");
    expect(page).not.toContain("<form");
    expect(page).not.toContain("You chose");
  });

  it("from the API opens the question with no form and no action", async () => {
    const { app, path } = await askerLinkOfPermission();
    const page = await (await app.request(path)).text();
    expect(page).toContain("Allow Bash: rm -rf ~?");
    expect(page).not.toContain("<form");
    expect(page).toContain("shows this question only");
  });

  it("posted to, changes nothing: 403 in one sentence, the request still pending", async () => {
    const { box, id, app, path } = await askerLinkOfPermission();
    const page = await (await app.request(path)).text();
    const posts: Record<string, string>[] = [
      { action: "answer", choice: "yes" },
      { action: "dismiss" },
      { action: "extend" },
    ];
    for (const fields of posts) {
      const res = await postForm(app, path, { form: formTokenOf(page), ...fields });
      expect(res.status).toBe(403);
      expect(await res.text()).toContain(
        "This link shows the question only and answers nothing: nothing was changed.",
      );
    }
    expect(loadQuestion(box, id).card.status).toBe("pending");
  });

  it("the pages reached from it (next question, all questions) show only too", async () => {
    const { box, id, app, path } = await askerLinkOfPermission();
    const page = await (await app.request(path)).text();
    const all = /href="([^"]*questions\?s=[^"]+)"/.exec(page)?.[1] as string;
    const listPath = resolvedIn(path, all);
    const list = await (await app.request(listPath)).text();
    expect(list).toContain("Allow Bash: rm -rf ~?");
    expect(list).not.toContain("<form");
    const into = /href="(q\/[^"]+)"/.exec(list)?.[1] as string;
    const again = await (await app.request(resolvedIn(listPath, into))).text();
    expect(again).toContain("Allow Bash: rm -rf ~?");
    expect(again).not.toContain("<form");
    const triage = listPath.replace("/questions?", "/questions/triage?");
    for (const target of [triage, resolvedIn(listPath, into)]) {
      const res = await postForm(app, target, { form: "none", action: "dismiss" });
      expect(res.status).toBe(403);
    }
    expect(loadQuestion(box, id).card.status).toBe("pending");
  });

  it("from MCP over /mcp opens the question with no form", async () => {
    const box = await makeBox();
    const id = await permissionIn(box);
    const config = loadConfig(
      { QBRIDGE_API_TOKEN: API_TOKEN, QBRIDGE_PUBLIC_URL: PUBLIC, QBRIDGE_WEB_PORT: "0" },
      { box: box.dir },
    );
    const web = await startWeb({ core: box, config, mcp: serveMcp });
    const client = await connectHttp(web.url, API_TOKEN);
    try {
      const result = await client.callTool({ name: "get_answer", arguments: { id } });
      const { link } = result.structuredContent as { link: string };
      const page = await (await fetch(link.replace(PUBLIC, web.url))).text();
      expect(page).toContain("Allow Bash: rm -rf ~?");
      expect(page).not.toContain("<form");
    } finally {
      await client.close();
      await web.close();
    }
  });

  it("from qbridge show --json opens the question with no form", async () => {
    const box = await makeBox();
    const id = await permissionIn(box);
    const shown = await runCli(["show", id, "--json"], {
      env: { ...cliEnv(box.dir), QBRIDGE_PUBLIC_URL: PUBLIC },
    });
    const { link } = JSON.parse(shown.stdout) as { link: string };
    const page = await (await appOn(box).request(link.replace(PUBLIC, ""))).text();
    expect(page).toContain("Allow Bash: rm -rf ~?");
    expect(page).not.toContain("<form");
  });
});
