// The outcome and the question as the client's users see them: plain types with no runtime,
// so the client imports nothing. test/agent/client.test.ts holds them equal to the core's
// QuestionOutcome (src/questions/outcome.ts) at compile time.

export type OutcomeStatus = "pending" | "answered" | "dismissed" | "expired" | "withdrawn";

export interface QuestionOutcome {
  id: string;
  status: OutcomeStatus;
  /**
   * `selected`: the option id picked (`yes`/`no` for confirm); a multiselect's ids joined by
   * commas ("unit,lint"), with `text` their labels joined by ", ".
   */
  answer?: { text: string; selected?: string | undefined; note?: string | undefined } | undefined;
  answeredVia?: string | undefined;
  answeredBy?: string | undefined;
  askedAt: string;
  answeredAt?: string | undefined;
  waitedSeconds: number;
  /** Answered after it was dismissed or expired. */
  late: boolean;
  link?: string | undefined;
  jobRel?: string | undefined;
  heldUntil?: string | undefined;
}

/** A question as an agent files it (the card's asker fields, in the card's own spelling). */
export interface NewQuestion {
  prompt: string;
  memo: string;
  input: {
    type: "select" | "multiselect" | "confirm" | "text";
    /** select and multiselect: at least 2, unique ids, labels unique ignoring case. */
    options?: { id: string; label: string }[];
  };
  directive: string;
  learning?: { sink: "guide" | "briefing" | "personality"; proposal: string; ref?: string };
  context?: { ref: string; text?: string }[];
  recommended?: string;
  "while-waiting"?: string;
  irreversible?: boolean;
  priority?: "high" | "medium" | "low";
  "expires-after"?: string;
  tasks?: string[];
  "asked-by"?: string;
  /** An http(s) URL the outcome is POSTed to (signed) on each change; needs webhooks on. */
  callback?: string;
  id?: string;
}

/** The follow-up job an answer wrote (docs/AGENTS.md, "The follow-up job"). */
export interface FollowUpJob {
  /** Its path in the box. */
  rel: string;
  /** Its fields, in the file's own spelling. */
  job: {
    type: "question-followup";
    status: "pending" | "done";
    "question-ref": string;
    "question-id": string;
    prompt: string;
    directive: string;
    answer: { text: string; selected?: string; note?: string };
    learning?: { sink: "guide" | "briefing" | "personality"; proposal: string; ref?: string };
    "answered-at": string;
    "answered-via": string;
    "answered-by"?: string;
    "answered-after"?: "dismissed" | "expired";
    tasks?: string[];
    "created-at": string;
    [field: string]: unknown;
  };
  /** The steps to take, as the job file states them. */
  instructions: string;
}
