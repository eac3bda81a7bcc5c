// Reads the imports of the project's own TypeScript files for the layering test: every static
// import, re-export, type-only import and dynamic `import("...")`, with relative paths resolved
// to paths from the repository's root. Package imports (`zod`, `node:fs`) are left out.

import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import ts from "typescript";

/** One import: `from` imports `to`, both paths from the repository's root with `/` separators. */
export interface Import {
  from: string;
  to: string;
}

/** Every .ts file under `dir`, as absolute paths. */
export function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? sourceFiles(join(dir, entry.name))
      : entry.name.endsWith(".ts")
        ? [join(dir, entry.name)]
        : [],
  );
}

/** The relative imports of every .ts file under `dirs` (folders of `root`). */
export function readImports(root: string, dirs: string[]): Import[] {
  const path = (file: string) => relative(root, file).split("\\").join("/");
  return dirs
    .flatMap((dir) => sourceFiles(join(root, dir)))
    .flatMap((file) =>
      ts
        .preProcessFile(readFileSync(file, "utf8"), true, true)
        .importedFiles.map((imported) => imported.fileName)
        .filter((name) => name.startsWith("."))
        .map((name) => ({
          from: path(file),
          to: path(resolve(dirname(file), name.replace(/\.js$/, ".ts"))),
        })),
    );
}

/**
 * The import cycles: one cycle, as a list of files that ends where it starts, for every group
 * of files that reach each other (a file importing itself is a group of one).
 */
export function findCycles(imports: Import[]): string[][] {
  const next = new Map<string, string[]>();
  for (const { from, to } of imports) next.set(from, [...(next.get(from) ?? []), to]);
  return stronglyConnected(next)
    .filter(([first = "", ...others]) => others.length > 0 || next.get(first)?.includes(first))
    .map((group) => cycleThrough(group, next));
}

/** Tarjan's strongly connected components of the graph `next`. */
export function stronglyConnected(next: Map<string, string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const groups: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, index.size);
    low.set(node, index.get(node) as number);
    stack.push(node);
    onStack.add(node);
    for (const to of next.get(node) ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(node, Math.min(low.get(node) as number, low.get(to) as number));
      } else if (onStack.has(to)) {
        low.set(node, Math.min(low.get(node) as number, index.get(to) as number));
      }
    }
    if (low.get(node) === index.get(node)) {
      const group: string[] = [];
      let member: string;
      do {
        member = stack.pop() as string;
        onStack.delete(member);
        group.push(member);
      } while (member !== node);
      groups.push(group.sort());
    }
  };
  for (const node of [...next.keys()].sort()) if (!index.has(node)) visit(node);
  return groups;
}

/** The shortest cycle from the group's first file back to it, staying inside the group. */
function cycleThrough(group: string[], next: Map<string, string[]>): string[] {
  const inGroup = new Set(group);
  const start = group[0] as string;
  const cameFrom = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const node = queue.shift() as string;
    for (const to of next.get(node) ?? []) {
      if (to === start) {
        const path = [node];
        while (path[0] !== start) path.unshift(cameFrom.get(path[0] as string) as string);
        return [...path, start];
      }
      if (inGroup.has(to) && !cameFrom.has(to)) {
        cameFrom.set(to, node);
        queue.push(to);
      }
    }
  }
  return [start, start];
}
