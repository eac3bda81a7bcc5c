// Story: a deadline the boxholder can move. Extend adds time to a pending question by rewriting
// its `expires-after` through the transition core (one commit, the rest of the card untouched);
// the aging sweep then nudges and expires by the new deadline. The clock is frozen throughout.

import { afterEach, describe, expect, it } from "vitest";
import { ageQuestions } from "../../src/questions/aging.ts";
import { askQuestion } from "../../src/questions/ask.ts";
import { dismissQuestion } from "../../src/questions/close.ts";
import { extendQuestion } from "../../src/questions/extend.ts";
import { loadQuestion } from "../../src/questions/store.ts";
import { callTool } from "../agent/agent-support.ts";
import {
  atTime,
  cleanupBoxes,
  cliEnv,
  gitLog,
  lastCommitTrailers,
  makeBox,
  pendingCardText,
  readBoxFile,
  runCli,
  selectCard,
  T0,
  writeCardFile,
} from "../support/box.ts";
import { mcpClientOn } from "../support/mcp-client.ts";
import { webFixture } from "../web/web-support.ts";

afterEach(cleanupBoxes);

function plus(days: number, hours = 0): string {
  return new Date(Date.parse(T0) + (days * 24 + hours) * 3_600_000)
    .toISOString()
    .replace(".000Z", "Z");
}

describe("Extend through the core", () => {
  it("moves the expiry: the card, one commit, and the nudge and expiry follow the new deadline", async () => {
    const tb = await makeBox();
    const { id } = await askQuestion(tb, selectCard({ "expires-after": "P10D" }));
    const nudged: string[] = [];
    const nudge = async (q: { id: string }) => {
      nudged.push(q.id);
      return true;
    };
    // Day 6: the nudge at half of P10D has gone out.
    await ageQuestions(atTime(tb, plus(6)), { nudge });
    expect(nudged).toEqual([id]);

    const commits = (await gitLog(tb.dir)).length;
    const result = await extendQuestion(atTime(tb, plus(6)), id, "P10D", { via: "cli" });
    expect(result).toMatchObject({
      expiresAfter: "P20D",
      previousExpiresAt: new Date(plus(10)).toISOString(),
      expiresAt: new Date(plus(20)).toISOString(),
    });
    expect(loadQuestion(tb, id).card["expires-after"]).toBe("P20D");
    expect(await gitLog(tb.dir)).toHaveLength(commits + 1);
    expect(await lastCommitTrailers(tb.dir)).toMatchObject({
      "Extended-Via": "cli",
      "Expires-After": "P20D",
      Question: id,
    });

    // Just before day 10 nothing is due; at day 10 the old deadline passes and nothing
    // expires, and the nudge at half of P20D comes again.
    let report = await ageQuestions(atTime(tb, plus(9, 23)), { nudge });
    expect(nudged).toEqual([id]);
    report = await ageQuestions(atTime(tb, plus(10)), { nudge });
    expect(report.expired).toEqual([]);
    expect(nudged).toEqual([id, id]);
    report = await ageQuestions(atTime(tb, plus(19, 23)), { nudge });
    expect(report.expired).toEqual([]);
    report = await ageQuestions(atTime(tb, plus(20)), { nudge });
    expect(report.expired).toEqual([id]);
  });

  it("keeps comments, unknown keys and CRLF lines of a hand-written card", async () => {
    const tb = await makeBox();
    const text = pendingCardText(selectCard())
      .replace("status: pending", "status: pending # filed by hand")
      .replace("---\n", "---\nx-owner: accounting\n")
      .replace(/\n/g, "\r\n");
    writeCardFile(tb.dir, "by-hand", text);
    const rel = "_bookkeeping/questions/by-hand.question.card";
    await extendQuestion(tb, "by-hand", "3d", { via: "cli" });
    const after = readBoxFile(tb.dir, rel);
    expect(after).toBe(text.replace(/(\r\n---\r\n)$/, "\r\nexpires-after: P33D$1"));
  });

  it("refuses a question that is not pending, and a length that is not one, changing nothing", async () => {
    const tb = await makeBox();
    const { id } = await askQuestion(tb, selectCard());
    await expect(extendQuestion(tb, id, "soon", { via: "cli" })).rejects.toThrow(
      '"soon" is not a length of time',
    );
    await dismissQuestion(tb, id, { via: "cli" });
    const commits = (await gitLog(tb.dir)).length;
    await expect(extendQuestion(tb, id, "P1D", { via: "cli" })).rejects.toThrow(
      "it is already dismissed",
    );
    expect(await gitLog(tb.dir)).toHaveLength(commits);
  });
});

describe("Extend from the command line, MCP and the API", () => {
  it("qbridge extend ID DURATION adds the time and says the new deadline", async () => {
    const tb = await makeBox();
    const { id } = await askQuestion(tb, selectCard());
    const out = await runCli(["extend", id, "2w"], { env: cliEnv(tb.dir) });
    expect(out.stderr).toBe("");
    expect(out.stdout).toBe(
      `extended ${id}: expires in 44 days (2026-08-23 09:00 UTC, expires-after P44D)\n`,
    );
    expect(loadQuestion(tb, id).card["expires-after"]).toBe("P44D");
    const bad = await runCli(["extend", id, "tomorrow"], { env: cliEnv(tb.dir) });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('"tomorrow" is not a length of time');
  });

  it("the MCP tool extend_question adds the time", async () => {
    const tb = await makeBox();
    const { id } = await askQuestion(tb, selectCard());
    const client = await mcpClientOn({ core: tb, timeZone: "UTC" });
    const result = await callTool(client, "extend_question", { id, duration: "P5D" }).result;
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ id, expiresAfter: "P35D" });
    expect(loadQuestion(tb, id).card["expires-after"]).toBe("P35D");
    const late = await callTool(client, "extend_question", { id, duration: "soon" }).result;
    expect(late.isError).toBe(true);
    await client.close();
  });

  it("POST /api/v1/questions/:id/extend adds the time behind the bearer token", async () => {
    const web = await webFixture();
    const id = await web.ask(selectCard({ "expires-after": "P7D" }));
    const post = (headers: Record<string, string>) =>
      web.app.request(`/api/v1/questions/${id}/extend`, {
        method: "POST",
        headers: { "content-type": "application/json", ...headers },
        body: JSON.stringify({ duration: "PT12H" }),
      });
    expect((await post({})).status).toBe(401);
    const res = await post(web.auth());
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ id, expiresAfter: "P7DT12H" });
    expect(loadQuestion(web.box, id).card["expires-after"]).toBe("P7DT12H");
    expect(web.transitions).toContainEqual({ id, action: "extended", via: "api" });
  });
});
