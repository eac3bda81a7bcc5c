// The box's link key (.qbridge/secret) where the box may refuse to make one: a read-only box
// that was never served has none, and making one there fails. `show` then gives its outcome
// without a link rather than fail as a whole, `link` says why it has none, and `web` serves the
// API with its pages off (each says why) rather than stop at start.

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

/** What `web` says at start when it serves without pages (the API and /mcp still read). */
export function pagesOff(box: Box): string {
  return `${box.paths.root} is read-only and has no link key yet (.qbridge/secret), so no link can open a page: make the box writable, or run "qbridge link --questions" once where it is, and start again`;
}

/** `web` with no key and no API token would serve nothing: it stops at start instead. */
export function nothingToServe(box: Box): BoxError {
  return new BoxError(
    `${box.paths.root} is read-only and has no link key yet (.qbridge/secret), and the API is off, so the web page would serve nothing: make the box writable, or run "qbridge link --questions" once where it is, or set QBRIDGE_API_TOKEN to serve the API alone`,
  );
}
