// The box's link key (.qbridge/secret) for a command that reads the box: a read-only box that
// was never served has none, and making one there fails. `show` then gives its outcome without
// a link rather than fail as a whole; `link` says why it has none.

import type { Box } from "../box/box.ts";
import { BoxError } from "../errors.ts";

const WRITE_REFUSED = new Set(["EROFS", "EACCES", "EPERM"]);

/** The key, or undefined when there is none and the box refuses the write that would make it. */
export function linkSecretIfAny(load: () => Buffer): Buffer | undefined {
  try {
    return load();
  } catch (error) {
    if (WRITE_REFUSED.has((error as NodeJS.ErrnoException).code ?? "")) return undefined;
    throw error;
  }
}

export function noLinkSecret(box: Box): BoxError {
  return new BoxError(
    `${box.paths.root} is read-only and has no link key yet (.qbridge/secret): make a link once where the box is writable, or where "qbridge serve" runs`,
  );
}
