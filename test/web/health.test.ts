// The deploy probe: it answers without a link, says whether the box and the ledger can be
// read, reports an uncommitted edit without failing, fails on a git lock file that stops every
// commit, shows the parts the service reports, and never runs git per request.

import { utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Hono } from "hono";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createHealthProbe, healthRoutes } from "../../src/web/health.ts";
import { cleanupBoxes, makeBox } from "../support/box.ts";
import { webFixture } from "./web-support.ts";

afterEach(cleanupBoxes);

describe("/healthz", () => {
  it("is ok for a readable box and ledger with a clean git tree", async () => {
    const web = await webFixture();
    const res = await web.app.request("/healthz");
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      ok: true,
      box: { readable: true, gitClean: true },
      ledger: { readable: true, lastSweep: null },
    });
  });

  it("reports an uncommitted file as git not clean, still ok", async () => {
    const web = await webFixture();
    writeFileSync(join(web.box.dir, "notes.txt"), "a person's edit\n");
    const res = await web.app.request("/healthz");
    expect(res.status).toBe(200);
    const health = await res.json();
    expect(health.ok).toBe(true);
    expect(health.box.gitClean).toBe(false);
  });

  it("fails with a 503 when the ledger cannot be read", async () => {
    const web = await webFixture();
    web.box.ledger.close();
    const res = await web.app.request("/healthz");
    expect(res.status).toBe(503);
    const health = await res.json();
    expect(health.ok).toBe(false);
    expect(health.ledger.readable).toBe(false);
  });

  it("fails with a 503 naming an old git lock file that is not qbridge's, which stops every commit", async () => {
    const web = await webFixture();
    const lock = join(web.box.dir, ".git/HEAD.lock");
    writeFileSync(lock, "");
    const longAgo = new Date(Date.now() - 3_600_000);
    utimesSync(lock, longAgo, longAgo);
    const res = await web.app.request("/healthz");
    expect(res.status).toBe(503);
    const health = await res.json();
    expect(health.ok).toBe(false);
    expect(health.box.problem).toMatch(
      /^git's \.git\/HEAD\.lock is \d+ s old and stops every commit: run "qbridge doctor"/,
    );
  });

  it("1,000 concurrent probes run git once, not once per request", async () => {
    const tb = await makeBox();
    const raw = vi.spyOn(tb.box.git, "raw");
    const app = new Hono().route("/", healthRoutes(createHealthProbe(tb)));
    const answers = await Promise.all(
      Array.from({ length: 1000 }, async () => (await app.request("/healthz")).status),
    );
    expect(new Set(answers)).toEqual(new Set([200]));
    expect(raw).toHaveBeenCalledTimes(1);
  });

  it("shows the parts the service reports, and is not ok while one of them is not", async () => {
    const tb = await makeBox();
    const probe = createHealthProbe(tb);
    const app = new Hono().route("/", healthRoutes(probe));
    probe.report("telegram", { ok: false, reason: "the Bot API has not answered for 5 min" });
    const down = await app.request("/healthz");
    expect(down.status).toBe(503);
    expect((await down.json()).parts).toEqual({
      telegram: { ok: false, reason: "the Bot API has not answered for 5 min" },
    });
    probe.report("telegram", { ok: true });
    const up = await app.request("/healthz");
    expect(up.status).toBe(200);
    expect((await up.json()).parts).toEqual({ telegram: { ok: true } });
    probe.forget("telegram");
    expect((await (await app.request("/healthz")).json()).parts).toBeUndefined();
  });
});
