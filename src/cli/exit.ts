// The one place errors become exit codes and a one-sentence message on stderr.
// 0 ok, 1 usage or validation, 2 not found, 3 rejected transition, 4 the box is broken or
// unusable (no box, git failing, the disk full or read-only, a ledger from a newer qbridge, the
// card asked for broken by hand), so a script can tell "fix your call" from "fix the box"; 78 (EX_CONFIG) a bridge that cannot go
// on as configured (a bot token another poller holds, or that its surface refuses), so a
// supervisor does not restart into the same conflict or the same bad token.
// `qbridge wait` ends with 0 when answered, and 10-13 for what else it found (WAIT_EXIT).

import {
  BoxError,
  BridgeFailed,
  CardUnreadable,
  GrantNotFound,
  InvalidInput,
  QbridgeError,
  QuestionNotFound,
  TransitionRejected,
} from "../errors.ts";
import { writeErr, writeOut } from "./output.ts";

export const EXIT = { ok: 0, usage: 1, notFound: 2, rejected: 3, box: 4, conflict: 78 } as const;

/** `qbridge wait`: the exit code for each status the wait can end on. */
export const WAIT_EXIT = {
  answered: 0,
  pending: 10,
  dismissed: 11,
  expired: 12,
  withdrawn: 13,
} as const;

export function exitCodeOf(error: unknown): number {
  if (error instanceof BridgeFailed) return EXIT.conflict;
  if (error instanceof TransitionRejected) return EXIT.rejected;
  if (error instanceof QuestionNotFound || error instanceof GrantNotFound) return EXIT.notFound;
  if (error instanceof BoxError) return EXIT.box;
  // The id was right and the card is there: its file is what needs fixing, not the call.
  if (error instanceof CardUnreadable) return EXIT.box;
  if (error instanceof InvalidInput) return EXIT.usage;
  return EXIT.usage;
}

export function messageOf(error: unknown): string {
  if (error instanceof QbridgeError) return error.message;
  if (error instanceof Error) return `unexpected failure: ${error.message}`;
  return `unexpected failure: ${String(error)}`;
}

export function errorJson(error: unknown): {
  error: { code: string; message: string; current?: string };
} {
  const code = error instanceof QbridgeError ? error.name : "Error";
  const current = error instanceof TransitionRejected ? error.current : undefined;
  return { error: { code, message: messageOf(error), ...(current ? { current } : {}) } };
}

/** A command's failure as every command reports it: the error's JSON on stdout with --json,
 * one line per problem on stderr (settings report every problem at once), the exit code. */
export function reportFailure(error: unknown, json: boolean): void {
  if (json) writeOut(`${JSON.stringify(errorJson(error))}\n`);
  for (const line of messageOf(error).split("\n")) writeErr(`qbridge: ${line}\n`);
  process.exitCode = exitCodeOf(error);
}
