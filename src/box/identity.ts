// A box's identity as processes compare it without naming its path: the first 16 hex digits of
// the SHA-256 of its real path. `/healthz` sends it (a header), and `qbridge hook doctor`
// compares it with the box an installed hook asks in. Pure reading of the path; never a secret.

import { createHash } from "node:crypto";
import { realpathSync } from "node:fs";

/** The header of a service's /healthz that names the box it serves (its identity). */
export const BOX_HEADER = "Qbridge-Box";

export function boxIdentity(root: string): string {
  let real: string;
  try {
    real = realpathSync(root);
  } catch {
    real = root;
  }
  return createHash("sha256").update(real).digest("hex").slice(0, 16);
}
