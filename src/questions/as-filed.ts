// The version of a question as it was filed: the fingerprint (src/card/fingerprint.ts) of the
// card the commit that added it holds. An answer that names no version is read against the card
// as filed; once the card was edited since, a letter or a label may mean another option than
// the asker saw, and the judge asks for the version instead. Reads git; never writes.

import { questionFingerprint } from "../card/fingerprint.ts";
import { parseQuestion } from "../card/load.ts";
import type { Core } from "./core.ts";

/**
 * The fingerprint of the card as its first commit holds it; undefined when git has no commit
 * of it (a card written by hand and never committed: it is as filed) or that text no longer
 * reads as a card.
 */
export async function filedFingerprint(core: Core, rel: string): Promise<string | undefined> {
  const added = await core.box.git.raw([
    "log",
    "--diff-filter=A",
    "--reverse",
    "--format=%H",
    "--",
    rel,
  ]);
  const commit = added
    .split("\n")
    .find((line) => /^[0-9a-f]{40}$/.test(line.trim()))
    ?.trim();
  if (!commit) return undefined;
  const text = await core.box.git.raw(["show", `${commit}:${rel}`]);
  const parsed = parseQuestion(text);
  return parsed.ok ? questionFingerprint(parsed.card) : undefined;
}
