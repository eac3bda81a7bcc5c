// The ledger's schema, one step per version. A step is never edited once released: a change
// is a new step. `PRAGMA user_version` records how many have run.
// Over 250 lines: the steps are one append-only list, read in order, so they stay in one file.

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
    mtime       TEXT NOT NULL,
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
  // 2: the decision slot and the bridges: presentations, parks, button tokens, what the
  // bridges received (update ids, callback outcomes, refused chats), the boxholder binding and
  // one-time pairing codes.
  `
  CREATE TABLE presentations (
    seq          INTEGER PRIMARY KEY AUTOINCREMENT,
    question_id  TEXT NOT NULL,
    surface      TEXT NOT NULL,
    state        TEXT NOT NULL
                 CHECK (state IN ('queued', 'presented', 'resolved', 'parked', 'superseded')),
    chat_id      TEXT,
    message_id   TEXT,
    card_hash    TEXT NOT NULL,
    created_at   TEXT NOT NULL,
    presented_at TEXT,
    closed_at    TEXT,
    outcome      TEXT
  );
  CREATE INDEX presentations_question ON presentations (question_id, seq);
  CREATE INDEX presentations_message ON presentations (surface, chat_id, message_id);
  CREATE UNIQUE INDEX presentations_one_open ON presentations (state)
    WHERE state IN ('queued', 'presented');
  CREATE TABLE parks (
    question_id TEXT PRIMARY KEY,
    parked_at   TEXT NOT NULL,
    seq         INTEGER NOT NULL
  );
  CREATE TABLE button_tokens (
    token            TEXT PRIMARY KEY,
    presentation_seq INTEGER,
    question_id      TEXT NOT NULL,
    card_hash        TEXT NOT NULL,
    action           TEXT NOT NULL,
    option_id        TEXT,
    label            TEXT,
    chat_id          TEXT NOT NULL,
    message_id       TEXT,
    created_at       TEXT NOT NULL,
    used_at          TEXT,
    used_reply       TEXT
  );
  CREATE INDEX button_tokens_presentation ON button_tokens (presentation_seq);
  CREATE TABLE callback_outcomes (
    callback_id TEXT PRIMARY KEY,
    token       TEXT,
    actor       TEXT,
    outcome     TEXT NOT NULL,
    reply       TEXT NOT NULL,
    at          TEXT NOT NULL
  );
  CREATE TABLE processed_updates (
    key TEXT PRIMARY KEY,
    at  TEXT NOT NULL
  );
  CREATE TABLE refused_chats (
    surface TEXT NOT NULL,
    chat_id TEXT NOT NULL,
    at      TEXT NOT NULL,
    PRIMARY KEY (surface, chat_id)
  );
  CREATE TABLE owners (
    surface  TEXT PRIMARY KEY,
    user_id  TEXT NOT NULL,
    bound_at TEXT NOT NULL,
    bound_by TEXT NOT NULL
  );
  CREATE TABLE pairing_codes (
    code_hash  TEXT PRIMARY KEY,
    created_at TEXT NOT NULL,
    expires_at TEXT NOT NULL,
    used_at    TEXT,
    used_by    TEXT
  );
  `,
  // 3: whether a closed presentation's message was updated to say so. The edit can fail (the
  // chat service down) or never run (the process killed first); the slot retries until it
  // lands, across restarts. Rows closed before this step count as told.
  `
  ALTER TABLE presentations ADD COLUMN told_at TEXT;
  ALTER TABLE presentations ADD COLUMN tell_tries INTEGER NOT NULL DEFAULT 0;
  UPDATE presentations SET told_at = closed_at WHERE state NOT IN ('queued', 'presented');
  `,
  // 4: the answer webhooks' outbox. One row per transition and receiver (`key` is
  // "<question id>:<status>"), kept until a 2xx or until it gives up; `next_try_at` is wall
  // time in ms (retries wait in real time), `created_at` the box clock (the give-up window).
  `
  CREATE TABLE webhook_deliveries (
    seq          INTEGER PRIMARY KEY AUTOINCREMENT,
    key          TEXT NOT NULL,
    url          TEXT NOT NULL,
    body         TEXT NOT NULL,
    created_at   TEXT NOT NULL,
    tries        INTEGER NOT NULL DEFAULT 0,
    next_try_at  INTEGER NOT NULL,
    last_error   TEXT,
    delivered_at TEXT,
    gave_up_at   TEXT
  );
  CREATE UNIQUE INDEX webhook_deliveries_once ON webhook_deliveries (key, url);
  CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_try_at)
    WHERE delivered_at IS NULL AND gave_up_at IS NULL;
  `,
  // 5: the process that holds a presentation whose screen lives only as long as that process
  // (a terminal's chat), so that another process can take the slot over once it is gone.
  `
  ALTER TABLE presentations ADD COLUMN holder TEXT;
  `,
  // 6: pairing that cannot be guessed at or slip past the boxholder: a code says whether it may
  // replace a bound boxholder (qbridge pair --replace), and each refused /start is kept for the
  // rate limit per sender (rows older than its window are pruned).
  `
  ALTER TABLE pairing_codes ADD COLUMN replaces INTEGER NOT NULL DEFAULT 0;
  CREATE TABLE pairing_refusals (
    surface TEXT NOT NULL,
    actor   TEXT NOT NULL,
    at      TEXT NOT NULL
  );
  CREATE INDEX pairing_refusals_actor ON pairing_refusals (surface, actor, at);
  `,
  // 7: "Later": a question the boxholder put off stays out of the slot until `until` (box
  // clock, ISO). The card is untouched; losing this row only brings the question back sooner.
  `
  CREATE TABLE later (
    question_id TEXT PRIMARY KEY,
    until       TEXT NOT NULL,
    chosen_at   TEXT NOT NULL
  );
  `,
  // 8: triage offers: the recommendations a digest listed for accepting, each question with the
  // fingerprint of its card as listed, kept until the confirming tap (once: `decided_at`) and
  // its result (what was recorded and what was skipped), which a second tap replays.
  `
  CREATE TABLE triage_offers (
    id         TEXT PRIMARY KEY,
    surface    TEXT NOT NULL,
    items      TEXT NOT NULL,
    created_at TEXT NOT NULL,
    decided_at TEXT,
    result     TEXT
  );
  `,
  // 9: answer memory. One row per answered question (what the prompt, memo, asker and options
  // were, and the answer), and an FTS5 index over the prompts and memos, so a new question finds
  // the answered ones like it (src/questions/similar.ts). Rebuilt from the cards when lost.
  `
  CREATE TABLE answer_memory (
    question_id TEXT PRIMARY KEY,
    prompt      TEXT NOT NULL,
    memo        TEXT NOT NULL,
    asked_by    TEXT,
    input_type  TEXT NOT NULL,
    option_ids  TEXT NOT NULL,
    answer_text TEXT NOT NULL,
    selected    TEXT,
    answered_at TEXT NOT NULL
  );
  CREATE VIRTUAL TABLE answer_memory_text USING fts5(
    question_id UNINDEXED, prompt, memo, tokenize = 'unicode61 remove_diacritics 2'
  );
  `,
  // 10: a pairing code is made for one surface and pairs on that one only. A code made before
  // this step names none and pairs nobody (codes live ten minutes: qbridge pair makes another).
  `
  ALTER TABLE pairing_codes ADD COLUMN surface TEXT NOT NULL DEFAULT '';
  `,
  // 11: finding a card by id (an ask's "is this id taken?", a card in a subfolder) reads one
  // index row, not every card of the box; a scan's stamps (name, mtime, size) are read from an
  // index of their own, not from the rows that hold every card's JSON.
  `
  CREATE INDEX card_index_id ON card_index (id);
  CREATE INDEX card_index_stamps ON card_index (name, mtime, size);
  `,
  // 12: the deadline a presentation showed ("Expires in 5 days"), so a question given more time
  // elsewhere (qbridge extend, the web, the API) is shown again with its new one. Rows from
  // before have none and are left as they are.
  `
  ALTER TABLE presentations ADD COLUMN deadline TEXT;
  `,
  // 13: coding-agent permissions. A grant ("Allow for this session") lets one agent session
  // run one tool on one pattern (a command's first words, a file's folder) until it expires or
  // is revoked; each use counts. A permission request row says the permission path filed that
  // question for that request, so only such a question is waited on again by a retry.
  `
  CREATE TABLE grants (
    id           TEXT PRIMARY KEY,
    agent        TEXT NOT NULL,
    session_id   TEXT NOT NULL,
    tool         TEXT NOT NULL,
    pattern      TEXT NOT NULL,
    question_id  TEXT,
    created_at   TEXT NOT NULL,
    expires_at   TEXT NOT NULL,
    revoked_at   TEXT,
    uses         INTEGER NOT NULL DEFAULT 0,
    last_used_at TEXT
  );
  CREATE INDEX grants_session ON grants (agent, session_id, tool);
  CREATE TABLE permission_requests (
    question_id TEXT PRIMARY KEY,
    agent       TEXT NOT NULL,
    session_id  TEXT,
    request_key TEXT NOT NULL,
    filed_at    TEXT NOT NULL
  );
  CREATE INDEX permission_requests_key ON permission_requests (request_key);
  `,
  // 14: agent tasks: the durable handle an MCP client holds on a question it asked as a task
  // (the Tasks extension), so tasks/get and tasks/result work after a restart. The task's
  // status is read from the question's card; a row keeps only what the card does not say (the
  // tool, and what its result is made of besides the outcome). Losing a row loses the handle,
  // never the question or its answer.
  `
  CREATE TABLE agent_tasks (
    task_id     TEXT PRIMARY KEY,
    question_id TEXT,
    tool        TEXT NOT NULL,
    basis       TEXT NOT NULL,
    created_at  TEXT NOT NULL,
    ttl_ms      INTEGER
  );
  CREATE INDEX agent_tasks_created ON agent_tasks (created_at, task_id);
  `,
  // 15: a multi-select's picks on its presentation: the options the boxholder toggled on, as
  // their ids joined by commas, until Send records them. Only the judge writes them; losing
  // them loses taps not yet sent, never an answer.
  `
  ALTER TABLE presentations ADD COLUMN picks TEXT;
  `,
  // 16: what a permission request asks, whatever its session or call (the agent, the tool, the
  // exact input, hashed): "Last time" is offered on a permission only from the same request.
  // Rows filed before it have none, and are never taken for the same request.
  `
  ALTER TABLE permission_requests ADD COLUMN input_key TEXT;
  `,
  // 17: the second channel: a presentation may be a second showing of the slot's open one on
  // another surface (second_of names it), judged like any presentation. Only first showings
  // hold the slot; a first showing gets at most one second per surface.
  `
  ALTER TABLE presentations ADD COLUMN second_of INTEGER;
  DROP INDEX presentations_one_open;
  CREATE UNIQUE INDEX presentations_one_open ON presentations (state)
    WHERE state IN ('queued', 'presented') AND second_of IS NULL;
  CREATE UNIQUE INDEX presentations_one_second ON presentations (second_of, surface)
    WHERE second_of IS NOT NULL;
  `,
];
