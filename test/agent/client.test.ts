// The client for Node agents (`question-bridge/client`) against a real web server over a box:
// asking (the same open prompt once), reading, waiting through long polls until the owner
// answers or the timeout leaves it pending, and the API's errors as named errors.

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from "vitest";
import {
  type QuestionOutcome as ClientOutcome,
  QuestionBridge,
  QuestionBridgeError,
  type SimilarAnswer,
} from "../../src/client/index.ts";
import { loadConfig } from "../../src/config.ts";
import { answerQuestion } from "../../src/questions/answer.ts";
import type { QuestionOutcome as CoreOutcome } from "../../src/questions/outcome.ts";
import type { SimilarQuestion } from "../../src/questions/similar.ts";
import { type RunningWeb, startWeb } from "../../src/web/server.ts";
import { cleanupBoxes, confirmCard, makeBox, ROOT, type TestBox } from "../support/box.ts";

const TOKEN = "client-test-token-0123456789";

let box: TestBox;
let web: RunningWeb;
let qb: QuestionBridge;

beforeAll(async () => {
  box = await makeBox();
  const config = loadConfig({ QBRIDGE_WEB_PORT: "0", QBRIDGE_API_TOKEN: TOKEN }, { box: box.dir });
  web = await startWeb({ core: box, config });
  qb = new QuestionBridge({ url: web.url, token: TOKEN });
});
afterAll(async () => {
  await web?.close();
  cleanupBoxes();
});

const question = (prompt: string) =>
  confirmCard({ prompt }) as unknown as Parameters<QuestionBridge["ask"]>[0];

describe("the client", () => {
  it("asks once: the same open prompt asked again gives the same question", async () => {
    const first = await qb.ask(question("May I rotate the API keys tonight?"));
    const again = await qb.ask(question("May I rotate the API keys tonight?"));
    expect(first.deduplicated).toBe(false);
    expect(again).toMatchObject({ id: first.id, deduplicated: true });
    // The advice of the API's ask response comes along (docs/AGENTS.md, Answer memory).
    expect(again).toEqual({
      id: first.id,
      deduplicated: true,
      expectedWaitSeconds: null,
      hint: null,
      similar: [],
    });
    expect(await qb.get(first.id)).toMatchObject({ id: first.id, status: "pending", late: false });
  });

  it("waits until the owner answers and returns the answered outcome", async () => {
    const { id } = await qb.ask(question("May I archive last year's mail?"));
    const waiting = qb.wait(id, { timeoutSeconds: 20 });
    await answerQuestion(box, id, { text: "yes", note: "keep the receipts" }, { via: "cli" });
    const outcome = await waiting;
    expect(outcome).toMatchObject({
      id,
      status: "answered",
      answer: { text: "Yes", selected: "yes", note: "keep the receipts" },
      answeredVia: "cli",
    });
    expect(outcome).not.toHaveProperty("card");
  });

  it("a wait whose timeout passes returns pending, not an error", async () => {
    const { id } = await qb.ask(question("May I upgrade the database?"));
    expect(await qb.wait(id, { timeoutSeconds: 1 })).toMatchObject({ id, status: "pending" });
  });

  it("withdraws a question; withdrawing it again is refused naming its status", async () => {
    const { id } = await qb.ask(question("May I move the meeting notes?"));
    const outcome = await qb.withdraw(id, { reason: "the notes were moved by hand" });
    expect(outcome).toMatchObject({ id, status: "withdrawn" });
    expect(await qb.wait(id)).toMatchObject({ id, status: "withdrawn" });
    await expect(qb.withdraw(id)).rejects.toMatchObject({
      status: 409,
      code: "TransitionRejected",
      current: "withdrawn",
    });
  });

  it("reads the follow-up job the answer wrote, as qbridge jobs --json lists it; none before the answer", async () => {
    const { id } = await qb.ask({
      ...question("May I move the receipts to finance?"),
      learning: { sink: "guide", proposal: "Receipts go to finance." },
    });
    await expect(qb.job(id)).rejects.toMatchObject({
      status: 404,
      code: "JobNotFound",
      message: expect.stringContaining("it is pending"),
    });
    await answerQuestion(box, id, { text: "yes" }, { via: "telegram", by: "42" });
    const { jobRel } = await qb.get(id);
    const found = await qb.job(id);
    expect(found.rel).toBe(jobRel);
    expect(found.job).toMatchObject({
      type: "question-followup",
      status: "pending",
      "question-id": id,
      answer: { text: "Yes", selected: "yes" },
      learning: { sink: "guide", proposal: "Receipts go to finance." },
    });
    expect(found.instructions).toContain(`POST /api/v1/questions/${id}/job/done`);
    expect(await qb.jobDone(id)).toMatchObject({ id, rel: jobRel, commit: expect.any(String) });
    expect((await qb.job(id)).job.status).toBe("done");
    expect(await qb.jobDone(id)).toMatchObject({ id, commit: null });
    await expect(qb.job("no-such-question")).rejects.toMatchObject({ code: "QuestionNotFound" });
  });

  it("the API's errors arrive as QuestionBridgeError with status, code and sentence", async () => {
    const missing = await qb.get("no-such-question").catch((error: unknown) => error);
    expect(missing).toBeInstanceOf(QuestionBridgeError);
    expect(missing).toMatchObject({ status: 404, code: "QuestionNotFound" });
    const callback = { ...question("May I tell you by webhook?"), callback: "https://a.example/x" };
    await expect(qb.ask(callback)).rejects.toMatchObject({
      status: 422,
      message: expect.stringContaining("QBRIDGE_WEBHOOK_SECRET"),
    });
    const stranger = new QuestionBridge({ url: web.url, token: "wrong-token-0123456789" });
    await expect(stranger.get("x")).rejects.toMatchObject({ status: 401, code: "Unauthorized" });
    const nobody = new QuestionBridge({ url: "http://127.0.0.1:9", token: TOKEN });
    await expect(nobody.get("x")).rejects.toMatchObject({ code: "Unreachable" });
  });

  it("a wait the caller aborts rejects with the signal's reason, never as an unreachable server", async () => {
    const { id } = await qb.ask(question("May I reboot the router?"));
    const gaveUp = new AbortController();
    const waiting = qb.wait(id, { signal: gaveUp.signal }).catch((error: unknown) => error);
    const reason = new Error("the agent is shutting down");
    gaveUp.abort(reason);
    expect(await waiting).toBe(reason);
    const late = await qb.get(id, { signal: AbortSignal.abort() }).catch((e: unknown) => e);
    expect(late).toMatchObject({ name: "AbortError" });
    expect(late).not.toBeInstanceOf(QuestionBridgeError);
  });

  it("a timeoutSeconds that is not a number of seconds is refused before any request", async () => {
    const { id } = await qb.ask(question("May I reboot the printer?"));
    await expect(qb.wait(id, { timeoutSeconds: Number.NaN })).rejects.toMatchObject({
      name: "QuestionBridgeError",
      code: "BadOptions",
      message: expect.stringContaining("timeoutSeconds"),
    });
  });

  it("ask gives the answered questions like the new one, as the API's ask response does", async () => {
    const { id } = await qb.ask(question("May I prune the docker images on the build host?"));
    await answerQuestion(box, id, { text: "yes" }, { via: "cli" });
    const asked = await qb.ask({
      ...question("May I prune the docker images on the build host now?"),
    });
    expect(asked.similar).toEqual([
      expect.objectContaining({ id, prompt: "May I prune the docker images on the build host?" }),
    ]);
    expect(asked.similar[0]?.answer).toBe("Yes");
  });

  it("speaks the core's outcome type and imports nothing at run time", () => {
    expectTypeOf<ClientOutcome>().toEqualTypeOf<CoreOutcome>();
    expectTypeOf<SimilarAnswer>().toEqualTypeOf<SimilarQuestion>();
    for (const file of ["index.ts", "outcome.ts"]) {
      const text = readFileSync(join(ROOT, "src/client", file), "utf8");
      const imports = text.match(/^(import|export) .* from .*$/gm) ?? [];
      expect(imports.every((line) => /^(import|export) type /.test(line))).toBe(true);
    }
  });
});
