// Card-shaped data for the usual-front tests, from a seeded generator (the same cards on every
// run): the fields cards carry, nested as cards nest them, with strings drawn from the
// characters and words that make YAML quote, escape, fold or retype a value. Also the yaml
// path the reader must agree with, as codec.ts reads a card without it.

import { parseDocument } from "yaml";
import { CARD_LIMITS } from "../../src/card/codec.ts";

/** A small seeded generator (mulberry32): deterministic, bounded, fast. */
export function seeded(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (below: number) => Math.floor(next() * below);
  const pick = <T>(items: readonly T[]): T => items[int(items.length)] as T;
  return { next, int, pick, chance: (p: number) => next() < p };
}
export type Random = ReturnType<typeof seeded>;

const WORDS = ["receipt", "the", "backup", "finance", "a", "is", "question", "Zürich", "naïve"];
/** Pieces that each change how YAML writes or reads a string. */
const NASTY = [
  '"',
  "'",
  ": ",
  ":",
  "#",
  " #",
  "- ",
  "-",
  "? ",
  "?",
  ", ",
  "[",
  "]",
  "{",
  "}",
  "&a",
  "*a",
  "!tag",
  "|",
  ">",
  "%",
  "@",
  "`",
  "\\",
  "\\n",
  "\n",
  "\n\n",
  "\n  ",
  " \n",
  "\t",
  "  ",
  "\u{1F600}",
  "\u2028",
  "\u2029",
  "\u00a0",
  "\u0085",
  "\u0001",
  "\u007f",
  "\ufeff",
  "\ud800",
  "\u00e9",
  "\u4e2d\u6587",
  "---",
  "...",
  "true",
  "null",
  "~",
  "42",
  "-7",
  "0x1F",
  "0o17",
  "1e3",
  ".5",
  ".inf",
  "2026-12-01T04:20:26Z",
  "2026-12-01",
  "x".repeat(130),
];
/** Whole values that read as something other than text when unquoted. */
const LOOKALIKES = [
  "",
  " ",
  "true",
  "False",
  "TRUE",
  "yes",
  "no",
  "on",
  "null",
  "Null",
  "~",
  "0",
  "-0",
  "+7",
  "007",
  "42",
  "123456789012345678",
  "0x1F",
  "0o17",
  "0b101",
  "1e3",
  "1.5",
  "1.",
  ".5",
  "-.inf",
  ".NaN",
  "1_000",
  "12:30",
  "2026-12-01",
  "2026-12-01T04:20:26Z",
  "---",
  "...",
  "- a",
  "#x",
  "a: b",
  "[]",
  "{}",
  "[a]",
  "{a: 1}",
  "*x",
  "&x y",
  "!x",
  "|",
  ">",
  "'",
  '"',
  "@a",
  "%YAML",
];

export function nastyString(random: Random): string {
  if (random.chance(0.1)) return random.pick(LOOKALIKES);
  if (random.chance(0.25)) {
    // Long prose, to fold past the writer's 100 columns.
    return Array.from({ length: 5 + random.int(50) }, () =>
      random.chance(0.08) ? random.pick(NASTY) : random.pick(WORDS),
    ).join(" ");
  }
  let text = "";
  for (let n = random.int(8); n >= 0; n--) {
    text += random.chance(0.35) ? random.pick(NASTY) : random.pick(WORDS);
    if (random.chance(0.5)) text += " ";
  }
  return random.chance(0.1) ? ` ${text}` : text;
}

function scalar(random: Random): unknown {
  const roll = random.int(20);
  if (roll === 0) return random.int(2000) - 1000;
  if (roll === 1) return random.chance(0.5);
  if (roll === 2) return null;
  if (roll === 3) return random.pick([1.5, -0.25, 1e21, 2 ** 53, -0, 0, Number.MAX_SAFE_INTEGER]);
  return nastyString(random);
}

/** Any value, nested up to `depth` more levels. */
function value(random: Random, depth: number): unknown {
  if (depth <= 0 || random.chance(0.6)) return scalar(random);
  if (random.chance(0.1)) return random.chance(0.5) ? [] : {};
  if (random.chance(0.5)) {
    return Array.from({ length: 1 + random.int(4) }, () => value(random, depth - 1));
  }
  const map: Record<string, unknown> = {};
  for (let n = 1 + random.int(4); n > 0; n--) map[random.pick(KEYS)] = value(random, depth - 1);
  return map;
}

const KEYS = ["id", "label", "text", "ref", "note", "x-extra", "x_notes", "a.b", "y", "n"];

/** A card's fields, as ask, answer and the other transitions write them, plus unknown keys. */
export function cardData(random: Random): Record<string, unknown> {
  const text = () => nastyString(random);
  const card: Record<string, unknown> = {
    status: random.pick(["pending", "answered", "dismissed", "expired", "withdrawn"]),
    prompt: text(),
    memo: text(),
    input: random.chance(0.5)
      ? { type: "select", options: Array.from({ length: 2 + random.int(3) }, () => option()) }
      : { type: random.pick(["text", "confirm"]) },
    directive: text(),
    "asked-at": "2026-12-01T04:20:26Z",
  };
  function option() {
    return { id: random.pick(["finance", "_other", "a.b-1", "yes"]), label: text() };
  }
  if (random.chance(0.4)) card.learning = { sink: "guide", ref: text(), proposal: text() };
  if (random.chance(0.3)) card.context = [{ ref: text(), text: text() }, { ref: text() }];
  if (random.chance(0.3)) card.tasks = Array.from({ length: random.int(4) }, text);
  if (random.chance(0.3)) card.priority = random.pick(["high", "medium", "low"]);
  if (random.chance(0.3)) card["expires-after"] = random.pick(["P3D", "PT12H", "P1W"]);
  if (random.chance(0.3)) card.irreversible = random.chance(0.5);
  if (random.chance(0.5)) card.answer = { text: text(), selected: "finance", note: text() };
  if (random.chance(0.3)) card["answered-at"] = "2026-12-01T04:21:41Z";
  for (let n = random.int(3); n > 0; n--) card[`x-${random.pick(KEYS)}`] = value(random, 4);
  return card;
}

/** The nesting of maps and lists in plain data, counted as codec.ts counts it. */
function depthOfData(data: unknown): number {
  if (data === null || typeof data !== "object") return 0;
  const inner = Object.values(data).map(depthOfData);
  return 1 + Math.max(0, ...inner);
}

/**
 * What codec.ts's yaml path makes of a front matter: the data, or "error" where it refuses
 * the card (a YAML error, nesting over the limit, not a map of fields).
 */
export function yamlPath(front: string): { data: unknown } | "error" {
  try {
    const doc = parseDocument(front, { uniqueKeys: true, prettyErrors: false });
    if (doc.errors.length > 0) return "error";
    const data = doc.toJS({ maxAliasCount: CARD_LIMITS.aliases });
    if (data === null || typeof data !== "object" || Array.isArray(data)) return "error";
    return depthOfData(data) > CARD_LIMITS.depth ? "error" : { data };
  } catch {
    return "error";
  }
}
