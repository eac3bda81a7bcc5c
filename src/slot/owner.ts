// Who the boxholder is on each surface, and the one-time pairing codes that bind one. A code is
// shown once (by `qbridge pair`), stored only as a hash, valid ten minutes, and used once.

import { createHash, randomInt } from "node:crypto";
import type { Db } from "../ledger/ledger.ts";

export const PAIRING_LIFETIME_MS = 10 * 60_000;
const ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";

export interface Owner {
  userId: string;
  boundAt: string;
  boundBy: string;
}

export type PairingCheck = { ok: true } | { ok: false; reason: "unknown" | "used" | "expired" };

function hash(code: string): string {
  const normal = code.replace(/[\s-]/g, "").toUpperCase();
  return createHash("sha256").update(`qbridge-pairing:${normal}`).digest("hex");
}

export class Owners {
  constructor(private readonly db: Db) {}

  get(surface: string): Owner | undefined {
    const row = this.db.prepare("SELECT * FROM owners WHERE surface = ?").get(surface) as
      | { user_id: string; bound_at: string; bound_by: string }
      | undefined;
    return row ? { userId: row.user_id, boundAt: row.bound_at, boundBy: row.bound_by } : undefined;
  }

  bind(surface: string, userId: string, at: string, by: string): void {
    this.db
      .prepare(
        `INSERT INTO owners (surface, user_id, bound_at, bound_by) VALUES (?, ?, ?, ?)
         ON CONFLICT(surface) DO UPDATE SET user_id = excluded.user_id, bound_at = excluded.bound_at, bound_by = excluded.bound_by`,
      )
      .run(surface, userId, at, by);
  }

  /** Makes a code such as "K7QX-M2PD", valid for ten minutes from `now`. */
  newPairingCode(now: Date): { code: string; expiresAt: string } {
    let raw = "";
    for (let i = 0; i < 8; i++) raw += ALPHABET[randomInt(ALPHABET.length)];
    const code = `${raw.slice(0, 4)}-${raw.slice(4)}`;
    const expiresAt = new Date(now.getTime() + PAIRING_LIFETIME_MS).toISOString();
    this.db
      .prepare("INSERT INTO pairing_codes (code_hash, created_at, expires_at) VALUES (?, ?, ?)")
      .run(hash(code), now.toISOString(), expiresAt);
    return { code, expiresAt };
  }

  /** Uses a code once: the check and the use are one statement, so a code binds one user. */
  usePairingCode(code: string, userId: string, now: Date): PairingCheck {
    const key = hash(code);
    const row = this.db.prepare("SELECT * FROM pairing_codes WHERE code_hash = ?").get(key) as
      | { expires_at: string; used_at: string | null }
      | undefined;
    if (!row) return { ok: false, reason: "unknown" };
    if (row.used_at) return { ok: false, reason: "used" };
    if (new Date(row.expires_at).getTime() <= now.getTime())
      return { ok: false, reason: "expired" };
    const used = this.db
      .prepare(
        "UPDATE pairing_codes SET used_at = ?, used_by = ? WHERE code_hash = ? AND used_at IS NULL",
      )
      .run(now.toISOString(), userId, key);
    return used.changes === 1 ? { ok: true } : { ok: false, reason: "used" };
  }
}
