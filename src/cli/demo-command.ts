// `qbridge demo`: files three sample questions, one of each input type, so a new box has
// something to answer. Filed like any agent's (one commit each); running it again while they
// are open files nothing new.

import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import type { Command } from "commander";
import { initBox } from "../box/box.ts";
import { BoxPaths, QUESTIONS_DIR } from "../box/paths.ts";
import { BoxError } from "../errors.ts";
import { askQuestion } from "../questions/ask.ts";
import { type CommonOptions, configFor, printJson, withCore } from "./context.ts";
import { writeOut } from "./output.ts";

export const DEMO_QUESTIONS: Record<string, unknown>[] = [
  {
    prompt: "Where should photographed receipts go?",
    memo: "A photo of a receipt arrived at intake and no rule says where receipts belong. (A sample question from qbridge demo.)",
    input: {
      type: "select",
      options: [
        { id: "finance", label: "Finance" },
        { id: "taxes", label: "Taxes" },
        { id: "_other", label: "Somewhere else" },
      ],
    },
    learning: {
      sink: "guide",
      ref: "/_config/finance.guide.card",
      proposal: "Photographed receipts belong in the chosen folder.",
    },
    recommended: "finance",
    "while-waiting": "The receipt stays in intake.",
    directive: "Move the receipt into the chosen folder.",
    "asked-by": "qbridge-demo",
  },
  {
    prompt: "May I delete backups older than a year?",
    memo: "The backup disk is 95% full; backups older than a year take half of it. (A sample question from qbridge demo.)",
    input: { type: "confirm" },
    recommended: "yes",
    directive: "Delete backups older than a year if allowed; otherwise keep them.",
    "asked-by": "qbridge-demo",
  },
  {
    prompt: "What should the new contact at +41 79 000 00 00 be called?",
    memo: "A contact arrived without a name. (A sample question from qbridge demo.)",
    input: { type: "text" },
    directive: "Save the name on the contact card.",
    "asked-by": "qbridge-demo",
  },
];

export function registerDemoCommand(program: Command): void {
  program
    .command("demo")
    .description("file three sample questions (select, confirm, text) to try answering")
    .option("--box <dir>", "the box directory (default: $QBRIDGE_BOX or ./box; made when missing)")
    .option("--json", "print machine-readable JSON")
    .option("--init", "make the folder a box even when it holds other files")
    .addHelpText(
      "after",
      `
Then answer them with "qbridge chat", on Telegram while "qbridge serve" runs, or on the web page.
Running demo again while they are open files nothing new. A missing or empty folder is made a
box; a folder with other files in it only with --init.

Example:
  qbridge demo && qbridge chat`,
    )
    .action(async (options: CommonOptions & { init?: boolean }) => {
      const config = configFor(options);
      const made = await boxForDemo(config.boxDir, options.init ?? false);
      await withCore(options, async (core) => {
        const filed = [];
        for (const card of DEMO_QUESTIONS) {
          const result = await askQuestion(core, card, { unlessOpen: true, via: "cli" });
          filed.push({
            id: result.id,
            type: result.card.input.type,
            deduplicated: result.deduplicated,
          });
        }
        if (options.json) return printJson({ box: config.boxDir, made, questions: filed });
        if (made.length) writeOut(`made a box at ${config.boxDir}: ${made.join(", ")}\n`);
        for (const q of filed) {
          writeOut(`${q.deduplicated ? "already open" : "asked"} ${q.id} (${q.type})\n`);
        }
        writeOut(
          'Answer them with "qbridge chat", on Telegram while "qbridge serve" runs, or on the web page.\n',
        );
      });
    });
}

/**
 * The box the demo files into: made when the folder is missing or empty; a folder holding other
 * things is made a box only when asked (--init), since that puts a git repository in it.
 * Returns what was done to make it.
 */
async function boxForDemo(dir: string, init: boolean): Promise<string[]> {
  const paths = new BoxPaths(dir);
  const isBox = existsSync(join(paths.root, ".git")) && existsSync(paths.questionsDir);
  if (isBox) return [];
  if (!existsSync(dir) || readdirSync(dir).length === 0 || init) return initBox(dir);
  throw new BoxError(
    `${paths.root} is not empty and is not a box: run "qbridge demo --init" to make it one (a git repository with ${QUESTIONS_DIR}/), or point --box at another folder`,
  );
}
