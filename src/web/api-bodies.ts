// What an API request carries, read and checked: the JSON body (an empty one reads as `{}`),
// each route's body schema, and the query values. Failures are BodyProblems, which the API's
// error handler sends as they are (400 MalformedJson, 422 SchemaMismatch naming the field).
//
// Not @hono/zod-validator, measured: its json target reads a body only when it is labelled
// application/json, so an agent's `curl -d '{"answer":"a"}'` (labelled form-urlencoded) is
// validated as {} and refused with "answer is required"; and it answers an empty body sent as
// JSON (a bodiless dismiss) and malformed JSON with its own 400 text, not the API's error body.
// The body is read once here, whatever its label, and checked with the same zod schemas.

import type { Context } from "hono";
import { z } from "zod";
import { NO_CONTROLS, noControls } from "../card/field-rules.ts";
import { STATUSES } from "../card/question.ts";
import { MAX_WAIT_SECONDS } from "../questions/waiter.ts";
import { MAX_REASON_LENGTH } from "../questions/withdraw.ts";
import { type ApiFailure, failure } from "./api-errors.ts";

/** Who acted, as the card records it (`answered-by`): what card text may hold, refused here. */
const By = z.string().trim().min(1).max(200).refine(noControls, NO_CONTROLS);

export const AnswerBody = z
  .object({
    answer: z.string({
      required_error: "answer is required: a letter, label, option id, yes/no or text",
    }),
    note: z.string().optional(),
    by: By.optional(),
  })
  .strict();

export const DismissBody = z.object({}).strict();

export const WithdrawBody = z
  .object({
    reason: z.string().max(MAX_REASON_LENGTH).optional(),
    by: By.optional(),
  })
  .strict();

export const ExtendBody = z
  .object({
    duration: z.string({
      required_error: "duration is required: how much time to add, e.g. P7D, PT12H or 3d",
    }),
    by: By.optional(),
  })
  .strict();

export const StatusQuery = z.enum([...STATUSES, "all"]).default("pending");

export class BodyProblem extends Error {
  constructor(readonly fail: ApiFailure) {
    super(fail.body.error.message);
  }
}

/** The request body as JSON; an empty body reads as `{}`. */
export async function jsonBody(c: Context): Promise<unknown> {
  const text = await c.req.text();
  if (text.trim() === "") return {};
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new BodyProblem(
      failure(400, "MalformedJson", `the body is not JSON: ${(error as Error).message}`),
    );
  }
}

export function parsed<T>(schema: z.ZodType<T>, value: unknown): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issues = result.error.issues
    .map((i) => `${i.path.length ? `${i.path.join(".")}: ` : ""}${i.message}`)
    .join("; ");
  throw new BodyProblem(failure(422, "SchemaMismatch", `the body does not fit: ${issues}`));
}

/** `?wait=SECONDS`: a whole number; above the maximum it waits the maximum. */
export function waitSeconds(value: string | undefined): number {
  if (value === undefined || value === "") return 0;
  if (!/^\d{1,9}$/.test(value)) {
    throw new BodyProblem(
      failure(
        400,
        "BadWait",
        `wait must be a whole number of seconds (at most ${MAX_WAIT_SECONDS} are waited)`,
      ),
    );
  }
  return Math.min(Number(value), MAX_WAIT_SECONDS);
}

export function isTrue(value: unknown): boolean {
  return value === true || value === "true" || value === "1";
}
