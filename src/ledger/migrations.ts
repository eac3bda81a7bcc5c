// The ledger's schema, one step per version. A step is never edited once released: a change
// is a new step. `PRAGMA user_version` records how many have run.

export const MIGRATIONS: string[] = [
  // 1: nudge latch, answer audit, and the card index that keeps `list` from parsing every card.
  `
  CREATE TABLE nudges (
    question_id TEXT PRIMARY KEY,
    nudged_at   TEXT NOT NULL,
    state       TEXT NOT NULL CHECK (state IN ('claimed', 'sent'))
  );
  CREATE TABLE audit (
    seq         INTEGER PRIMARY KEY AUTOINCREMENT,
    at          TEXT NOT NULL,
    question_id TEXT,
    surface     TEXT NOT NULL,
    actor       TEXT,
    action      TEXT NOT NULL,
    verbatim    TEXT,
    resolved_to TEXT,
    outcome     TEXT NOT NULL,
    detail      TEXT
  );
  CREATE INDEX audit_question ON audit (question_id, seq);
  CREATE TABLE card_index (
    name        TEXT PRIMARY KEY,
    mtime_ns    TEXT NOT NULL,
    size        INTEGER NOT NULL,
    id          TEXT NOT NULL,
    status      TEXT,
    error       TEXT,
    sort_key    TEXT,
    summary     TEXT
  );
  CREATE INDEX card_index_status ON card_index (status);
  CREATE TABLE meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
  );
  `,
];
