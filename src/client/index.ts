// `question-bridge/client`: a small client for Node agents over the JSON API. It files a
// question, reads its outcome, waits for the owner (long polls of at most 50 s each, so no
// request meets a 60 s timeout), reads the follow-up job and withdraws. Global fetch only: no
// imports at run time.
// A wait that ends unanswered returns the outcome with status `pending`, never an error.

import type { FollowUpJob, NewQuestion, QuestionOutcome } from "./outcome.ts";

export type { FollowUpJob, NewQuestion, OutcomeStatus, QuestionOutcome } from "./outcome.ts";

export interface QuestionBridgeOptions {
  /** Where the web server is reached, e.g. http://127.0.0.1:8787 (no /api/v1). */
  url: string;
  /** QBRIDGE_API_TOKEN of the box's machine. */
  token: string;
  /** Another fetch (a proxy, a test); default the global one. */
  fetch?: typeof fetch;
}

export interface AskOptions {
  /** Default true: when a question with the same prompt is open, get it instead of a copy. */
  unlessOpen?: boolean;
  signal?: AbortSignal;
}

/** An answered question like the one asked (docs/AGENTS.md, "Answer memory"). */
export interface SimilarAnswer {
  id: string;
  prompt: string;
  /** The recorded answer's text. */
  answer: string;
  answeredAt: string;
  /** 0.5 to 1. */
  score: number;
}

export interface Asked {
  id: string;
  /** True when an open question with the same prompt was found and nothing was filed. */
  deduplicated: boolean;
  /** The owner's median seconds to answer at this hour; null until there are 10 such answers. */
  expectedWaitSeconds: number | null;
  /** Set when questions like this one keep being dismissed or expire: consider not asking. */
  hint: string | null;
  /** Answered questions like this one, best first: when one settles it, withdraw this one. */
  similar: SimilarAnswer[];
  /** Until when the question waits to be shown (quiet hours, the owner's "Later"). */
  heldUntil?: string | undefined;
}

export interface WaitOptions {
  /** Give up after this many seconds and return the outcome (then `pending`); default: no limit. */
  timeoutSeconds?: number;
  /** Aborting it rejects the wait with the signal's reason (an AbortError unless one was given). */
  signal?: AbortSignal;
}

/** An error the API answered: its HTTP status, its code, and a sentence saying what to do. */
export class QuestionBridgeError extends Error {
  override name = "QuestionBridgeError";
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** The question's status, when a transition was refused. */
    readonly current?: string,
  ) {
    super(message);
  }
}

/** One long poll waits at most this long, under the common 60 s request timeout. */
const POLL_SECONDS = 50;

const OUTCOME_KEYS = [
  "id",
  "status",
  "answer",
  "answeredVia",
  "answeredBy",
  "askedAt",
  "answeredAt",
  "waitedSeconds",
  "late",
  "link",
  "jobRel",
  "heldUntil",
] as const;

function outcomeIn(body: Record<string, unknown>): QuestionOutcome {
  const outcome: Record<string, unknown> = {};
  for (const key of OUTCOME_KEYS) if (body[key] !== undefined) outcome[key] = body[key];
  return outcome as unknown as QuestionOutcome;
}

export class QuestionBridge {
  readonly #base: string;
  readonly #token: string;
  readonly #fetch: typeof fetch;

  constructor(options: QuestionBridgeOptions) {
    this.#base = `${options.url.replace(/\/+$/, "")}/api/v1`;
    this.#token = options.token;
    this.#fetch = options.fetch ?? globalThis.fetch;
  }

  /** Files a question; by default the same open prompt is not filed twice. Carries the ask
   * response's advice: the expected wait, the stop-asking hint and similar answered questions. */
  async ask(question: NewQuestion, options: AskOptions = {}): Promise<Asked> {
    const body = await this.#call("POST", "/questions", {
      body: { ...question, unless_open: options.unlessOpen ?? true },
      signal: options.signal,
    });
    return {
      id: body.id as string,
      deduplicated: body.deduplicated === true,
      expectedWaitSeconds: (body.expectedWaitSeconds as number | null | undefined) ?? null,
      hint: (body.hint as string | null | undefined) ?? null,
      similar: (body.similar as SimilarAnswer[] | undefined) ?? [],
      ...(typeof body.heldUntil === "string" ? { heldUntil: body.heldUntil } : {}),
    };
  }

  /** The question's outcome now. */
  async get(id: string, options: { signal?: AbortSignal } = {}): Promise<QuestionOutcome> {
    return outcomeIn(await this.#call("GET", this.#path(id), { signal: options.signal }));
  }

  /**
   * Waits until the question is no longer pending (answered, dismissed, expired, withdrawn), or
   * until `timeoutSeconds` pass: then the outcome is `pending` and the question stays open.
   */
  async wait(id: string, options: WaitOptions = {}): Promise<QuestionOutcome> {
    const timeout = options.timeoutSeconds;
    if (timeout !== undefined && !(typeof timeout === "number" && timeout >= 0)) {
      throw new QuestionBridgeError(
        0,
        "BadOptions",
        `timeoutSeconds must be a number of seconds, 0 or more (got ${String(timeout)}); leave it out to wait until the question is decided`,
      );
    }
    const until =
      options.timeoutSeconds === undefined ? Infinity : Date.now() + options.timeoutSeconds * 1000;
    for (;;) {
      const left = Math.ceil((until - Date.now()) / 1000);
      const seconds = Math.max(0, Math.min(POLL_SECONDS, left));
      const body = await this.#call("GET", `${this.#path(id)}?wait=${seconds}`, {
        signal: options.signal,
      });
      const outcome = outcomeIn(body);
      if (outcome.status !== "pending" || seconds === 0 || Date.now() >= until) return outcome;
    }
  }

  /** Takes the question back: it is no longer answerable, and the owner's message says so. */
  async withdraw(
    id: string,
    options: { reason?: string; signal?: AbortSignal } = {},
  ): Promise<QuestionOutcome> {
    const body = await this.#call("POST", `${this.#path(id)}/withdraw`, {
      body: options.reason === undefined ? {} : { reason: options.reason },
      signal: options.signal,
    });
    return outcomeIn(body);
  }

  /** The follow-up job the answer wrote; a question not answered has none (`JobNotFound`, 404). */
  async job(id: string, options: { signal?: AbortSignal } = {}): Promise<FollowUpJob> {
    const body = await this.#call("GET", `${this.#path(id)}/job`, { signal: options.signal });
    return body as unknown as FollowUpJob;
  }

  /** Marks the follow-up job done (its last step): `{id, rel, doneAt, commit}`, `commit` null
   * when it was done already. */
  async jobDone(
    id: string,
    options: { signal?: AbortSignal } = {},
  ): Promise<{ id: string; rel: string; doneAt: string; commit: string | null }> {
    const body = await this.#call("POST", `${this.#path(id)}/job/done`, {
      body: {},
      signal: options.signal,
    });
    return body as unknown as { id: string; rel: string; doneAt: string; commit: string | null };
  }

  #path(id: string): string {
    return `/questions/${encodeURIComponent(id)}`;
  }

  async #call(
    method: "GET" | "POST",
    path: string,
    options: { body?: unknown; signal?: AbortSignal | undefined },
  ): Promise<Record<string, unknown>> {
    const headers: Record<string, string> = { Authorization: `Bearer ${this.#token}` };
    if (options.body !== undefined) headers["Content-Type"] = "application/json";
    let response: Response;
    try {
      response = await this.#fetch(`${this.#base}${path}`, {
        method,
        headers,
        body: options.body === undefined ? undefined : JSON.stringify(options.body),
        signal: options.signal,
      });
    } catch (error) {
      // Aborted by the caller (abort(), abort(reason), AbortSignal.timeout): theirs, not ours.
      if (options.signal?.aborted || (error as Error).name === "AbortError") throw error;
      throw new QuestionBridgeError(
        0,
        "Unreachable",
        `cannot reach question-bridge at ${this.#base}: ${(error as Error).message}; is "qbridge serve" (or "qbridge web") running there?`,
      );
    }
    const text = await response.text();
    let body: unknown;
    try {
      body = text === "" ? {} : JSON.parse(text);
    } catch {
      body = undefined;
    }
    if (!response.ok || typeof body !== "object" || body === null) {
      const error = (body as { error?: { code?: string; message?: string; current?: string } })
        ?.error;
      throw new QuestionBridgeError(
        response.status,
        error?.code ?? "BadResponse",
        error?.message ?? `question-bridge answered ${response.status} without a JSON error`,
        error?.current,
      );
    }
    return body as Record<string, unknown>;
  }
}
