// Story: the disk refuses a presented card's bytes for a while (a permission, an I/O error).
// Only a missing file means the question is gone: the slot keeps the presentation, says the
// error, and carries on once the card can be read again.

import { spawn } from "node:child_process";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { askQuestion } from "../../src/questions/ask.ts";
import {
  childResult,
  cleanupBoxes,
  makeBox,
  questionRel,
  ROOT,
  selectCard,
} from "../support/box.ts";

afterEach(cleanupBoxes);

/** Runs the child slot; as root, without the capabilities that let root read any file. */
function runChild(
  dir: string,
  rel: string,
): Promise<{ code: number; stdout: string; stderr: string }> {
  const node = [
    process.execPath,
    "--import",
    "tsx",
    join(ROOT, "test/slot/unreadable-child.ts"),
    dir,
    rel,
  ];
  const [command, ...args] =
    process.getuid?.() === 0
      ? ["setpriv", "--bounding-set", "-dac_override,-dac_read_search", ...node]
      : node;
  const child = spawn(command as string, args, { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
  return childResult(child);
}

describe("a presented card the disk refuses to give", () => {
  it("is not taken for a removed card: the presentation stays open and is shown on once readable", async () => {
    const box = await makeBox();
    const { id } = await askQuestion(box, selectCard({ prompt: "Still there?" }));
    box.ledger.close();
    const run = await runChild(box.dir, questionRel(id));
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({
      presented: id,
      error: "CardReadFailed",
      stillPresented: id,
      afterwards: id,
      closures: [],
    });
  });
});
