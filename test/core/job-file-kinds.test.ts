// A follow-up job file that is a FIFO or a link is read as question cards are: never opened
// for a blocking read, never followed. `jobs`, `job-done` and the API's job read say what is
// wrong and return; `doctor` names the file.

import { execFileSync, spawn } from "node:child_process";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { askQuestion } from "../../src/questions/ask.ts";
import {
  CLI,
  childResult,
  cleanupBoxes,
  cliEnv,
  scratchDir,
  selectCard,
  type TestBox,
} from "../support/box.ts";
import { webFixture } from "../web/web-support.ts";

afterEach(cleanupBoxes);

/** `qbridge` killed after 20 s, so a hang fails the test instead of stalling it. */
function bounded(args: string[], env: Record<string, string>) {
  const child = spawn(process.execPath, [CLI, ...args], {
    env: { ...process.env, ...env },
    stdio: ["pipe", "pipe", "pipe"],
    timeout: 20_000,
    killSignal: "SIGKILL",
  });
  return childResult(child, "");
}

/** A question whose job file is a FIFO (or a link to a file outside the box). */
async function strangeJob(box: TestBox, kind: "fifo" | "link"): Promise<string> {
  const { id } = await askQuestion(box, selectCard());
  mkdirSync(box.box.paths.jobsDir, { recursive: true });
  const path = join(box.box.paths.root, box.box.paths.jobRel(id));
  if (kind === "fifo") execFileSync("mkfifo", [path]);
  else {
    const outside = join(scratchDir("qbridge-outside-"), `${id}.txt`);
    writeFileSync(outside, "---\nstatus: pending\n---\n");
    symlinkSync(outside, path);
  }
  return id;
}

describe("a job file that is a FIFO or a link", () => {
  for (const kind of ["fifo", "link"] as const) {
    it(`(${kind}) jobs, job-done and doctor return and say what is wrong`, async () => {
      const web = await webFixture();
      const id = await strangeJob(web.box, kind);
      const what = kind === "fifo" ? "not a regular file" : "symbolic link";
      const env = cliEnv(web.box.dir);

      const jobs = await bounded(["jobs", "--json"], env);
      expect(jobs.code, jobs.stderr).toBe(0);
      expect(jobs.stdout).toContain(what);

      const done = await bounded(["job-done", id], env);
      expect(done.code).not.toBe(0);
      expect(done.code).not.toBe(128);
      expect(done.stderr).toContain(what);

      const doctor = await bounded(["doctor", "--json"], env);
      expect(doctor.code).not.toBe(128);
      expect(doctor.stdout).toContain(web.box.box.paths.jobRel(id));
      expect(doctor.stdout).toContain(what);

      const res = await web.app.request(`/api/v1/questions/${id}/job`, { headers: web.auth() });
      expect(JSON.stringify(await res.json())).toContain(what);
    });
  }
});
