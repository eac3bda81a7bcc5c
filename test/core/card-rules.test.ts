// Story: cards are files that agents and people write by hand. Every load checks the card
// contract (input rules, and a status owning exactly its fields), refuses what breaks it with
// the reason, and a transition rewrites only the fields it owns, leaving the rest byte-for-byte.

import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rewriteCardText } from "../../src/card/codec.ts";
import { parseQuestion } from "../../src/card/load.ts";
import { CardUnreadable } from "../../src/errors.ts";
import { answerQuestion } from "../../src/questions/answer.ts";
import { dismissQuestion } from "../../src/questions/close.ts";
import { loadQuestion } from "../../src/questions/store.ts";
import {
  cleanupBoxes,
  confirmCard,
  makeBox,
  pendingCardText,
  questionRel,
  readBoxFile,
  selectCard,
  T0,
  type TestBox,
  textCard,
  writeCardFile,
} from "../support/box.ts";

let tb: TestBox;
let n = 0;

beforeAll(async () => {
  tb = await makeBox();
});
afterAll(cleanupBoxes);

/** Writes the card text under a fresh id and loads it the way every operation does. */
function load(text: string) {
  const id = `card-${++n}`;
  writeCardFile(tb.dir, id, text);
  return { id, load: () => loadQuestion(tb, id) };
}

function reasonOf(text: string): string {
  const { load: read } = load(text);
  try {
    read();
  } catch (error) {
    expect(error).toBeInstanceOf(CardUnreadable);
    return (error as CardUnreadable).reason;
  }
  throw new Error("the card loaded, but it should have been refused");
}

const options = (...labels: [string, string][]) => labels.map(([id, label]) => ({ id, label }));

describe("the input rules", () => {
  it("loads a well-formed select, confirm and text card", () => {
    for (const card of [selectCard(), confirmCard(), textCard()]) {
      const { load: read } = load(pendingCardText(card));
      expect(read().card.status).toBe("pending");
    }
  });

  it.each([
    [
      "a select question with fewer than 2 options",
      selectCard({ input: { type: "select", options: options(["only", "Only"]) } }),
      /input\.options: a select question needs at least 2 options/,
    ],
    [
      "a select question with no options at all",
      selectCard({ input: { type: "select" } }),
      /a select question needs at least 2 options/,
    ],
    [
      "two options with the same id",
      selectCard({
        input: { type: "select", options: options(["finance", "Finance"], ["finance", "Taxes"]) },
      }),
      /option id "finance" is used twice/,
    ],
    [
      "two labels that are equal ignoring case",
      selectCard({
        input: { type: "select", options: options(["a1", "Finance"], ["a2", "FINANCE"]) },
      }),
      /option label "FINANCE" is used twice \(labels are compared ignoring case\)/,
    ],
    [
      "options on a text question",
      textCard({ input: { type: "text", options: options(["a", "A"], ["b", "B"]) } }),
      /a text question carries no options/,
    ],
    [
      "options on a confirm question",
      confirmCard({ input: { type: "confirm", options: options(["yes", "Yes"], ["no", "No"]) } }),
      /a confirm question carries no options/,
    ],
    [
      "a recommendation that is not an option id",
      selectCard({ recommended: "shoebox" }),
      /recommended "shoebox" is not an option id/,
    ],
    [
      "a confirm recommendation other than yes or no",
      confirmCard({ recommended: "maybe" }),
      /a confirm question recommends "yes" or "no"/,
    ],
    [
      "a recommendation on a text question",
      textCard({ recommended: "anything" }),
      /a text question has no option to recommend/,
    ],
  ])("refuses %s on load", (_what, card, reason) => {
    expect(reasonOf(pendingCardText(card))).toMatch(reason);
  });
});

describe("the lifecycle rule: a status owns its fields, nothing else may be present", () => {
  const answerFields = {
    answer: { text: "Finance", selected: "finance" },
    "answered-at": "2026-07-11T09:00:00Z",
    "answered-via": "cli",
  };
  const dismissed = { "dismissed-at": "2026-07-11T09:00:00Z" };
  const expired = { "expired-at": "2026-08-09T09:00:00Z" };

  it("loads each status carrying exactly its own fields", () => {
    for (const [status, fields] of [
      ["answered", answerFields],
      ["dismissed", dismissed],
      ["expired", expired],
    ] as const) {
      const { load: read } = load(pendingCardText({ ...selectCard(), status, ...fields }));
      expect(read().card.status).toBe(status);
    }
  });

  it.each([
    ["pending", { answer: answerFields.answer }, 'a pending card must not carry "answer"'],
    ["pending", { "answered-at": T0 }, 'a pending card must not carry "answered-at"'],
    ["pending", { "answered-via": "cli" }, 'a pending card must not carry "answered-via"'],
    ["pending", { "answered-by": "42" }, 'a pending card must not carry "answered-by"'],
    ["pending", dismissed, 'a pending card must not carry "dismissed-at"'],
    ["pending", expired, 'a pending card must not carry "expired-at"'],
    [
      "answered",
      { ...answerFields, ...dismissed },
      'an answered card must not carry "dismissed-at"',
    ],
    ["answered", { ...answerFields, ...expired }, 'an answered card must not carry "expired-at"'],
    ["dismissed", { ...dismissed, ...answerFields }, 'a dismissed card must not carry "answer"'],
    ["dismissed", { ...dismissed, ...expired }, 'a dismissed card must not carry "expired-at"'],
    ["expired", { ...expired, ...dismissed }, 'an expired card must not carry "dismissed-at"'],
    ["expired", { ...expired, "answered-at": T0 }, 'an expired card must not carry "answered-at"'],
  ])("refuses a %s card carrying %o", (status, fields, reason) => {
    const text = pendingCardText({ ...selectCard(), status, ...fields });
    expect(reasonOf(text)).toContain(reason);
  });

  it.each([
    ["answered", { "answered-at": T0, "answered-via": "cli" }, 'an answered card needs "answer"'],
    [
      "answered",
      { answer: answerFields.answer, "answered-via": "cli" },
      'an answered card needs "answered-at"',
    ],
    [
      "answered",
      { answer: answerFields.answer, "answered-at": T0 },
      'an answered card needs "answered-via"',
    ],
    ["dismissed", {}, 'a dismissed card needs "dismissed-at"'],
    ["expired", {}, 'an expired card needs "expired-at"'],
  ])("refuses a %s card missing a field it needs (%o present)", (status, fields, reason) => {
    const text = pendingCardText({ ...selectCard(), status, ...fields });
    expect(reasonOf(text)).toContain(reason);
  });

  it("refuses a status that is not one of pending, answered, dismissed, expired", () => {
    expect(reasonOf(pendingCardText({ ...selectCard(), status: "done" }))).toMatch(/^status: /);
  });
});

describe("times and durations", () => {
  it.each([
    ["a date without a time", "2026-07-10"],
    ["a time without an offset", "2026-07-10T09:00:00"],
    ["words", "last tuesday"],
    ["a number", 1752138000],
  ])("refuses an asked-at that is %s", (_what, askedAt) => {
    expect(reasonOf(pendingCardText({ ...selectCard(), "asked-at": askedAt }))).toMatch(
      /^asked-at: must be an ISO time/,
    );
  });

  it.each([
    ["an offset no clock has", "2026-07-10T09:00:00+99:00"],
    ["the year 0", "0000-01-01T00:00:00Z"],
    ["a year so late its deadline has no date", "9999-12-31T23:59:59Z"],
  ])("refuses an asked-at with %s, though written as an ISO time", (_what, askedAt) => {
    expect(reasonOf(pendingCardText({ ...selectCard(), "asked-at": askedAt }))).toBe(
      "asked-at: must be a real time between the years 1970 and 9000, with an offset of at most ±23:59",
    );
  });

  it("refuses a card without asked-at", () => {
    const text = pendingCardText(selectCard()).replace(/^asked-at: .*\n/m, "");
    expect(reasonOf(text)).toMatch(/^asked-at: /);
  });

  it.each([["30 days"], ["P"], ["PT"], ["P1DT"], ["1D"]])(
    "refuses an expires-after of %j",
    (duration) => {
      expect(reasonOf(pendingCardText({ ...selectCard(), "expires-after": duration }))).toMatch(
        /^expires-after: must be an ISO-8601 duration/,
      );
    },
  );

  it("accepts expires-after durations such as P2D, PT36H and P1W", () => {
    for (const duration of ["P2D", "PT36H", "P1W"]) {
      const { load: read } = load(pendingCardText({ ...selectCard(), "expires-after": duration }));
      expect(read().card["expires-after"]).toBe(duration);
    }
  });
});

describe("text that is not a card", () => {
  it.each([
    ["no front matter", "just some words\n", /does not start with a '---' front-matter line/],
    ["no closing line", "---\nstatus: pending\n", /has no closing '---' line/],
    ["YAML that does not parse", "---\nstatus: [pending\n---\n", /its YAML does not parse/],
    ["a key written twice", "---\nstatus: pending\nstatus: answered\n---\n", /does not parse/],
    ["a list instead of a map", "---\n- status\n- pending\n---\n", /is not a map of fields/],
  ])("refuses a file with %s", (_what, text, reason) => {
    expect(reasonOf(text)).toMatch(reason);
  });

  it("refuses control characters in card text but keeps tabs and line breaks", () => {
    const reason = reasonOf(
      pendingCardText(selectCard({ prompt: "Where\u0000to?", memo: "Bell\u0007." })),
    );
    expect(reason).toMatch(/prompt: must not contain control characters/);
    expect(reason).toMatch(/memo: must not contain control characters/);
    const { load: read } = load(pendingCardText(selectCard({ memo: "Tab\there,\r\nline there." })));
    expect(read().card.memo).toBe("Tab\there,\r\nline there.");
  });

  it("refuses fields of the wrong type, naming each field", () => {
    const text = pendingCardText({ ...selectCard(), prompt: 42, irreversible: "yes" });
    const reason = reasonOf(text);
    expect(reason).toMatch(/prompt: /);
    expect(reason).toMatch(/irreversible: /);
  });

  it("refuses a card that is not UTF-8 rather than rewrite its bytes", async () => {
    const id = `card-${++n}`;
    const latin1 = Buffer.from(
      pendingCardText({ ...selectCard(), memo: "Re\u00e7u at intake." }),
      "latin1",
    );
    writeFileSync(join(tb.dir, questionRel(id)), latin1);
    expect(() => loadQuestion(tb, id)).toThrow(/it is not UTF-8 text/);
    await expect(answerQuestion(tb, id, { text: "a" }, { via: "cli" })).rejects.toThrow(
      CardUnreadable,
    );
    expect(readFileSync(join(tb.dir, questionRel(id)))).toEqual(latin1);
  });

  it("never rewrites a card it refuses", () => {
    const text = "---\nstatus: pending\nprompt: [broken\n---\nBody kept.\n";
    const { id, load: read } = load(text);
    expect(read).toThrow(CardUnreadable);
    expect(readBoxFile(tb.dir, questionRel(id))).toBe(text);
  });
});

describe("the parsing limits: no card can exhaust whoever reads it", () => {
  const withExtra = (extra: string) =>
    pendingCardText(selectCard()).replace(/---\n$/, `${extra}\n---\n`);

  it("loads a card that uses a few aliases and nests 32 levels", () => {
    const nested = `${"[".repeat(30)}1${"]".repeat(30)}`;
    const text = withExtra(`shared: &s [x, y]\nagain: [*s, *s]\ndeep: ${nested}`);
    expect(load(text).load().card.status).toBe("pending");
  });

  it.each([
    [
      "an alias bomb (nine levels of nine aliases)",
      withExtra(
        [
          "l0: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]",
          ...Array.from(
            { length: 8 },
            (_, i) => `l${i + 1}: &l${i + 1} [${Array(9).fill(`*l${i}`).join(", ")}]`,
          ),
        ].join("\n"),
      ),
      /YAML aliases \(\*name\) expand more than the card limit of 20 times/,
    ],
    [
      "flow lists nested 33 levels",
      withExtra(`deep: ${"[".repeat(33)}1${"]".repeat(33)}`),
      /nests maps and lists deeper than the card limit of 32 levels/,
    ],
    [
      "flow lists nested 100,000 levels",
      withExtra(`deep: ${"[".repeat(100_000)}${"]".repeat(100_000)}`),
      /deeper than the card limit of 32 levels/,
    ],
    [
      "block maps nested 40 levels",
      withExtra(
        `deep:\n${Array.from({ length: 40 }, (_, i) => `${" ".repeat(i + 1)}k${i}:`).join("\n")} end`,
      ),
      /deeper than the card limit of 32 levels/,
    ],
    [
      "an alias to an anchor that comes later",
      withExtra("early: *late\nlater: &late [1]"),
      /its YAML (does not parse|does not resolve)/,
    ],
  ])("refuses %s with the limit it breaks", (_what, text, reason) => {
    expect(reasonOf(text)).toMatch(reason);
  });

  it("refuses card text over 256 KiB, even when handed over without a file", () => {
    const parsed = parseQuestion(pendingCardText(selectCard(), "\u00e9".repeat(140_000)));
    expect(parsed).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/262144-byte card limit/),
    });
  });
});

describe("the codec: a rewrite touches only the fields it sets", () => {
  const handWritten = [
    "---",
    "# Filed by the intake agent; do not reorder.",
    "status: pending",
    "prompt: 'Where do photographed receipts belong?'",
    "memo: >-",
    "  A receipt came in at intake",
    "  and no rule says where receipts go.",
    "x-intake-batch: 17   # unknown key, kept",
    "input:",
    "  type: select",
    "  options:",
    "    - { id: finance, label: Finance }",
    "    - { id: taxes, label: Taxes }",
    "directive: Move the held receipt into the chosen folder.",
    `asked-at: "${T0}"`,
    "x-notes:",
    "  - first",
    "  - second",
    "---",
    "# Receipt 17",
    "",
    "![receipt](receipt-17.jpg)   <- body, untouched",
    "",
  ].join("\n");

  it("keeps unknown keys, comments, quoting and the body byte-for-byte when answering", async () => {
    const id = "codec-answer";
    writeCardFile(tb.dir, id, handWritten);
    await answerQuestion(tb, id, { text: "Taxes" }, { via: "cli" });
    const expected = handWritten
      .replace("status: pending\n", "status: answered\n")
      .replace(
        "  - second\n---\n",
        `  - second\nanswer:\n  text: Taxes\n  selected: taxes\nanswered-at: ${T0}\nanswered-via: cli\n---\n`,
      );
    expect(readBoxFile(tb.dir, questionRel(id))).toBe(expected);
  });

  it("removes the stale field of a dismissed card without touching its neighbours", async () => {
    const id = "codec-dismissed";
    writeCardFile(tb.dir, id, handWritten);
    await dismissQuestion(tb, id, { via: "cli" });
    const afterDismiss = readBoxFile(tb.dir, questionRel(id));
    expect(afterDismiss).toBe(
      handWritten
        .replace("status: pending\n", "status: dismissed\n")
        .replace("  - second\n---\n", `  - second\ndismissed-at: ${T0}\n---\n`),
    );
    await answerQuestion(tb, id, { text: "a" }, { via: "web", by: "owner" });
    expect(readBoxFile(tb.dir, questionRel(id))).toBe(
      handWritten
        .replace("status: pending\n", "status: answered\n")
        .replace(
          "  - second\n---\n",
          `  - second\nanswer:\n  text: Finance\n  selected: finance\nanswered-at: ${T0}\nanswered-via: web\nanswered-by: owner\nanswered-after: dismissed\n---\n`,
        ),
    );
  });

  it("sets and removes keys in place, keeping the comment line that follows a removed key", () => {
    const text = [
      "---",
      "status: dismissed # old",
      "dismissed-at: 2026-07-11T09:00:00Z",
      "# about priority",
      "priority: high",
      "---",
      "body",
    ].join("\n");
    expect(rewriteCardText(text, { status: "pending", "dismissed-at": undefined })).toBe(
      ["---", "status: pending # old", "# about priority", "priority: high", "---", "body"].join(
        "\n",
      ),
    );
  });

  it("keeps a CRLF card's line endings, its byte-order mark and the comment on its status line when answering", async () => {
    const id = "codec-crlf-bom";
    const original = `\uFEFF${handWritten.replace("status: pending", "status: pending   # set by ask").replace(/\n/g, "\r\n")}`;
    writeFileSync(join(tb.dir, questionRel(id)), original);
    await answerQuestion(tb, id, { text: "Taxes" }, { via: "cli" });
    const expected = original
      .replace("status: pending   # set by ask\r\n", "status: answered   # set by ask\r\n")
      .replace(
        "  - second\r\n---\r\n",
        `  - second\r\nanswer:\r\n  text: Taxes\r\n  selected: taxes\r\nanswered-at: ${T0}\r\nanswered-via: cli\r\n---\r\n`,
      );
    expect(readFileSync(join(tb.dir, questionRel(id)))).toEqual(Buffer.from(expected, "utf8"));
    expect(loadQuestion(tb, id).card).toMatchObject({
      status: "answered",
      answer: { text: "Taxes" },
    });
  });

  it("keeps a comment on a replaced key's line without taking a '#' inside a quoted value", () => {
    const text = [
      "---",
      "status: 'pending # not a comment' # a comment",
      "answer: # what was said",
      "  text: old",
      "---",
      "",
    ].join("\n");
    expect(rewriteCardText(text, { status: "answered", answer: { text: "new" } })).toBe(
      [
        "---",
        "status: answered # a comment",
        "answer: # what was said",
        "  text: new",
        "---",
        "",
      ].join("\n"),
    );
  });

  it.each([
    [
      "a flow map",
      "{ status: pending, prompt: 'Where?', memo: m, directive: d, asked-at: '2026-07-10T09:00:00Z',\n  input: { type: select, options: [{ id: a1, label: A }, { id: b1, label: B }] }, x-kept: 7 }\n",
    ],
    [
      "an indented block map",
      "  status: pending\n  prompt: 'Where?'\n  memo: m\n  directive: d\n  asked-at: '2026-07-10T09:00:00Z'\n  input: { type: select, options: [{ id: a1, label: A }, { id: b1, label: B }] }\n  x-kept: 7\n",
    ],
  ])(
    "answers a card whose front matter is %s, keeping every field and the body",
    async (_layout, front) => {
      const id = `codec-layout-${++n}`;
      writeCardFile(tb.dir, id, `---\n${front}---\nThe body.\n`);
      await answerQuestion(tb, id, { text: "b" }, { via: "cli" });
      const { card } = loadQuestion(tb, id);
      expect(card).toMatchObject({
        status: "answered",
        prompt: "Where?",
        memo: "m",
        directive: "d",
        "x-kept": 7,
        answer: { text: "B", selected: "b1" },
      });
      expect(readBoxFile(tb.dir, questionRel(id))).toMatch(/\n---\nThe body\.\n$/);
    },
  );

  it("adds new keys at the end of front matter that has no trailing newline", () => {
    expect(rewriteCardText("---\nstatus: pending\n---", { "expired-at": T0 })).toBe(
      `---\nstatus: pending\nexpired-at: ${T0}\n---`,
    );
  });
});
