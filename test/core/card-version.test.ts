// Story: an agent reads a question (`qbridge show --json`, GET on the API), the card is edited
// (its options swapped), then the agent answers "b". Every answer names the version of the card
// it answers: the CLI with --expect HASH (the `hash` show and list print), the API with If-Match
// on the ETag it read. An answer for the old version is refused; one with no version is refused
// too when a letter or a label could now mean another option, saying what to pass; an option
// id, or the new version, is accepted.

import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { askQuestion } from "../../src/questions/ask.ts";
import { listJobs } from "../../src/questions/state.ts";
import { loadQuestion } from "../../src/questions/store.ts";
import { cleanupBoxes, cliEnv, makeBox, runCli, selectCard, type TestBox } from "../support/box.ts";
import { webFixture } from "../web/web-support.ts";

afterEach(cleanupBoxes);

/** Swaps the two labels on disk, as an editor would: "b" now names Finance (id taxes). */
function swapLabels(box: TestBox, id: string): void {
  const path = join(box.dir, loadQuestion(box, id).rel);
  writeFileSync(
    path,
    readFileSync(path, "utf8")
      .replace("label: Finance", "label: @@")
      .replace("label: Taxes", "label: Finance")
      .replace("label: @@", "label: Taxes"),
  );
}

async function hashOf(box: TestBox, id: string): Promise<string> {
  const shown = await runCli(["show", id, "--json"], { env: cliEnv(box.dir) });
  return (JSON.parse(shown.stdout) as { hash: string }).hash;
}

describe("qbridge answer --expect", () => {
  it("show and list print the card's version as hash", async () => {
    const box = await makeBox();
    const { id } = await askQuestion(box, selectCard());
    const hash = await hashOf(box, id);
    expect(hash).toMatch(/^[A-Za-z0-9_-]{16}$/);
    const listed = await runCli(["list", "--json"], { env: cliEnv(box.dir) });
    const { pending } = JSON.parse(listed.stdout) as { pending: { id: string; hash: string }[] };
    expect(pending.find((q) => q.id === id)?.hash).toBe(hash);
  });

  it("a card edited between show and answer refuses the old hash and an unversioned letter or label, and takes the new hash", async () => {
    const box = await makeBox();
    const { id } = await askQuestion(box, selectCard());
    const before = await hashOf(box, id);
    swapLabels(box, id);

    const stale = await runCli(["answer", id, "b", "--expect", before], { env: cliEnv(box.dir) });
    expect(stale.code).toBe(3);
    expect(stale.stderr).toContain("edited since it was shown");

    for (const words of ["b", "Taxes"]) {
      const unversioned = await runCli(["answer", id, words], { env: cliEnv(box.dir) });
      expect(unversioned.code).toBe(3);
      expect(unversioned.stderr).toContain(`--expect ${await hashOf(box, id)}`);
      expect(unversioned.stderr).toContain("the option's id");
    }
    expect(loadQuestion(box, id).card.status).toBe("pending");
    expect(listJobs(box)).toHaveLength(0);

    const now = await hashOf(box, id);
    expect(now).not.toBe(before);
    const fresh = await runCli(["answer", id, "b", "--expect", now], { env: cliEnv(box.dir) });
    expect(fresh.code).toBe(0);
    expect(loadQuestion(box, id).card.answer).toEqual({ text: "Finance", selected: "taxes" });
  });

  it("an option id is taken without a version on an edited card", async () => {
    const box = await makeBox();
    const { id } = await askQuestion(box, selectCard());
    const path = join(box.dir, loadQuestion(box, id).rel);
    writeFileSync(path, readFileSync(path, "utf8").replace("label: Taxes", "label: Tax office"));
    const byLetter = await runCli(["answer", id, "b"], { env: cliEnv(box.dir) });
    expect(byLetter.code).toBe(3);
    const byId = await runCli(["answer", id, "taxes"], { env: cliEnv(box.dir) });
    expect(byId.code).toBe(0);
    expect(loadQuestion(box, id).card.answer).toMatchObject({ selected: "taxes" });
  });
});

describe("the API's ETag and If-Match", () => {
  it("a card edited between GET and answer: the old ETag is 412, no version is 428 naming If-Match, the new ETag answers", async () => {
    const web = await webFixture();
    const id = await web.ask(selectCard());
    const read = await web.app.request(`/api/v1/questions/${id}`, { headers: web.auth() });
    const etag = read.headers.get("ETag") as string;
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{16}"$/);
    swapLabels(web.box, id);
    const answer = (headers: Record<string, string>, text = "b") =>
      web.app.request(`/api/v1/questions/${id}/answer`, {
        method: "POST",
        headers: { "content-type": "application/json", ...web.auth(), ...headers },
        body: JSON.stringify({ answer: text }),
      });

    const stale = await answer({ "If-Match": etag });
    expect(stale.status).toBe(412);
    const staleBody = (await stale.json()) as { error: { code: string; message: string } };
    expect(staleBody.error.code).toBe("CardChanged");
    expect(staleBody.error.message).toContain("edited since it was shown");

    const unversioned = await answer({});
    expect(unversioned.status).toBe(428);
    const { error } = (await unversioned.json()) as { error: { message: string } };
    expect(error.message).toContain("If-Match");
    expect(loadQuestion(web.box, id).card.status).toBe("pending");

    const again = await web.app.request(`/api/v1/questions/${id}`, { headers: web.auth() });
    const fresh = await answer({ "If-Match": again.headers.get("ETag") as string });
    expect(fresh.status).toBe(200);
    expect(loadQuestion(web.box, id).card.answer).toEqual({ text: "Finance", selected: "taxes" });
  });

  it("an unedited card takes a letter with no version, as before", async () => {
    const web = await webFixture();
    const id = await web.ask(selectCard());
    const res = await web.app.request(`/api/v1/questions/${id}/answer`, {
      method: "POST",
      headers: { "content-type": "application/json", ...web.auth() },
      body: JSON.stringify({ answer: "b" }),
    });
    expect(res.status).toBe(200);
  });
});
