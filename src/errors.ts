// Named errors of the core. Each carries a message a person can act on; the CLI, the API
// and the bridges map them to exit codes, HTTP codes and replies, each in one place.

export class QbridgeError extends Error {
  override name = "QbridgeError";
}

/** A request that does not fit: bad flags, a malformed card, an unknown option. */
export class InvalidInput extends QbridgeError {
  override name = "InvalidInput";
}

export class InvalidId extends InvalidInput {
  override name = "InvalidId";
  constructor(readonly id: string) {
    super(
      `"${id}" is not a question id: ids use letters, digits, '.', '_' and '-' only, no '..' and no path separators`,
    );
  }
}

export class InvalidAnswer extends InvalidInput {
  override name = "InvalidAnswer";
  constructor(
    readonly given: string,
    readonly expected: string,
  ) {
    super(`"${given}" does not answer this question: expected ${expected}`);
  }
}

export class QuestionNotFound extends QbridgeError {
  override name = "QuestionNotFound";
  constructor(
    readonly id: string,
    /** The closest ids there are, when the id looks like a slip. */
    readonly near: string[] = [],
  ) {
    const closest = near.length ? `; the closest: ${near.join(", ")}` : "";
    super(`no question "${id}" in this box${closest}: run "qbridge list --all" to see the ids`);
  }
}

export class GrantNotFound extends QbridgeError {
  override name = "GrantNotFound";
  constructor(readonly id: string) {
    super(`no grant "${id}" in this box: run "qbridge grants" to see the ids`);
  }
}

export class CardUnreadable extends QbridgeError {
  override name = "CardUnreadable";
  constructor(
    readonly path: string,
    readonly reason: string,
  ) {
    super(
      `${path} cannot be read as a card: ${reason}; fix the file by hand (it is never rewritten)`,
    );
  }
}

export class TransitionRejected extends QbridgeError {
  override name = "TransitionRejected";
  constructor(
    readonly id: string,
    readonly action: string,
    /** The card's status (one of card/lifecycle.ts's STATUSES). */
    readonly current: string,
    readonly detail: string,
  ) {
    super(
      `cannot ${action} question "${id}": it is already ${current}${detail ? ` (${detail})` : ""}`,
    );
  }
}

/**
 * A question a coding agent's hook filed (a permission request, a form), answered or declined
 * where nothing proves the boxholder (the API, MCP, the CLI, piped input, a link handed to an
 * asker): whoever acts there could approve their own request.
 */
export class NotOwnSurface extends QbridgeError {
  override name = "NotOwnSurface";
  constructor(
    readonly id: string,
    /** The surface, and why it proves no boxholder: "api", "terminal (piped input, ...)". */
    readonly via: string,
  ) {
    super(
      `question "${id}" was filed by a coding agent's hook: it is answered only by the boxholder, on Telegram, in qbridge chat or on its signed web page, not through ${via}`,
    );
  }
}

/**
 * An allow of a coding agent's request from a surface that showed only part of it (a phone
 * shows a long command's head and tail): it is allowed only where it is shown whole.
 */
export class NotShownWhole extends QbridgeError {
  override name = "NotShownWhole";
}

/**
 * The aging sweep found a question past its deadline, but the card it then held under the lock
 * has a later one (an extension or a hand edit landed in between): it stays pending.
 */
export class DeadlineMoved extends TransitionRejected {
  override name = "DeadlineMoved";
  constructor(id: string, expiresAfter: string | undefined) {
    super(id, "expire", "pending", "");
    this.message = `question "${id}" is no longer due to expire: its deadline moved (expires-after ${expiresAfter ?? "the default 30 days"}) while the aging sweep ran`;
  }
}

/** The box is not usable: not initialised, git failing, the disk refusing writes. */
export class BoxError extends QbridgeError {
  override name = "BoxError";
}

/**
 * A lock guarding a change was lost before the change was committed (its folder removed, or not
 * refreshed in time on a stalled machine): another process may hold it now, so the change stops
 * and is undone rather than race that process.
 */
export class LockLost extends BoxError {
  override name = "LockLost";
  constructor(
    readonly lock: string,
    readonly why: string,
  ) {
    super(
      `the lock ${lock} was lost before the change was committed (${why}; another process may hold it now): nothing was changed, try again`,
    );
  }
}

/** A write on a box that cannot be written (a read-only mount): reading still works. */
export class BoxReadOnly extends BoxError {
  override name = "BoxReadOnly";
  constructor(readonly root: string) {
    super(
      `${root} is read-only: list, show, waiting, jobs and doctor work, but asking, answering, dismissing, expiring and repairs need a writable box; make it writable and try again`,
    );
  }
}

/** The disk failed to give a card's bytes (permissions, I/O): the card is not gone, not bad. */
export class CardReadFailed extends BoxError {
  override name = "CardReadFailed";
  constructor(
    readonly path: string,
    readonly code: string,
  ) {
    super(
      `${path} could not be read from disk (${code}): the disk or the file's permissions failed, not the card; fix them and try again`,
    );
  }
}

/** The ledger's schema is newer than this qbridge knows: a newer version wrote it. */
export class LedgerTooNew extends BoxError {
  override name = "LedgerTooNew";
  constructor(
    readonly path: string,
    readonly found: number,
    readonly known: number,
  ) {
    super(
      `the ledger ${path} was written by a newer qbridge (schema ${found}, this one knows ${known}): run that newer qbridge, or move the file aside to start a fresh ledger (old buttons go stale and a nudge may repeat; no answer is lost)`,
    );
  }
}

/** A tap or form made for one version of a question, arriving after its prompt or options changed. */
export class CardChanged extends TransitionRejected {
  override name = "CardChanged";
  constructor(id: string, action: string) {
    super(id, action, "pending", "");
    this.message = `cannot ${action} question "${id}": its prompt or options were edited since it was shown; nothing was recorded, look at it again`;
  }
}

/**
 * An answer that names no version of the card, by a letter or a label, to a card edited since it
 * was asked: the letter or label may now mean another option than the one the asker saw. It is
 * taken with the version (`hash`, named as the surface names it: --expect, If-Match) or by the
 * option's id.
 */
export class VersionNeeded extends TransitionRejected {
  override name = "VersionNeeded";
  constructor(
    id: string,
    readonly hash: string,
    /** How the surface names a version: "--expect", "If-Match". */
    say: string,
  ) {
    super(id, "answer", "pending", "");
    this.message = `question "${id}" was edited since it was asked, so a letter or a label may now mean another option than the one you read: read it again and pass its version, ${say} ${hash}, or the option's id`;
  }
}

/**
 * A bridge cannot go on as configured: its surface refuses the settings (a revoked token) or
 * another service holds them. `qbridge serve` ends with the sentence and EX_CONFIG (78), so a
 * supervisor does not restart into the same refusal. Each bridge names its own subclasses.
 */
export class BridgeFailed extends QbridgeError {
  override name = "BridgeFailed";
}

/** Settings or flags that do not pass the schema: every problem, one sentence each. */
export class SettingsInvalid extends InvalidInput {
  override name = "SettingsInvalid";
  constructor(readonly problems: string[]) {
    super(problems.join("\n"));
  }
}
