// Claude Code's AskUserQuestion, fed as documented (fixtures/claude-permission-askuserquestion-
// *.json): its questions become drafts in Claude's own words, and the boxholder's answers go
// back as Claude Code takes them, through today's Claude output, checked against its schema.

import { describe, expect, it } from "vitest";
import { InvalidAnswer, InvalidInput } from "../../../src/errors.ts";
import { permissionOutput } from "../../../src/hooks/agent-output.ts";
import {
  draftInput,
  draftLines,
  OWN_WORDS_LABEL,
  parseQuestionSet,
} from "../../../src/hooks/claude/ask-user-question.ts";
import {
  answerOfRecorded,
  answersDecision,
  type QuestionAnswer,
} from "../../../src/hooks/claude/question-answers.ts";
import { toolInputOf } from "../agent-fixtures.ts";
import { ClaudePermissionOutput } from "../agent-outputs.ts";

const ONE = "claude-permission-askuserquestion-one";
const MULTI = "claude-permission-askuserquestion-multiselect";
const FOUR = "claude-permission-askuserquestion-four";

/** The decision as Claude Code reads it: printed as today's hook prints it, checked. */
function printedDecision(set: ReturnType<typeof parseQuestionSet>, answers: QuestionAnswer[]) {
  const output = permissionOutput("claude", answersDecision(set, answers));
  return ClaudePermissionOutput.parse(output).hookSpecificOutput.decision;
}

function withQuestions(questions: unknown[]): Record<string, unknown> {
  return { questions };
}

const options = [
  { label: "A thing", description: "the first" },
  { label: "Another", description: "the second" },
];

describe("AskUserQuestion's questions become drafts in Claude's own words", () => {
  it("one question is one select: its text, header, labels and descriptions as given, own words last", () => {
    const set = parseQuestionSet(toolInputOf(ONE));
    expect(set.drafts).toHaveLength(1);
    const [draft] = set.drafts;
    expect(draft?.prompt).toBe("Which database should the service use?");
    expect(draft?.header).toBe("Database");
    expect(draft?.multi).toBe(false);
    expect(draft?.options.map((o) => [o.label, o.description])).toEqual([
      ["PostgreSQL", "A server: concurrent writers, full SQL, one more process to run"],
      ["SQLite", "A file next to the service: no server, one writer at a time"],
    ]);
    expect(draftInput(draft as never)).toEqual({
      type: "select",
      options: [
        { id: "option-1", label: "PostgreSQL" },
        { id: "option-2", label: "SQLite" },
        { id: "_other", label: OWN_WORDS_LABEL },
      ],
    });
    expect(draftLines(draft as never)).toEqual([
      "Database: Pick one.",
      "PostgreSQL: A server: concurrent writers, full SQL, one more process to run",
      "SQLite: A file next to the service: no server, one writer at a time",
      `${OWN_WORDS_LABEL}: your own words go back to Claude as the answer.`,
    ]);
  });

  it("a multiSelect question is a multiselect draft", () => {
    const [draft] = parseQuestionSet(toolInputOf(MULTI)).drafts;
    expect(draft?.multi).toBe(true);
    expect(draftInput(draft as never).type).toBe("multiselect");
    expect(draftLines(draft as never)[0]).toBe("Checks: Pick one or more.");
  });

  it("four questions are four drafts in the order asked", () => {
    const { drafts } = parseQuestionSet(toolInputOf(FOUR));
    expect(drafts.map((d) => [d.header, d.multi, d.options.length])).toEqual([
      ["Format", false, 2],
      ["Sections", true, 2],
      ["Library", false, 3],
      ["Notes", false, 4],
    ]);
  });

  it.each([
    ["no questions", withQuestions([]), "questions: 1 to 4 questions"],
    [
      "five questions",
      withQuestions(
        [1, 2, 3, 4, 5].map((n) => ({
          question: `Q${n}?`,
          header: "H",
          options,
          multiSelect: false,
        })),
      ),
      "questions: 1 to 4 questions",
    ],
    [
      "one option",
      withQuestions([{ question: "Q?", header: "H", options: options.slice(0, 1) }]),
      "questions.0.options: 2 to 4 options",
    ],
    [
      "a header over 12 characters",
      withQuestions([{ question: "Q?", header: "Much too long", options }]),
      "questions.0.header: a header has at most 12 characters",
    ],
    [
      "one label twice",
      withQuestions([{ question: "Q?", header: "H", options: [options[0], options[0]] }]),
      'offers the label "A thing" twice',
    ],
    [
      "one question twice",
      withQuestions([
        { question: "Q?", header: "H", options },
        { question: "Q?", header: "H2", options },
      ]),
      'asks "Q?" twice',
    ],
  ])("an input with %s is refused, naming what is wrong", (_what, input, message) => {
    expect(() => parseQuestionSet(input)).toThrow(InvalidInput);
    expect(() => parseQuestionSet(input)).toThrow(message);
  });
});

describe("the answers go back as Claude Code takes them", () => {
  it("a picked label is the answer to its question's text, with the input echoed as given", () => {
    const input = toolInputOf(ONE);
    const decision = printedDecision(parseQuestionSet(input), [{ labels: ["SQLite"] }]);
    expect(decision).toEqual({
      behavior: "allow",
      updatedInput: {
        questions: input.questions,
        answers: { "Which database should the service use?": "SQLite" },
      },
    });
  });

  it("a multi-select's labels are joined by \", \" in the options' order", () => {
    const set = parseQuestionSet(toolInputOf(MULTI));
    const decision = printedDecision(set, [{ labels: ["Type check", "Unit tests"] }]);
    expect(decision.behavior === "allow" && decision.updatedInput?.answers).toEqual({
      "Which checks should run before each commit?": "Unit tests, Type check",
    });
  });

  it("own words are the answer's text; beside a multi-select's labels they come last", () => {
    const one = printedDecision(parseQuestionSet(toolInputOf(ONE)), [
      { labels: [], ownWords: "  DuckDB, for the reports  " },
    ]);
    expect(one.behavior === "allow" && one.updatedInput?.answers).toEqual({
      "Which database should the service use?": "DuckDB, for the reports",
    });
    const multi = printedDecision(parseQuestionSet(toolInputOf(MULTI)), [
      { labels: ["Lint"], ownWords: "the e2e suite" },
    ]);
    expect(multi.behavior === "allow" && multi.updatedInput?.answers).toEqual({
      "Which checks should run before each commit?": "Lint, the e2e suite",
    });
  });

  it("four answered questions are four answers, and a note goes with its answer", () => {
    const decision = printedDecision(parseQuestionSet(toolInputOf(FOUR)), [
      { labels: ["Summary"] },
      { labels: ["Introduction", "Conclusion"] },
      { labels: ["Luxon"], note: "we already need time zones" },
      { labels: ["Both"] },
    ]);
    expect(decision.behavior === "allow" && decision.updatedInput).toMatchObject({
      answers: {
        "How should I format the output?": "Summary",
        "Which sections should I include?": "Introduction, Conclusion",
        "Which library should we use for date formatting?": "Luxon",
        "Where should the release notes go?": "Both",
      },
      annotations: {
        "Which library should we use for date formatting?": { notes: "we already need time zones" },
      },
    });
  });

  it("a partly answered set is refused, and nothing is sent", () => {
    const set = parseQuestionSet(toolInputOf(FOUR));
    const three = [{ labels: ["Summary"] }, { labels: ["Conclusion"] }, { labels: ["Luxon"] }];
    expect(() => answersDecision(set, three)).toThrow(
      "3 of the 4 questions are answered: Claude Code takes the set whole",
    );
    const unanswered = [...three, { labels: [] }];
    expect(() => answersDecision(set, unanswered)).toThrow(InvalidAnswer);
  });

  it("two picks for a single-select question, or a label it does not offer, are refused", () => {
    const set = parseQuestionSet(toolInputOf(ONE));
    expect(() => answersDecision(set, [{ labels: ["PostgreSQL", "SQLite"] }])).toThrow(
      "exactly one pick or own words",
    );
    expect(() => answersDecision(set, [{ labels: ["sqlite"] }])).toThrow(InvalidAnswer);
  });
});

describe("labels with hidden characters", () => {
  const input = withQuestions([
    {
      question: "Which files may I delete?",
      header: "Cleanup",
      multiSelect: true,
      options: [
        { label: "build/\u202Egpj.exe", description: "the old build" },
        { label: "Line one\nline two", description: "a label of two lines" },
      ],
    },
  ]);

  it("are spelled out on the card's options, as in its memo, and go back to Claude as given", () => {
    const set = parseQuestionSet(input);
    const [draft] = set.drafts;
    expect(draftInput(draft as never).options.map((o) => o.label)).toEqual([
      "build/<U+202E>gpj.exe",
      "Line one⏎line two",
      OWN_WORDS_LABEL,
    ]);
    const recorded = {
      text: "build/<U+202E>gpj.exe, Line one⏎line two, the logs too",
      selected: "option-1,option-2,_other",
    };
    const answer = answerOfRecorded(draft as never, recorded);
    const decision = printedDecision(set, [answer]);
    expect(decision.behavior === "allow" && decision.updatedInput?.answers).toEqual({
      "Which files may I delete?": "build/\u202Egpj.exe, Line one\nline two, the logs too",
    });
  });
});

describe("the answer a question's card recorded, read back for Claude", () => {
  const [single] = parseQuestionSet(toolInputOf(ONE)).drafts;
  const [multi] = parseQuestionSet(toolInputOf(MULTI)).drafts;

  it("the picked ids name Claude's labels", () => {
    expect(answerOfRecorded(single as never, { text: "SQLite", selected: "option-2" })).toEqual({
      labels: ["SQLite"],
      note: undefined,
    });
    expect(
      answerOfRecorded(multi as never, {
        text: "Unit tests, Type check",
        selected: "option-1,option-3",
        note: " fast ones first ",
      }),
    ).toEqual({ labels: ["Unit tests", "Type check"], note: "fast ones first" });
  });

  it("own words are the text, after a multi-select's picked labels", () => {
    expect(answerOfRecorded(single as never, { text: "DuckDB", selected: "_other" })).toEqual({
      labels: [],
      ownWords: "DuckDB",
      note: undefined,
    });
    expect(
      answerOfRecorded(multi as never, {
        text: "Lint, the e2e suite",
        selected: "option-2,_other",
      }),
    ).toEqual({ labels: ["Lint"], ownWords: "the e2e suite", note: undefined });
  });

  it("an id the draft does not have, or no pick at all, is refused", () => {
    expect(() => answerOfRecorded(single as never, { text: "x", selected: "option-9" })).toThrow(
      InvalidAnswer,
    );
    expect(() => answerOfRecorded(single as never, { text: "x" })).toThrow(InvalidAnswer);
  });
});
