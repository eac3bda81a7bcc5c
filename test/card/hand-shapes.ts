// Front matter as a person might write it around the usual shape, from a seeded generator:
// maps and lists at the right indent and now and then one off, plain, quoted and block values
// whose further lines, blank lines and block headers vary (indicators, chomping, deeper or
// shallower lines). Most are valid YAML the writer would never produce; some are not YAML.

import type { Random } from "./card-shapes.ts";

const PIECES = ["a", "b", "a", "b", " ", " ", "  ", "#", ":", "'", "''", '"', "\\", "\\n"]
  .concat(["\\ ", "\\x41", "-", "\u2028", "\u0085", "x", "1", ".", "~", "|", ">", "[", "{"])
  .concat(["&", "*", "!", "%", "?"]);
const KEYS = ["a", "b", "c", "id", "a"];

export function handFront(random: Random): string {
  const spaces = (n: number) => " ".repeat(Math.max(0, n));
  const word = () => {
    let text = "";
    for (let n = random.int(6); n >= 0; n--) text += random.pick(PIECES);
    return text;
  };
  const blank = (indent: number) => (random.chance(0.5) ? "" : spaces(random.int(indent + 3)));
  /** Lines that go on from a value's first line, indented about `indent`. */
  const further = (indent: number, close: string) => {
    const lines: string[] = [];
    for (let n = random.int(4); n > 0; n--) {
      lines.push(
        random.chance(0.3)
          ? blank(indent)
          : spaces(indent + random.pick([0, 0, 0, -1, 1, 2])) + word(),
      );
    }
    if (lines.length > 0) lines[lines.length - 1] += close;
    return lines;
  };
  const scalar = (indent: number): string[] => {
    const form = random.int(5);
    if (form === 0) return [word(), ...(random.chance(0.5) ? further(indent, "") : [])];
    if (form === 1 || form === 2) {
      const quote = form === 1 ? "'" : '"';
      const rest = further(indent, quote);
      return [quote + word() + (rest.length > 0 ? "" : quote), ...rest];
    }
    const header = random.pick(["|", ">"]) + random.pick(["", "", "2", "1"]);
    const lines = [header + random.pick(["", "-", "+"])];
    for (let n = 1 + random.int(5); n > 0; n--) {
      lines.push(
        random.chance(0.25)
          ? blank(indent)
          : spaces(indent + random.pick([0, 0, 0, 1, 2, -1])) + word(),
      );
    }
    return lines;
  };
  const out: string[] = [];
  const entry = (prefix: string, indent: number, depth: number) => {
    const roll = random.int(10);
    if (depth < 4 && roll < 2) map(indent, depth + 1, prefix);
    else if (depth < 4 && roll < 4) list(indent, depth + 1, `${prefix}- `);
    else {
      const [first, ...rest] = scalar(indent);
      out.push(prefix + first, ...rest);
    }
  };
  const map = (indent: number, depth: number, first?: string) => {
    for (let n = 1 + random.int(3); n > 0; n--) {
      const at = first ?? spaces(indent + (random.chance(0.05) ? random.pick([-1, 1]) : 0));
      first = undefined;
      const key = `${at}${random.pick(KEYS)}:`;
      if (depth < 4 && random.chance(0.3)) {
        out.push(key);
        if (random.chance(0.2)) out.push(blank(indent));
        if (random.chance(0.5)) list(indent + 2, depth + 1);
        else map(indent + 2, depth + 1);
      } else if (random.chance(0.1)) out.push(key + random.pick(["", " []", " {}"]));
      else entry(`${key} `, indent + 2, depth);
      if (random.chance(0.1)) out.push(blank(indent));
    }
  };
  const list = (indent: number, depth: number, first?: string) => {
    for (let n = 1 + random.int(3); n > 0; n--) {
      entry(first ?? `${spaces(indent)}- `, indent + 2, depth);
      first = undefined;
    }
  };
  map(0, 1);
  return `${out.join("\n")}\n`;
}
