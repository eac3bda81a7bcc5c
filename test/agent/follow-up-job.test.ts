// An agent follows docs/AGENTS.md to the follow-up job: `qbridge jobs --json` gives it the job
// and the steps the file states, a late answer says it came late, and the way the steps close
// a job (`qbridge job-done`, one commit) leaves a healthy box that lists the job as done.

import { afterEach, describe, expect, it } from "vitest";
import { cleanupBoxes, cliEnv, gitLog, makeBox, runCli, selectCard } from "../support/box.ts";

afterEach(cleanupBoxes);

interface JobEntry {
  rel: string;
  job: { status: string; "question-id": string; "answered-after"?: string };
  instructions: string;
}

describe("the follow-up job as an agent reads it", () => {
  it("jobs --json carries the steps; a late answer is marked; job-done as the steps say marks it done in one commit and the box stays healthy", async () => {
    const { dir } = await makeBox();
    const env = cliEnv(dir, { QBRIDGE_TIME: "2026-07-10T09:00:00Z" });
    const later = cliEnv(dir, { QBRIDGE_TIME: "2026-07-12T09:00:00Z" });
    const card = selectCard({ "while-waiting": "Keep the receipt in the inbox." });
    const asked = await runCli(["ask", "--json", "--expires-after", "P1D"], {
      env,
      input: JSON.stringify(card),
    });
    expect(asked.code, asked.stderr).toBe(0);
    const id = (JSON.parse(asked.stdout) as { id: string }).id;
    expect((await runCli(["age", "--json"], { env: later })).code).toBe(0);
    const answered = await runCli(["answer", id, "Taxes", "--json"], { env: later });
    expect(answered.code, answered.stderr).toBe(0);

    const listed = await runCli(["jobs", "--json"], { env: later });
    const [entry] = JSON.parse(listed.stdout) as JobEntry[];
    expect(entry?.job["question-id"]).toBe(id);
    expect(entry?.job["answered-after"]).toBe("expired");
    expect(entry?.instructions).toContain("Execute the directive using the answer");
    expect(entry?.instructions).toContain("after the question was expired");
    expect(entry?.instructions).toContain("Keep the receipt in the inbox.");

    // Do what step 3 says, literally.
    expect(entry?.instructions).toContain(`qbridge job-done ${id}`);
    const done = await runCli(["job-done", id, "--json"], { env: later });
    expect(done.code, done.stderr).toBe(0);
    expect(JSON.parse(done.stdout)).toMatchObject({
      id,
      rel: entry?.rel,
      doneAt: "2026-07-12T09:00:00Z",
    });
    expect((await gitLog(dir))[0]).toMatch(/^job done: /);
    const again = await runCli(["job-done", id, "--json"], { env: later });
    expect(JSON.parse(again.stdout)).toMatchObject({ id, commit: null });

    const after = JSON.parse(
      (await runCli(["jobs", "--json"], { env: later })).stdout,
    ) as JobEntry[];
    expect(after[0]?.job.status).toBe("done");
    const doctor = await runCli(["doctor", "--json"], { env: later });
    expect(JSON.parse(doctor.stdout).healthy, doctor.stdout).toBe(true);
  });
});
