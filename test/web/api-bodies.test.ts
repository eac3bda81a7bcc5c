// How the API reads a body, whatever its label: why it does not use @hono/zod-validator's json
// target (see src/web/api-bodies.ts), held as behaviour.

import { afterEach, describe, expect, it } from "vitest";
import { loadQuestion } from "../../src/questions/store.ts";
import { cleanupBoxes, selectCard } from "../support/box.ts";
import { webFixture } from "./web-support.ts";

afterEach(cleanupBoxes);

describe("an API body, whatever its label", () => {
  it("an answer sent with curl -d's form label is read as the JSON it is, and a JSON-labelled empty body dismisses", async () => {
    const web = await webFixture();
    const answered = await web.ask(selectCard());
    const res = await web.app.request(`/api/v1/questions/${answered}/answer`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", ...web.auth() },
      body: JSON.stringify({ answer: "Taxes" }),
    });
    expect(res.status).toBe(200);
    expect(loadQuestion(web.box, answered).card.answer?.selected).toBe("taxes");

    const dismissed = await web.ask(selectCard({ prompt: "Dismiss me?" }));
    const bare = await web.app.request(`/api/v1/questions/${dismissed}/dismiss`, {
      method: "POST",
      headers: { "content-type": "application/json", ...web.auth() },
    });
    expect(bare.status).toBe(200);
    expect(loadQuestion(web.box, dismissed).card.status).toBe("dismissed");
  });
});
