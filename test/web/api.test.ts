// An agent uses the JSON API: it asks, lists, reads, answers and dismisses with a bearer
// token, through the same core as the CLI, and every refusal is `{error: {code, message}}`.

import { afterEach, describe, expect, it } from "vitest";
import { loadQuestion } from "../../src/questions/store.ts";
import { cleanupBoxes, confirmCard, gitLog, selectCard, textCard } from "../support/box.ts";
import { API_TOKEN, webFixture } from "./web-support.ts";

afterEach(cleanupBoxes);

type Web = Awaited<ReturnType<typeof webFixture>>;

function call(web: Web, method: string, path: string, body?: unknown, headers = web.auth()) {
  return web.app.request(`/api/v1${path}`, {
    method,
    headers: { "content-type": "application/json", ...headers },
    ...(body === undefined ? {} : { body: typeof body === "string" ? body : JSON.stringify(body) }),
  });
}

describe("asking through the API", () => {
  it("files a question and answers 201 with the card", async () => {
    const web = await webFixture();
    const res = await call(web, "POST", "/questions", selectCard({ "asked-by": "sorter" }));
    expect(res.status).toBe(201);
    const body = await res.json();
    expect(body.deduplicated).toBe(false);
    expect(body.card.status).toBe("pending");
    expect(body.card["asked-at"]).toBe("2026-07-10T09:00:00Z");
    expect(res.headers.get("location")).toBe(`/api/v1/questions/${body.id}`);
    expect(loadQuestion(web.box, body.id).card.prompt).toBe(
      "Where do photographed receipts belong?",
    );
  });

  it("with unless_open answers 200 with the open question's id and files nothing", async () => {
    const web = await webFixture();
    const first = await (await call(web, "POST", "/questions", selectCard())).json();
    const commits = (await gitLog(web.box.dir)).length;
    const res = await call(web, "POST", "/questions?unless_open=true", selectCard());
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ id: first.id, deduplicated: true });
    const again = await call(web, "POST", "/questions", { ...selectCard(), unless_open: true });
    expect(again.status).toBe(200);
    expect(await again.json()).toMatchObject({ id: first.id, deduplicated: true });
    expect(await gitLog(web.box.dir)).toHaveLength(commits);
  });

  it("refuses a card that breaks the schema with a 422 naming the field", async () => {
    const web = await webFixture();
    const res = await call(
      web,
      "POST",
      "/questions",
      selectCard({ input: { type: "select", options: [{ id: "a", label: "A" }] } }),
    );
    expect(res.status).toBe(422);
    const body = await res.json();
    expect(body.error.code).toBe("InvalidInput");
    expect(body.error.message).toContain("a select question needs at least 2 options");
  });

  it("refuses a body that is not JSON with a 400", async () => {
    const web = await webFixture();
    const res = await call(web, "POST", "/questions", "{not json");
    expect(res.status).toBe(400);
    expect((await res.json()).error.code).toBe("MalformedJson");
  });

  it("refuses a 1 MiB body with a 413 and files nothing", async () => {
    const web = await webFixture();
    const commits = (await gitLog(web.box.dir)).length;
    const res = await call(
      web,
      "POST",
      "/questions",
      selectCard({ memo: "x".repeat(1024 * 1024) }),
    );
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({
      error: { code: "BodyTooLarge", message: "the body is over the 64 KiB limit" },
    });
    expect(await gitLog(web.box.dir)).toHaveLength(commits);
  });
});

describe("reading through the API", () => {
  it("lists pending questions by default and any status on request", async () => {
    const web = await webFixture();
    const a = await web.ask(selectCard());
    const b = await web.ask(confirmCard());
    await call(web, "POST", `/questions/${b}/dismiss`);
    const pending = await (await call(web, "GET", "/questions")).json();
    expect(pending.questions.map((q: { id: string }) => q.id)).toEqual([a]);
    const dismissed = await (await call(web, "GET", "/questions?status=dismissed")).json();
    expect(dismissed.questions.map((q: { id: string }) => q.id)).toEqual([b]);
    const all = await (await call(web, "GET", "/questions?status=all")).json();
    expect(all.questions.map((q: { id: string }) => q.id)).toEqual([a, b]);
  });

  it("refuses an unknown status with a 400", async () => {
    const web = await webFixture();
    const res = await call(web, "GET", "/questions?status=closed");
    expect(res.status).toBe(400);
    expect((await res.json()).error.code).toBe("BadStatus");
  });

  it("reads one question by id", async () => {
    const web = await webFixture();
    const id = await web.ask(textCard());
    const res = await call(web, "GET", `/questions/${id}`);
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.id).toBe(id);
    expect(body.card.input).toEqual({ type: "text" });
  });

  it("answers 404 for a question that is not in the box, pointing at the API's own list, not at a command", async () => {
    const web = await webFixture();
    const res = await call(web, "GET", "/questions/2026-07-10-nothing-here");
    expect(res.status).toBe(404);
    const { error } = await res.json();
    expect(error.code).toBe("QuestionNotFound");
    expect(error.message).toContain("GET /api/v1/questions?status=all");
    expect(error.message).not.toContain("qbridge list");
  });

  it("answers 400 for a path-traversal id and reads no file", async () => {
    const web = await webFixture();
    const attempts = [
      call(web, "GET", "/questions/..%2F..%2Fetc"),
      call(web, "POST", "/questions/..%2F..%2Fetc/answer", { answer: "a" }),
      call(web, "POST", "/questions/..%2F..%2Fetc/dismiss"),
    ];
    for (const res of await Promise.all(attempts)) {
      expect(res.status).toBe(400);
      const body = await res.json();
      expect(body.error.code).toBe("InvalidId");
      expect(JSON.stringify(body)).not.toContain("root:");
    }
  });
});

describe("answering and dismissing through the API", () => {
  it("records the answer via api with who answered, and writes one job", async () => {
    const web = await webFixture();
    const id = await web.ask(selectCard());
    const res = await call(web, "POST", `/questions/${id}/answer`, {
      answer: "Taxes",
      note: "all",
      by: "ops-agent",
    });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toMatchObject({
      id,
      answer: { text: "Taxes", selected: "taxes", note: "all" },
      previous: "pending",
    });
    const card = loadQuestion(web.box, id).card;
    expect(card["answered-via"]).toBe("api");
    expect(card["answered-by"]).toBe("ops-agent");
    expect(web.jobs()).toHaveLength(1);
    expect(web.transitions).toEqual([{ id, action: "answered", via: "api" }]);
  });

  it("a second answer is a 409 naming the current status, and writes no second job", async () => {
    const web = await webFixture();
    const id = await web.ask(confirmCard());
    await call(web, "POST", `/questions/${id}/answer`, { answer: "yes" });
    const res = await call(web, "POST", `/questions/${id}/answer`, { answer: "no" });
    expect(res.status).toBe(409);
    const body = await res.json();
    expect(body.error.code).toBe("TransitionRejected");
    expect(body.error.current).toBe("answered");
    expect(body.error.message).toContain('already answered (answered "Yes" via api');
    expect(web.jobs()).toHaveLength(1);
  });

  it("an answer that does not resolve is a 422 that says what would", async () => {
    const web = await webFixture();
    const id = await web.ask(confirmCard());
    const res = await call(web, "POST", `/questions/${id}/answer`, { answer: "maybe" });
    expect(res.status).toBe(422);
    const body = await res.json();
    expect(body.error.code).toBe("InvalidAnswer");
    expect(body.error.message).toContain("yes or no");
  });

  it("a card with a field in another spelling (while_waiting, expiresAfter) is a 422 naming the card's spelling; nothing is filed", async () => {
    const web = await webFixture();
    const res = await call(
      web,
      "POST",
      "/questions",
      confirmCard({ while_waiting: "Keep them.", expiresAfter: "P7D", colour: "red" }),
    );
    expect(res.status).toBe(422);
    const { message } = (await res.json()).error;
    expect(message).toContain('"while_waiting" (did you mean "while-waiting"?)');
    expect(message).toContain('"expiresAfter" (did you mean "expires-after"?)');
    expect(message).toContain('"colour"');
    expect(message).not.toContain('"colour" (did you mean');
    const list = await call(web, "GET", "/questions");
    expect((await list.json()).questions).toEqual([]);
  });

  it("an answer body without `answer` or with unknown fields is a 422", async () => {
    const web = await webFixture();
    const id = await web.ask(confirmCard());
    const missing = await call(web, "POST", `/questions/${id}/answer`, { note: "x" });
    expect(missing.status).toBe(422);
    expect((await missing.json()).error.code).toBe("SchemaMismatch");
    const extra = await call(web, "POST", `/questions/${id}/answer`, { answer: "yes", via: "cli" });
    expect(extra.status).toBe(422);
    expect(loadQuestion(web.box, id).card.status).toBe("pending");
  });

  it("a `by` with a control character is a 422 naming the field, not a 503 to retry", async () => {
    const web = await webFixture();
    const id = await web.ask(confirmCard());
    const by = "ops\u001b[31m-agent";
    for (const [action, body] of [
      ["answer", { answer: "yes", by }],
      ["extend", { duration: "P7D", by }],
      ["withdraw", { by }],
    ] as const) {
      const res = await call(web, "POST", `/questions/${id}/${action}`, body);
      expect(res.status).toBe(422);
      const { error } = await res.json();
      expect(error.code).toBe("SchemaMismatch");
      expect(error.message).toContain("by: must not contain control characters");
    }
    expect(loadQuestion(web.box, id).card.status).toBe("pending");
  });

  it("answering a question that is not there is a 404", async () => {
    const web = await webFixture();
    const res = await call(web, "POST", "/questions/2026-07-10-gone/answer", { answer: "yes" });
    expect(res.status).toBe(404);
  });

  it("dismisses a pending question; a second dismissal is a 409 naming the current status", async () => {
    const web = await webFixture();
    const id = await web.ask(selectCard());
    const res = await call(web, "POST", `/questions/${id}/dismiss`);
    expect(res.status).toBe(200);
    expect(loadQuestion(web.box, id).card.status).toBe("dismissed");
    const again = await call(web, "POST", `/questions/${id}/dismiss`, {});
    expect(again.status).toBe(409);
    expect((await again.json()).error.current).toBe("dismissed");
  });

  it("answers a dismissed question: dismissal does not close it", async () => {
    const web = await webFixture();
    const id = await web.ask(selectCard());
    await call(web, "POST", `/questions/${id}/dismiss`);
    const res = await call(web, "POST", `/questions/${id}/answer`, { answer: "a" });
    expect(res.status).toBe(200);
    expect((await res.json()).previous).toBe("dismissed");
  });
});

describe("the API's door", () => {
  it("refuses a request without a bearer token with a 401", async () => {
    const web = await webFixture();
    const res = await call(web, "GET", "/questions", undefined, {});
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toContain("Bearer");
    expect((await res.json()).error.code).toBe("Unauthorized");
  });

  it("refuses a wrong bearer token with a 401 and changes nothing", async () => {
    const web = await webFixture();
    const id = await web.ask(selectCard());
    const res = await call(
      web,
      "POST",
      `/questions/${id}/answer`,
      { answer: "a" },
      web.auth(`${API_TOKEN}x`),
    );
    expect(res.status).toBe(401);
    expect((await res.json()).error.message).toBe("the bearer token is wrong");
    expect(loadQuestion(web.box, id).card.status).toBe("pending");
  });

  it("is off without a configured token, and says so", async () => {
    const web = await webFixture({ apiToken: null });
    const res = await call(web, "GET", "/questions");
    expect(res.status).toBe(503);
    const body = await res.json();
    expect(body.error.code).toBe("ApiOff");
    expect(body.error.message).toContain("QBRIDGE_API_TOKEN");
  });

  it("answers an unknown API route with a JSON 404", async () => {
    const web = await webFixture();
    const res = await call(web, "GET", "/nothing");
    expect(res.status).toBe(404);
    expect((await res.json()).error.code).toBe("NoSuchRoute");
  });
});
