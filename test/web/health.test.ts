// The deploy probe: it answers without a link, says whether the box and the ledger can be
// read, and reports an uncommitted edit without failing.

import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { cleanupBoxes } from "../support/box.ts";
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
});
