// All settings, read once from the environment and the command's flags, validated with one zod
// schema each, and passed down as one typed value. Nothing else reads process.env. The core's
// settings are here; each listed bridge validates its own (TELEGRAM_* in bridges/telegram).
// Every problem, the core's and every bridge's, is reported at once, each naming its variable
// or flag and what it allows; a value is never echoed (it may be a secret).

import { resolve } from "node:path";
import { z } from "zod";
import { parseDuration } from "./card/duration.ts";
import { SettingsInvalid } from "./errors.ts";
import type { Attention } from "./slot/attention/attention.ts";
import { parseQuietHours } from "./slot/attention/quiet-hours.ts";
import type { BridgeDefinition, ConfiguredBridge, Environment } from "./slot/bridge.ts";

export { parseDuration }; // ISO-8601 durations, for a bridge's schema (it cannot reach the card)

const optionalText = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === "" ? undefined : v.trim()));

/** Optional text that, when set, must pass `ok`; `message` names the setting and what it allows. */
export function checked(ok: (v: string) => boolean, message: string) {
  return optionalText.refine((v) => v === undefined || ok(v), { message });
}

/** Text that must pass `ok` (our message, not zod's), coerced to a number, `fallback` if unset. */
export function numberSetting(
  ok: (v: string) => boolean,
  message: string,
): z.ZodType<number | undefined, z.ZodTypeDef, unknown>;
export function numberSetting(
  ok: (v: string) => boolean,
  message: string,
  fallback: number,
): z.ZodType<number, z.ZodTypeDef, unknown>;
export function numberSetting(
  ok: (v: string) => boolean,
  message: string,
  fallback?: number,
): z.ZodTypeAny {
  const number =
    fallback === undefined ? z.coerce.number().optional() : z.coerce.number().default(fallback);
  return checked(ok, message).pipe(number);
}

export const isPort = (v: string) => /^\d{1,5}$/.test(v) && Number(v) <= 65535;
export const isUrl = (v: string) => /^https?:\/\/\S+$/.test(v);
/**
 * An address links are made under (a page's path is added to it): no query or fragment, which
 * would swallow that path, and no user or password, which would travel in every link.
 */
const isBaseUrl = (v: string) => isUrl(v) && !/[?#]/.test(v) && !/^https?:\/\/[^/]*@/.test(v);

/** An IANA time zone name Intl knows (e.g. Europe/Berlin); Intl is the authority, not a list. */
function isTimeZone(v: string): boolean {
  try {
    new Intl.DateTimeFormat("en", { timeZone: v });
    return true;
  } catch {
    return false;
  }
}

export const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;

const EnvSchema = z
  .object({
    QBRIDGE_BOX: optionalText.transform((v) => v ?? "box"),
    QBRIDGE_TIME: checked(
      (v) => !Number.isNaN(new Date(v).getTime()),
      "QBRIDGE_TIME must be an ISO time such as 2026-07-10T09:00:00Z (or unset for the real clock)",
    ),
    QBRIDGE_TIMEZONE: checked(
      isTimeZone,
      "QBRIDGE_TIMEZONE must be an IANA time zone name such as Europe/Berlin (or unset for the system's)",
    ),
    QBRIDGE_QUIET_HOURS: checked(
      (v) => parseQuietHours(v) !== undefined,
      "QBRIDGE_QUIET_HOURS must be two different times of day such as 22:00-07:30 (in QBRIDGE_TIMEZONE), or unset for none",
    ),
    QBRIDGE_WEB_HOST: checked(
      (v) => !/\s/.test(v),
      "QBRIDGE_WEB_HOST must be a host name or an IP address, without spaces",
    ).transform((v) => v ?? "127.0.0.1"),
    QBRIDGE_WEB_PORT: numberSetting(
      isPort,
      "QBRIDGE_WEB_PORT must be a port number from 0 to 65535",
      8787,
    ),
    QBRIDGE_PUBLIC_URL: checked(
      isBaseUrl,
      "QBRIDGE_PUBLIC_URL must be the http(s) address where the web page is reached, e.g. https://q.example.org (no ?query, #fragment or user:password@)",
    ),
    QBRIDGE_API_TOKEN: checked(
      (v) => /^[\x21-\x7e]{16,}$/.test(v),
      "QBRIDGE_API_TOKEN must be at least 16 characters: ASCII letters, digits and punctuation, no spaces (make one with: openssl rand -hex 24)",
    ),
    QBRIDGE_SWEEP_MINUTES: numberSetting(
      (v) => /^\d{1,4}$/.test(v) && Number(v) >= 1 && Number(v) <= 1440,
      "QBRIDGE_SWEEP_MINUTES must be a whole number of minutes from 1 to 1440 (the sweep cannot be turned off)",
      10,
    ),
    QBRIDGE_LOCK_STALE_MS: numberSetting(
      (v) => /^\d{1,9}$/.test(v) && Number(v) >= 5000,
      "QBRIDGE_LOCK_STALE_MS must be a whole number of milliseconds, at least 5000",
      10_000,
    ),
    QBRIDGE_LOG_LEVEL: checked(
      (v) => (LOG_LEVELS as readonly string[]).includes(v),
      `QBRIDGE_LOG_LEVEL must be one of ${LOG_LEVELS.join(", ")}`,
    ).transform((v) => (v ?? "info") as (typeof LOG_LEVELS)[number]),
    QBRIDGE_WEBHOOK_URL: checked(
      isUrl,
      "QBRIDGE_WEBHOOK_URL must be the http(s) URL every question's outcome is POSTed to, or unset",
    ),
    QBRIDGE_WEBHOOK_SECRET: checked(
      (v) => v.length >= 16,
      "QBRIDGE_WEBHOOK_SECRET must be at least 16 characters (make one with: openssl rand -hex 32)",
    ),
    QBRIDGE_WEBHOOK_GIVE_UP_AFTER: checked(
      (v) => (parseDuration(v) ?? 0) > 0,
      "QBRIDGE_WEBHOOK_GIVE_UP_AFTER must be an ISO-8601 duration such as PT24H (how long a webhook is retried)",
    ).transform((v) => (v === undefined ? 24 * 3_600_000 : (parseDuration(v) as number))),
  })
  .superRefine((e, ctx) => {
    if (e.QBRIDGE_WEBHOOK_URL !== undefined && e.QBRIDGE_WEBHOOK_SECRET === undefined) {
      ctx.addIssue({
        code: z.ZodIssueCode.custom,
        message:
          "QBRIDGE_WEBHOOK_SECRET must be set when QBRIDGE_WEBHOOK_URL is: webhooks are signed with it (make one with: openssl rand -hex 32)",
      });
    }
  });

/** The flags that override or add to settings, as commander hands them over (text). */
export interface ConfigFlags {
  box?: string;
  host?: string;
  port?: string;
  watchMs?: string;
}

const FlagSchema = z.object({
  // An empty --box is a variable that was not set (`--box "$BOX"`): refused, not taken for
  // ./box, where the command would ask or answer in a box nobody meant.
  box: z
    .string()
    .optional()
    .refine((v) => v === undefined || v.trim() !== "", {
      message: '--box is empty (an unset variable in --box "$VAR"?): give the box directory',
    })
    .transform((v) => v?.trim()),
  host: checked((v) => !/\s/.test(v), "--host must be a host name or an IP address"),
  port: numberSetting(isPort, "--port must be a port number from 0 to 65535"),
  watchMs: numberSetting(
    (v) => /^\d{1,6}$/.test(v) && Number(v) >= 100 && Number(v) <= 60_000,
    "--watch-ms must be a whole number of milliseconds from 100 to 60000",
    1000,
  ),
});

export interface Config {
  boxDir: string;
  time: string | undefined;
  /** The box's time zone (IANA name): hours of day and dates are counted in it. */
  timeZone: string;
  /** QBRIDGE_TIMEZONE is unset: the box's zone is the process's own, which hours and days are
   * read in without asking Intl for its name (questions/stats-clock.ts). */
  ownZone: boolean;
  /** Quiet hours (none when unset) in the box's time zone, as the slot applies them. */
  attention: Attention;
  web: { host: string; port: number; publicUrl: string | undefined };
  apiToken: string | undefined;
  sweepMinutes: number;
  lockStaleMs: number;
  logLevel: (typeof LOG_LEVELS)[number];
  /** How often `chat` looks for questions filed meanwhile. */
  watchMs: number;
  /** Answer webhooks: on when a secret is set (every URL, global or per question, needs it). */
  webhooks: {
    url: string | undefined;
    secret: string | undefined;
    /** How long a delivery is retried before it gives up (default 24 h). */
    giveUpAfterMs: number;
  };
  /** Every listed bridge with its validated settings, on or off, in the list's order. */
  bridges: ConfiguredBridge[];
}

function problemsOf(result: z.SafeParseReturnType<unknown, unknown>): string[] {
  return result.success ? [] : result.error.issues.map((issue) => issue.message);
}

/**
 * The settings of the core and of each bridge in `bridges` (the composition root's list; none
 * given, no bridge runs), every problem of any of them reported at once.
 */
export function loadConfig(
  env: Environment = process.env,
  flags: ConfigFlags = {},
  bridges: readonly BridgeDefinition[] = [],
): Config {
  const parsedEnv = EnvSchema.safeParse(env);
  const parsedFlags = FlagSchema.safeParse(flags);
  const results = bridges.map((definition) => definition.configure(env));
  const bridgeProblems = results.flatMap((result) => ("problems" in result ? result.problems : []));
  if (!parsedEnv.success || !parsedFlags.success || bridgeProblems.length > 0) {
    throw new SettingsInvalid([
      ...problemsOf(parsedEnv),
      ...bridgeProblems,
      ...problemsOf(parsedFlags),
    ]);
  }
  const e = parsedEnv.data;
  const f = parsedFlags.data;
  const zone = zoneOnFirstUse(e.QBRIDGE_TIMEZONE);
  return {
    boxDir: resolve(f.box ?? e.QBRIDGE_BOX),
    time: e.QBRIDGE_TIME,
    get timeZone() {
      return zone();
    },
    ownZone: e.QBRIDGE_TIMEZONE === undefined,
    // Its zone too is asked for only when quiet hours or a Later time are read in it.
    attention: {
      quietHours: e.QBRIDGE_QUIET_HOURS ? parseQuietHours(e.QBRIDGE_QUIET_HOURS) : undefined,
      ownZone: e.QBRIDGE_TIMEZONE === undefined,
      get timeZone() {
        return zone();
      },
    },
    web: {
      host: f.host ?? e.QBRIDGE_WEB_HOST,
      port: f.port ?? e.QBRIDGE_WEB_PORT,
      publicUrl: e.QBRIDGE_PUBLIC_URL?.replace(/\/+$/, ""),
    },
    apiToken: e.QBRIDGE_API_TOKEN,
    sweepMinutes: e.QBRIDGE_SWEEP_MINUTES,
    lockStaleMs: e.QBRIDGE_LOCK_STALE_MS,
    logLevel: e.QBRIDGE_LOG_LEVEL,
    watchMs: f.watchMs,
    webhooks: {
      url: e.QBRIDGE_WEBHOOK_URL,
      secret: e.QBRIDGE_WEBHOOK_SECRET,
      giveUpAfterMs: e.QBRIDGE_WEBHOOK_GIVE_UP_AFTER,
    },
    bridges: results.flatMap((result) => ("bridge" in result ? [result.bridge] : [])),
  };
}

/** The zone named, else the system's, asked of Intl on first use (show, wait, list never start ICU). */
function zoneOnFirstUse(named: string | undefined): () => string {
  let zone = named;
  return () => {
    zone ??= Intl.DateTimeFormat().resolvedOptions().timeZone;
    return zone;
  };
}
