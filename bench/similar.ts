// Answer memory at 10,000 cards (99% answered): the similar-question lookup an ask makes (the
// memory brought up to the card index, the FTS5 candidates read and scored) beside the bare
// FTS5 query it runs, as a ratio; then the ask transition with and without that lookup.

import { rmSync } from "node:fs";
import { AnswerMemoryStore } from "../src/ledger/answer-memory.ts";
import { askQuestion } from "../src/questions/ask.ts";
import {
  meaningfulWords,
  similarForAsk,
  similarQuestions,
  syncAnswerMemory,
} from "../src/questions/similar.ts";
import { pendingQuestions } from "../src/questions/state.ts";
import { loadQuestion } from "../src/questions/store.ts";
import { buildBox } from "./fixture.ts";
import { row, sample, timeIt } from "./stats.ts";

const COUNT = Number(process.env.BENCH_SIMILAR_CARDS ?? 10_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 25);

function askCard(i: number): Record<string, unknown> {
  return {
    prompt: `Where should receipt ${COUNT + i} go?`,
    memo: `Receipt ${COUNT + i} arrived at intake and no rule says where receipts go.`,
    input: {
      type: "select",
      options: [
        { id: "finance", label: "Finance" },
        { id: "taxes", label: "Taxes" },
        { id: "_other", label: "Somewhere else" },
      ],
    },
    directive: "Move the receipt into the chosen folder.",
  };
}

export async function benchSimilar(): Promise<string[]> {
  process.stderr.write(`building a box of ${COUNT} cards for the answer memory…\n`);
  const { core, dir } = await buildBox(COUNT, 2);
  const lines: string[] = [];
  // The card index is built by the first scan, the memory by the first lookup (both once).
  pendingQuestions(core);
  const build = await timeIt(() => syncAnswerMemory(core));
  const store = new AnswerMemoryStore(core.ledger.db);
  lines.push(`answer memory built from ${store.size()} answered cards in ${build.toFixed(0)} ms`);

  const { id } = await askQuestion(core, askCard(0));
  const card = loadQuestion(core, id).card;
  const words = [...new Set([...meaningfulWords(card.prompt), ...meaningfulWords(card.memo)])];
  const found = similarQuestions(core, card, id);
  const lookup = await sample(RUNS, () => similarQuestions(core, card, id));
  const bare = await sample(RUNS, () => store.matchIds(words, 30));
  lines.push(
    row(`similar lookup @${COUNT} (${found.length} found)`, lookup, "bare FTS5 query", bare),
  );

  // Interleaved, so both see the same box and the same load on the machine.
  let n = 1;
  const withLookup: number[] = [];
  const without: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    withLookup.push(
      await timeIt(async () => {
        const asked = await askQuestion(core, askCard(n++));
        similarForAsk(core, asked.id, asked.card);
      }),
    );
    without.push(await timeIt(() => askQuestion(core, askCard(n++))));
  }
  lines.push(row(`ask + similar @${COUNT}`, withLookup, "ask alone", without));

  core.ledger.close();
  rmSync(dir, { recursive: true, force: true });
  return lines;
}
