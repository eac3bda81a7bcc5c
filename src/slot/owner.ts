// Who the boxholder is on each surface, and the one-time pairing codes that bind one. A code is
// made for one surface and pairs on that one only (a Telegram code binds nobody on another
// surface); it is shown once (by `qbridge pair`), stored only as a hash, valid ten minutes, and used once. A
// bound boxholder is replaced only by a code made for that (`qbridge pair --replace`), and a
// sender who keeps sending wrong codes is told once to wait, then not answered until the
// window has passed: a guess costs the guesser, never the boxholder.

import { createHash, randomInt } from "node:crypto";
import type { Db } from "../ledger/ledger.ts";

export const PAIRING_LIFETIME_MS = 10 * 60_000;
/** Refused codes a sender may send within the window before being told to wait. */
export const PAIRING_TRIES = 5;
export const PAIRING_WINDOW_MS = 15 * 60_000;
const ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";

export interface Owner {
  userId: string;
  boundAt: string;
  boundBy: string;
}

export type PairingCheck = { ok: true } | { ok: false; reason: "unknown" | "used" | "expired" };

/**
 * A /start CODE, decided: bound (and whom it replaced), or refused with why. `limit` is the one
 * refusal that says to wait; `silent` ones are not answered at all.
 */
export type Pairing =
  | { ok: true; replaced: Owner | undefined }
  | {
      ok: false;
      reason: "unknown" | "used" | "expired" | "owner-set" | "limit" | "silent";
    };

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

  /**
   * Makes a code such as "K7QX-M2PD" for `surface`, valid for ten minutes from `now`. Only a
   * `replace` code binds someone while a boxholder is bound.
   */
  newPairingCode(
    surface: string,
    now: Date,
    options: { replace?: boolean } = {},
  ): { code: string; expiresAt: string } {
    let raw = "";
    for (let i = 0; i < 8; i++) raw += ALPHABET[randomInt(ALPHABET.length)];
    const code = `${raw.slice(0, 4)}-${raw.slice(4)}`;
    const expiresAt = new Date(now.getTime() + PAIRING_LIFETIME_MS).toISOString();
    this.db
      .prepare(
        "INSERT INTO pairing_codes (code_hash, surface, created_at, expires_at, replaces) VALUES (?, ?, ?, ?, ?)",
      )
      .run(hash(code), surface, now.toISOString(), expiresAt, options.replace ? 1 : 0);
    return { code, expiresAt };
  }

  /** A code made for `surface`; one made for another surface is not known here. */
  private codeRow(surface: string, code: string) {
    return this.db
      .prepare("SELECT * FROM pairing_codes WHERE code_hash = ? AND surface = ?")
      .get(hash(code), surface) as
      | { replaces: number; expires_at: string; used_at: string | null }
      | undefined;
  }

  /** Uses a code once: the check and the use are one statement, so a code binds one user. */
  usePairingCode(surface: string, code: string, userId: string, now: Date): PairingCheck {
    const key = hash(code);
    const row = this.codeRow(surface, code);
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

  /**
   * One /start CODE from `userId` on `surface`, in one transaction: the rate limit, the code,
   * whether it may replace the bound boxholder, then the binding.
   */
  pair(surface: string, code: string, userId: string, now: Date): Pairing {
    return this.db.transaction((): Pairing => {
      const at = now.toISOString();
      const since = new Date(now.getTime() - PAIRING_WINDOW_MS).toISOString();
      this.db.prepare("DELETE FROM pairing_refusals WHERE at < ?").run(since);
      const refuse = (reason: Exclude<Pairing, { ok: true }>["reason"]): Pairing => {
        this.db
          .prepare("INSERT INTO pairing_refusals (surface, actor, at) VALUES (?, ?, ?)")
          .run(surface, userId, at);
        return { ok: false, reason };
      };
      const { refused } = this.db
        .prepare(
          "SELECT count(*) AS refused FROM pairing_refusals WHERE surface = ? AND actor = ? AND at >= ?",
        )
        .get(surface, userId, since) as { refused: number };
      // Past the limit the code is not even looked at, so guessing gains nothing.
      if (refused >= PAIRING_TRIES) return refuse(refused === PAIRING_TRIES ? "limit" : "silent");
      const row = this.codeRow(surface, code);
      const owner = this.get(surface);
      const replacing = owner !== undefined && owner.userId !== userId;
      const usable = row && !row.used_at && new Date(row.expires_at).getTime() > now.getTime();
      // A good plain code meets a bound boxholder: it stays unused and binds nobody.
      if (usable && replacing && row.replaces !== 1) return refuse("owner-set");
      const check = this.usePairingCode(surface, code, userId, now);
      if (!check.ok) return refuse(check.reason);
      this.bind(surface, userId, at, replacing ? "pairing code (replace)" : "pairing code");
      return { ok: true, replaced: replacing ? owner : undefined };
    })();
  }
}
