// Story: someone edits a card by hand and breaks it (YAML that does not parse, a field of the
// wrong type). An agent or a person then names that question by id. The id was right and the
// card is there: the call was fine and the box needs fixing, so every command that reads one
// card by id exits 4, naming the card's path, what is wrong and what to do, and changes nothing.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  cleanupBoxes,
  cliEnv,
  gitLog,
  makeBox,
  pendingCardText,
  questionRel,
  readBoxFile,
  runCli,
  selectCard,
  type TestBox,
  writeCardFile,
} from "../support/box.ts";

afterAll(cleanupBoxes);

const BAD_YAML = "---\nstatus: pending\nprompt: [unclosed\n---\n";
const YAML_REASON =
  "its YAML does not parse (Flow sequence in block collection must be sufficiently indented and end with a ])";

function sentence(id: string, reason: string): string {
  return `qbridge: ${questionRel(id)} cannot be read as a card: ${reason}; fix the file by hand (it is never rewritten)\n`;
}

describe("a card broken by hand, named by its id", () => {
  let tb: TestBox;
  let commits: number;

  beforeAll(async () => {
    tb = await makeBox();
    writeCardFile(tb.dir, "bad-yaml", BAD_YAML);
    writeCardFile(tb.dir, "wrong-type", pendingCardText({ ...selectCard(), prompt: 42 }));
    commits = (await gitLog(tb.dir)).length;
  });

  it.each([
    "show bad-yaml",
    "wait bad-yaml --timeout 0",
    "answer bad-yaml yes",
    "dismiss bad-yaml",
    "withdraw bad-yaml --reason done",
    "extend bad-yaml 3d",
    "link bad-yaml",
  ])(
    "`qbridge %s` exits 4 with one sentence naming the card, its fault and the fix",
    async (line) => {
      const result = await runCli(line.split(" "), { env: cliEnv(tb.dir) });
      expect(result).toEqual({ code: 4, stdout: "", stderr: sentence("bad-yaml", YAML_REASON) });
    },
  );

  it("a card that parses but fails validation exits 4 too, with the field at fault", async () => {
    const result = await runCli(["wait", "wrong-type", "--json"], { env: cliEnv(tb.dir) });
    expect(result.code).toBe(4);
    expect(result.stderr).toMatch(
      /^qbridge: _bookkeeping\/questions\/wrong-type\.question\.card cannot be read as a card: prompt: .*; fix the file by hand \(it is never rewritten\)\n$/,
    );
    expect(JSON.parse(result.stdout)).toEqual({
      error: { code: "CardUnreadable", message: result.stderr.slice(9, -1) },
    });
  });

  it("leaves the broken cards as they were and commits nothing", async () => {
    expect(readBoxFile(tb.dir, questionRel("bad-yaml"))).toBe(BAD_YAML);
    expect(await gitLog(tb.dir)).toHaveLength(commits);
  });
});
