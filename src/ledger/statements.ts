// A ledger's prepared statements, made once per connection and reused. better-sqlite3 frees a
// statement's native memory (SQLite's compiled program) only when the garbage collector
// finalizes its JavaScript object, which it does late, as it does not see that memory: a
// service that prepared a dozen statements per request piled them up in malloc between two
// major collections, and the freed holes stayed in the process.

import type Database from "better-sqlite3";
import type { Statement } from "better-sqlite3";

type Db = Database.Database;

/** At most this many statements are kept per connection (the product has about 80). */
export const KEPT_STATEMENTS = 200;

/** Makes `db.prepare` hand back the statement it made before for the same SQL text. */
export function reuseStatements(db: Db): Db {
  const prepare = db.prepare.bind(db) as (source: string) => Statement;
  const kept = new Map<string, Statement>();
  const reused = (source: string): Statement => {
    const statement = kept.get(source);
    // A statement whose iterator is still open cannot run twice at once: a fresh one, then.
    if (!statement || statement.busy) return statement ? prepare(source) : keep(source);
    kept.delete(source);
    kept.set(source, statement);
    // Each caller sets the rows' shape it wants (raw, pluck); the default is objects.
    if (statement.reader) statement.pluck(false).expand(false).raw(false);
    return statement;
  };
  const keep = (source: string): Statement => {
    const statement = prepare(source);
    if (kept.size >= KEPT_STATEMENTS) {
      const oldest = kept.keys().next().value;
      if (oldest !== undefined) kept.delete(oldest);
    }
    kept.set(source, statement);
    return statement;
  };
  db.prepare = reused as Db["prepare"];
  return db;
}
