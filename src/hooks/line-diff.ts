// The lines a settings file gains and loses, as `-`/`+` lines with a line of context around
// each change, for `qbridge hook install` to print what it wrote. Pure. Settings files are a
// few hundred lines at most; the table below is their product, computed once.

/** A diff of two texts: unchanged lines as "  ", removed "- ", added "+ ". */
export function lineDiff(before: string, after: string): string[] {
  const a = before === "" ? [] : before.split("\n");
  const b = after.split("\n");
  // lcs[i][j]: the longest common subsequence of a[i..] and b[j..].
  const lcs = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      const row = lcs[i] as number[];
      row[j] =
        a[i] === b[j]
          ? ((lcs[i + 1] as number[])[j + 1] as number) + 1
          : Math.max((lcs[i + 1] as number[])[j] as number, row[j + 1] as number);
    }
  }
  const lines: string[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      lines.push(`  ${a[i]}`);
      i++;
      j++;
    } else if (
      j < b.length &&
      (i >= a.length ||
        ((lcs[i] as number[])[j + 1] as number) >= ((lcs[i + 1] as number[])[j] as number))
    ) {
      lines.push(`+ ${b[j]}`);
      j++;
    } else {
      lines.push(`- ${a[i]}`);
      i++;
    }
  }
  return withContext(lines, 1);
}

/** Only the changed lines and `around` unchanged ones on each side; "…" where lines are left out. */
function withContext(lines: string[], around: number): string[] {
  const keep = lines.map((line) => !line.startsWith("  "));
  const shown = lines.map((_, k) =>
    keep.slice(Math.max(0, k - around), k + around + 1).some(Boolean),
  );
  const out: string[] = [];
  for (const [k, line] of lines.entries()) {
    if (shown[k]) out.push(line);
    else if (out.at(-1) !== "  …") out.push("  …");
  }
  return out;
}
