// Which sources of the CLI bundle (dist/cli.cjs) a process ran: from node's V8 coverage
// (NODE_V8_COVERAGE), every function that ran at least once, mapped through the bundle's
// source map to the file it came from. The bundle holds every command's code in one file, so
// what a command loads is what it runs, not which files it opens.

import { readdirSync, readFileSync } from "node:fs";
import Module, { SourceMap } from "node:module";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

interface Coverage {
  result: { url: string; functions: { ranges: { startOffset: number; count: number }[] }[] }[];
}

export function sourcesRun(coverageDir: string, bundle: string): string[] {
  // The launcher compiles the bundle inside node's CommonJS wrapper: offsets count from it.
  const text = Module.wrap(readFileSync(bundle, "utf8"));
  const lineStarts = [0];
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) lineStarts.push(i + 1);
  const position = (offset: number): [number, number] => {
    let low = 0;
    let high = lineStarts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if ((lineStarts[mid] as number) <= offset) low = mid;
      else high = mid - 1;
    }
    return [low, offset - (lineStarts[low] as number)];
  };
  const map = new SourceMap(JSON.parse(readFileSync(`${bundle}.map`, "utf8")));
  const url = pathToFileURL(bundle).href;
  const sources = new Set<string>();
  for (const file of readdirSync(coverageDir)) {
    const coverage = JSON.parse(readFileSync(join(coverageDir, file), "utf8")) as Coverage;
    for (const script of coverage.result.filter((s) => s.url === url)) {
      for (const fn of script.functions) {
        const range = fn.ranges[0];
        // The whole script (offset 0) always runs; each function inside it is what tells.
        if (!range || range.count === 0 || range.startOffset === 0) continue;
        const [line, column] = position(range.startOffset);
        const entry = map.findEntry(line, column) as { originalSource?: string };
        if (entry.originalSource) sources.add(entry.originalSource);
      }
    }
  }
  return [...sources];
}
