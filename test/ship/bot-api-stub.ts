// A Bot API server on loopback that answers a few methods as Telegram would, with answers a
// test chooses (a 409 for getUpdates, a webhook for getWebhookInfo), and counts the calls.

import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export type Answer =
  | { ok: true; result: unknown }
  | { ok: false; error_code: number; description: string };

export const BOT_INFO = {
  id: 123456789,
  is_bot: true,
  first_name: "Questions",
  username: "questions_test_bot",
  can_join_groups: false,
  can_read_all_group_messages: false,
  supports_inline_queries: false,
};

export const CONFLICT: Answer = {
  ok: false,
  error_code: 409,
  description:
    "Conflict: terminated by other getUpdates request; make sure that only one bot instance is running",
};

export interface BotApiStub {
  apiRoot: string;
  /** Method names in the order they were called. */
  calls: string[];
  stop(): Promise<void>;
}

/** Listens on `port` when given (a test that makes an unreachable API reachable), else any. */
export async function startBotApiStub(
  answers: Record<string, Answer>,
  port = 0,
): Promise<BotApiStub> {
  const calls: string[] = [];
  const defaults: Record<string, Answer> = {
    getMe: { ok: true, result: BOT_INFO },
    deleteWebhook: { ok: true, result: true },
    setMyCommands: { ok: true, result: true },
    getUpdates: { ok: true, result: [] },
    getWebhookInfo: {
      ok: true,
      result: { url: "", has_custom_certificate: false, pending_update_count: 0 },
    },
  };
  const server: Server = createServer((req, res) => {
    const method = (req.url ?? "").split("?")[0]?.split("/").pop() ?? "";
    calls.push(method);
    req.resume();
    req.on("end", () => {
      const answer = answers[method] ??
        defaults[method] ?? {
          ok: false,
          error_code: 404,
          description: "Not Found: method not found",
        };
      res.writeHead(answer.ok ? 200 : answer.error_code, { "content-type": "application/json" });
      res.end(JSON.stringify(answer));
    });
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  const address = server.address() as AddressInfo;
  return {
    apiRoot: `http://127.0.0.1:${address.port}`,
    calls,
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
