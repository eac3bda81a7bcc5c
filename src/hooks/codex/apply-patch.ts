// What a Codex `apply_patch` call changes, file by file, read from the patch text Codex puts
// in `tool_input.command` (openai/codex PR #18391). The format is Codex's own, documented in
// codex-rs/apply-patch/apply_patch_tool_instructions.md:
//   *** Begin Patch / *** Add File: <path> (then "+" lines) / *** Delete File: <path> /
//   *** Update File: <path> [*** Move to: <path>] then hunks ("@@" [header], lines starting
//   " ", "-" or "+", optionally "*** End of File") / *** End Patch.
// Like Codex's own parser, it finds the envelope inside a heredoc and passes over empty lines
// (in a hunk they are context). Pure; a text that is not a patch is an InvalidInput naming the line.

import { InvalidInput } from "../../errors.ts";

export type FileChange =
  | { kind: "add"; path: string; added: number }
  | { kind: "delete"; path: string }
  | { kind: "update"; path: string; moveTo: string | undefined; added: number; removed: number };

const BEGIN = "*** Begin Patch";
const END = "*** End Patch";
const HEADERS = {
  add: "*** Add File: ",
  delete: "*** Delete File: ",
  update: "*** Update File: ",
  move: "*** Move to: ",
} as const;
const END_OF_FILE = "*** End of File";

function notAPatch(why: string): InvalidInput {
  return new InvalidInput(`the apply_patch input is not a patch Codex documents: ${why}`);
}

/**
 * The lines between "*** Begin Patch" and the last "*** End Patch", with their line numbers.
 * As Codex reads them: a line ends at "\n" or "\r\n" only, and the patch at its last line, so
 * an end marker inside it (a context line, or after a lone "\r") hides no file after it.
 */
function envelope(text: string): { lines: string[]; first: number } {
  const lines = text.split("\n").map((line) => line.replace(/\r$/, ""));
  const begin = lines.findIndex((line) => line.trim() === BEGIN);
  if (begin < 0) throw notAPatch(`no "${BEGIN}" line`);
  const end = lines.map((line) => line.trim()).lastIndexOf(END);
  if (end <= begin) throw notAPatch(`no "${END}" line after "${BEGIN}"`);
  return { lines: lines.slice(begin + 1, end), first: begin + 2 };
}

function pathAfter(line: string, header: string, number: number): string {
  const path = line.slice(header.length).trim();
  if (path === "") throw notAPatch(`line ${number} names no file`);
  return path;
}

/** A file header starts the next change; undefined for a line that is not one. */
function header(line: string, number: number): FileChange | undefined {
  if (line.startsWith(HEADERS.add)) {
    return { kind: "add", path: pathAfter(line, HEADERS.add, number), added: 0 };
  }
  if (line.startsWith(HEADERS.delete)) {
    return { kind: "delete", path: pathAfter(line, HEADERS.delete, number) };
  }
  if (line.startsWith(HEADERS.update)) {
    const path = pathAfter(line, HEADERS.update, number);
    return { kind: "update", path, moveTo: undefined, added: 0, removed: 0 };
  }
  return undefined;
}

/** One line inside a file's change: counted where it belongs, refused where it cannot be. */
function bodyLine(change: FileChange, line: string, number: number, hunks: boolean): void {
  if (line.trim() === "") return;
  if (change.kind === "add" && line.startsWith("+")) {
    change.added++;
    return;
  }
  if (change.kind === "update") {
    if (line.startsWith(HEADERS.move) && !hunks) {
      change.moveTo = pathAfter(line, HEADERS.move, number);
      return;
    }
    if (line.startsWith("@@") || line === END_OF_FILE) return;
    if (line.startsWith("+")) change.added++;
    else if (line.startsWith("-")) change.removed++;
    else if (!line.startsWith(" ")) {
      throw notAPatch(`line ${number} of ${change.path} is neither context, "-" nor "+"`);
    }
    return;
  }
  throw notAPatch(`line ${number} does not belong to "${change.kind}" ${change.path}`);
}

/** The files a patch adds, deletes and updates (with moves), in the patch's order. */
export function parseApplyPatch(text: string): FileChange[] {
  const { lines, first } = envelope(text);
  const changes: FileChange[] = [];
  let hunks = false;
  lines.forEach((line, i) => {
    const number = first + i;
    const next = header(line, number);
    if (next) {
      changes.push(next);
      hunks = false;
      return;
    }
    const current = changes.at(-1);
    if (!current) {
      if (line.trim() === "") return;
      throw notAPatch(`line ${number} comes before any "*** Add/Delete/Update File:" line`);
    }
    bodyLine(current, line, number, hunks);
    if (line.startsWith("@@")) hunks = true;
  });
  if (changes.length === 0) throw notAPatch("it changes no file");
  return changes;
}

/** One line for a file, as the phone shows it: "update src/app.py → src/main.py (+1 -1)". */
export function changeLine(change: FileChange): string {
  switch (change.kind) {
    case "add":
      return `add ${change.path} (+${change.added})`;
    case "delete":
      return `delete ${change.path}`;
    case "update": {
      const moved = change.moveTo ? ` → ${change.moveTo}` : "";
      return `update ${change.path}${moved} (+${change.added} -${change.removed})`;
    }
  }
}

/** The question a patch asks: "Apply a patch to 3 files (+2 -1)?". */
export function patchSentence(changes: FileChange[]): string {
  const added = changes.reduce((n, c) => n + (c.kind === "delete" ? 0 : c.added), 0);
  const removed = changes.reduce((n, c) => n + (c.kind === "update" ? c.removed : 0), 0);
  const files = `${changes.length} file${changes.length === 1 ? "" : "s"}`;
  return `Apply a patch to ${files} (+${added} -${removed})?`;
}
