// The doctor's look at the Telegram bot: can the Bot API be reached with this token (getMe),
// and is the webhook what this service expects (getWebhookInfo)? Read-only: it never sets or
// deletes a webhook and never polls, so it is safe while `qbridge serve` runs.

import { Api, GrammyError } from "grammy";
import type { DoctorCheck, Finding } from "../../src/slot/port.ts";

export interface TelegramCheckOptions {
  token: string;
  apiRoot?: string | undefined;
  /** TELEGRAM_WEBHOOK_URL: set, the webhook must point here; unset, the service long-polls. */
  webhookUrl?: string | undefined;
}

function said(error: unknown, token: string): string {
  const text =
    error instanceof GrammyError
      ? `${error.error_code} ${error.description}`
      : String((error as Error)?.message ?? error);
  return text.split(token).join("[token]");
}

type WebhookInfo = Awaited<ReturnType<Api["getWebhookInfo"]>>;

/** A Telegram finding: always about TELEGRAM_BOT_TOKEN's bot, never repaired by the doctor. */
function finding(problem: string, fix: string): Finding {
  return { kind: "telegram", path: "TELEGRAM_BOT_TOKEN", problem, fix, repairable: false };
}

/** The doctor's Telegram check: getMe, then getWebhookInfo, each failure one finding. */
export function createTelegramCheck(options: TelegramCheckOptions): DoctorCheck {
  return {
    label: "telegram",
    async examine() {
      const api = new Api(options.token, {
        ...(options.apiRoot ? { apiRoot: options.apiRoot } : {}),
        timeoutSeconds: 15,
      });
      let me: Awaited<ReturnType<Api["getMe"]>>;
      try {
        me = await api.getMe();
      } catch (error) {
        return { findings: [unreachable(error, options)], facts: [] };
      }
      const facts = [`telegram: bot @${me.username} reachable`];
      let info: WebhookInfo;
      try {
        info = await api.getWebhookInfo();
      } catch (error) {
        return {
          findings: [
            finding(
              `the webhook state cannot be read (getWebhookInfo: ${said(error, options.token)})`,
              "try again; if it persists, check TELEGRAM_API_ROOT",
            ),
          ],
          facts,
        };
      }
      facts.push(
        info.url
          ? `telegram: webhook ${info.url} (${info.pending_update_count} updates waiting)`
          : `telegram: no webhook (long polling; ${info.pending_update_count} updates waiting)`,
      );
      return { findings: webhookFindings(info, options.webhookUrl), facts };
    },
  };
}

/** Why getMe failed, in the same words the service logs for the same failure (standing.ts). */
function unreachable(error: unknown, options: TelegramCheckOptions): Finding {
  const unauthorized = error instanceof GrammyError && error.error_code === 401;
  return unauthorized
    ? finding(
        "Telegram refused TELEGRAM_BOT_TOKEN (401 Unauthorized): it was revoked or mistyped",
        "copy it again from @BotFather into TELEGRAM_BOT_TOKEN, then restart qbridge serve",
      )
    : finding(
        `Telegram's Bot API cannot be reached (getMe: ${said(error, options.token)})`,
        `check the network and TELEGRAM_API_ROOT (${options.apiRoot ?? "Telegram's own"}); qbridge serve keeps retrying with backoff`,
      );
}

/** What is wrong with the webhook: not the one configured, set while polling, or failing. */
function webhookFindings(info: WebhookInfo, webhookUrl: string | undefined): Finding[] {
  const findings: Finding[] = [];
  if (webhookUrl && info.url !== webhookUrl) {
    findings.push(
      finding(
        `Telegram's webhook is "${info.url || "(none)"}", not TELEGRAM_WEBHOOK_URL ${webhookUrl}: updates do not reach this service`,
        "restart qbridge serve (it sets the webhook at start); if another service set it, only one may use this token",
      ),
    );
  } else if (!webhookUrl && info.url) {
    findings.push(
      finding(
        `a webhook is set (${info.url}) while this service long-polls: getUpdates is refused (409) as long as it is`,
        "qbridge serve deletes a webhook at start only when this box set it (webhook mode); if no service uses this one any more, delete it (Telegram's deleteWebhook) and restart qbridge serve, or set TELEGRAM_WEBHOOK_URL if this service should use it",
      ),
    );
  }
  if (info.url && info.last_error_message) {
    const when = info.last_error_date
      ? ` at ${new Date(info.last_error_date * 1000).toISOString()}`
      : "";
    findings.push(
      finding(
        `Telegram's last delivery to the webhook failed${when}: ${info.last_error_message}`,
        "check that the reverse proxy forwards the webhook path to TELEGRAM_WEBHOOK_PORT and its TLS certificate is valid",
      ),
    );
  }
  return findings;
}
