// Where the service stands with Telegram's Bot API: ok, unreachable (network, 5xx), the token
// refused (401), or the token polled elsewhere (409). The poll loop and the start-up getMe
// report here; each change of state is logged once, in one line without a stack trace, and is
// handed to whoever shows health (/healthz). It never decides to stop anything.

import { GrammyError, HttpError } from "grammy";
import { TokenRefused } from "./errors.ts";

/** Where the poll loop, the webhook and the standing log. */
export interface PollLogger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

export type StandingState = "starting" | "ok" | "unreachable" | "unauthorized" | "conflict";

export interface TelegramHealth {
  ok: boolean;
  state: StandingState;
  /** One sentence for a person: what is wrong and what to do. */
  reason?: string;
}

/** How a failed Bot API call counts: the token refused, polled elsewhere, or not reached. */
export function classify(error: unknown): "unauthorized" | "conflict" | "unreachable" {
  if (error instanceof GrammyError) {
    if (error.error_code === 401) return "unauthorized";
    if (error.error_code === 409) return "conflict";
  }
  return "unreachable";
}

/** What went wrong, short and without the token (grammY's messages can carry the URL). */
export function failureOf(error: unknown, token: string): string {
  let text: string;
  if (error instanceof GrammyError) text = `${error.error_code} ${error.description}`;
  else if (error instanceof HttpError) {
    const inner = error.error as {
      cause?: { code?: unknown };
      code?: unknown;
      message?: string;
      name?: string;
    };
    const code = [inner?.cause?.code, inner?.code].find((c) => typeof c === "string");
    // A call ended by its time limit (start-up's getMe) reads "The user aborted a request."
    // from fetch: to the operator it is an API that did not answer.
    if (inner?.name === "AbortError") text = "no answer in time";
    else text = (code as string | undefined) ?? inner?.message ?? error.message;
  } else text = error instanceof Error ? error.message : String(error);
  return text.split(token).join("[token]");
}

export interface Standing {
  health(): TelegramHealth;
  /** A call succeeded: back to ok (logged when it was not). */
  ok(): void;
  /** A call failed this way; logs the change once. */
  failed(state: Exclude<StandingState, "ok" | "starting">, failure: string): void;
}

export function createStanding(deps: {
  logger: PollLogger;
  onChange?: ((health: TelegramHealth) => void) | undefined;
}): Standing {
  const { logger } = deps;
  let current: TelegramHealth = { ok: false, state: "starting", reason: "not polled yet" };
  const set = (next: TelegramHealth) => {
    current = next;
    deps.onChange?.(next);
  };
  return {
    health: () => current,
    ok() {
      if (current.state === "ok") return;
      if (current.state === "unreachable" || current.state === "unauthorized") {
        logger.info({ was: current.state }, "Telegram's Bot API answers again");
      }
      set({ ok: true, state: "ok" });
    },
    failed(state, failure) {
      if (current.state === state) return;
      let reason: string;
      if (state === "unauthorized") {
        reason = new TokenRefused().message;
        logger.error({ telegram: failure }, reason);
      } else if (state === "unreachable") {
        reason = `Telegram's Bot API cannot be reached (${failure}): retrying with backoff`;
        logger.warn({ telegram: failure }, reason);
      } else {
        reason = `another poller uses this bot token (${failure})`;
      }
      set({ ok: false, state, reason });
    },
  };
}
