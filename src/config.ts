// All settings, read once from the environment, validated, and passed down as one typed
// value. Nothing else in the project reads process.env.

import { resolve } from "node:path";
import { z } from "zod";
import { InvalidInput } from "./errors.ts";

const optionalText = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === "" ? undefined : v.trim()));

const EnvSchema = z.object({
  QBRIDGE_BOX: optionalText,
  QBRIDGE_TIME: optionalText.refine(
    (v) => v === undefined || !Number.isNaN(new Date(v).getTime()),
    {
      message:
        "QBRIDGE_TIME must be an ISO time such as 2026-07-10T09:00:00Z (or unset for the real clock)",
    },
  ),
  TELEGRAM_BOT_TOKEN: optionalText.refine(
    (v) => v === undefined || /^\d{3,}:[A-Za-z0-9_-]{20,}$/.test(v),
    {
      message:
        "TELEGRAM_BOT_TOKEN does not look like a bot token (digits, a colon, then 20+ letters): copy it again from @BotFather",
    },
  ),
  TELEGRAM_OWNER_ID: optionalText.refine((v) => v === undefined || /^\d{1,20}$/.test(v), {
    message:
      "TELEGRAM_OWNER_ID must be your numeric Telegram user id (digits only), or unset to pair with /start",
  }),
  TELEGRAM_API_ROOT: optionalText.refine((v) => v === undefined || /^https?:\/\/\S+$/.test(v), {
    message:
      "TELEGRAM_API_ROOT must be an http(s) URL of a Bot API server, or unset for Telegram's own",
  }),
  TELEGRAM_WEBHOOK_SECRET: optionalText.refine(
    (v) => v === undefined || /^[A-Za-z0-9_-]{1,256}$/.test(v),
    {
      message:
        "TELEGRAM_WEBHOOK_SECRET may hold only letters, digits, '_' and '-' (1 to 256): make one with openssl rand -hex 32",
    },
  ),
  TELEGRAM_WEBHOOK_URL: optionalText.refine((v) => v === undefined || /^https?:\/\/\S+$/.test(v), {
    message:
      "TELEGRAM_WEBHOOK_URL must be the public https URL Telegram posts updates to, or unset for long polling",
  }),
  TELEGRAM_WEBHOOK_PORT: optionalText.refine(
    (v) => v === undefined || (/^\d+$/.test(v) && Number(v) <= 65535),
    { message: "TELEGRAM_WEBHOOK_PORT must be a port number from 0 to 65535" },
  ),
  QBRIDGE_WEB_HOST: optionalText,
  QBRIDGE_WEB_PORT: optionalText.refine(
    (v) => v === undefined || (/^\d+$/.test(v) && Number(v) <= 65535),
    {
      message: "QBRIDGE_WEB_PORT must be a port number from 0 to 65535",
    },
  ),
  QBRIDGE_PUBLIC_URL: optionalText.refine((v) => v === undefined || /^https?:\/\/\S+$/.test(v), {
    message:
      "QBRIDGE_PUBLIC_URL must be the http(s) address where the web page is reached, e.g. https://q.example.org",
  }),
  QBRIDGE_API_TOKEN: optionalText.refine((v) => v === undefined || v.length >= 16, {
    message:
      "QBRIDGE_API_TOKEN must be at least 16 characters (make one with: openssl rand -hex 24)",
  }),
  QBRIDGE_SWEEP_MINUTES: optionalText.refine((v) => v === undefined || /^\d+(\.\d+)?$/.test(v), {
    message: "QBRIDGE_SWEEP_MINUTES must be a number of minutes",
  }),
  QBRIDGE_LOCK_STALE_MS: optionalText.refine(
    (v) => v === undefined || (/^\d+$/.test(v) && Number(v) >= 5000),
    {
      message: "QBRIDGE_LOCK_STALE_MS must be a whole number of milliseconds, at least 5000",
    },
  ),
  QBRIDGE_LOG_LEVEL: optionalText,
});

export interface Config {
  boxDir: string;
  time: string | undefined;
  telegram: {
    token: string | undefined;
    ownerId: string | undefined;
    apiRoot: string | undefined;
    webhookSecret: string | undefined;
    /** Set: webhook mode (Telegram posts here); unset: long polling. */
    webhookUrl: string | undefined;
    /** Where the webhook listener binds (on the web host); default 8788. */
    webhookPort: number;
  };
  web: { host: string; port: number; publicUrl: string | undefined };
  apiToken: string | undefined;
  sweepMinutes: number;
  lockStaleMs: number;
  logLevel: string;
}

export function loadConfig(
  env: NodeJS.ProcessEnv = process.env,
  overrides: { box?: string } = {},
): Config {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new InvalidInput(issue ? issue.message : "the environment is not valid");
  }
  const e = parsed.data;
  return {
    boxDir: resolve(overrides.box ?? e.QBRIDGE_BOX ?? "box"),
    time: e.QBRIDGE_TIME,
    telegram: {
      token: e.TELEGRAM_BOT_TOKEN,
      ownerId: e.TELEGRAM_OWNER_ID,
      apiRoot: e.TELEGRAM_API_ROOT?.replace(/\/+$/, ""),
      webhookSecret: e.TELEGRAM_WEBHOOK_SECRET,
      webhookUrl: e.TELEGRAM_WEBHOOK_URL,
      webhookPort: e.TELEGRAM_WEBHOOK_PORT === undefined ? 8788 : Number(e.TELEGRAM_WEBHOOK_PORT),
    },
    web: {
      host: e.QBRIDGE_WEB_HOST ?? "127.0.0.1",
      port: e.QBRIDGE_WEB_PORT === undefined ? 8787 : Number(e.QBRIDGE_WEB_PORT),
      publicUrl: e.QBRIDGE_PUBLIC_URL?.replace(/\/+$/, ""),
    },
    apiToken: e.QBRIDGE_API_TOKEN,
    sweepMinutes: e.QBRIDGE_SWEEP_MINUTES === undefined ? 10 : Number(e.QBRIDGE_SWEEP_MINUTES),
    lockStaleMs: e.QBRIDGE_LOCK_STALE_MS === undefined ? 10_000 : Number(e.QBRIDGE_LOCK_STALE_MS),
    logLevel: e.QBRIDGE_LOG_LEVEL ?? "info",
  };
}
