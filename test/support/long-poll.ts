// A loopback front for the telegram-test-api emulator that holds getUpdates as Telegram does.
// The emulator answers every getUpdates at once, empty or not, so a bot on it polls as often
// as its floor between empty polls allows (grammY: 500 ms): a tap then waits up to that long
// before the bot asks for it, and the service is never idle. Telegram holds an empty
// getUpdates until an update comes or the poll's `timeout` ends. So does this front: an empty
// answer to a poll with a timeout is held until the emulator takes an update from a person
// (a message, a command or a tap), then the emulator is asked again. Every other request goes
// to the emulator as it came. Only on 127.0.0.1.

import type { EventEmitter } from "node:events";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** What the emulator emits when it takes an update for a bot from a person. */
const ARRIVALS = ["AddedUserMessage", "AddedUserCommand", "AddedUserCallbackQuery"];

export interface LongPollFront {
  /** The API root for the bot, in place of the emulator's. */
  apiRoot: string;
  close(): Promise<void>;
}

interface Answer {
  status: number;
  type: string;
  body: string;
}

/** A request's whole body, as text. */
export const readBody = (req: IncomingMessage) =>
  new Promise<string>((resolve, reject) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (chunk) => {
      body += chunk;
    });
    req.on("end", () => resolve(body));
    req.on("error", reject);
  });

/** The seconds a getUpdates asks to be held (its `timeout`); 0 for any other request. */
function pollSeconds(path: string, body: string): number {
  if (!path.split("?")[0]?.endsWith("/getUpdates")) return 0;
  try {
    const timeout = (JSON.parse(body || "{}") as { timeout?: unknown }).timeout;
    return typeof timeout === "number" && timeout > 0 ? timeout : 0;
  } catch {
    return 0;
  }
}

function isEmptyPoll(answer: Answer): boolean {
  if (answer.status !== 200) return false;
  const { result } = JSON.parse(answer.body) as { result?: unknown };
  return Array.isArray(result) && result.length === 0;
}

/** Starts the front for `emulator` (the TelegramServer, whose API root is `emulatorRoot`). */
export async function holdPolls(
  emulator: EventEmitter,
  emulatorRoot: string,
): Promise<LongPollFront> {
  async function forward(req: IncomingMessage, body: string): Promise<Answer> {
    const response = await fetch(`${emulatorRoot}${req.url ?? "/"}`, {
      method: req.method ?? "POST",
      headers: { "content-type": req.headers["content-type"] ?? "application/json" },
      body: req.method === "GET" || req.method === "HEAD" ? undefined : body,
    });
    const type = response.headers.get("content-type") ?? "application/json";
    return { status: response.status, type, body: await response.text() };
  }

  async function pass(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = await readBody(req);
    const seconds = pollSeconds(req.url ?? "/", body);
    const deadline = Date.now() + seconds * 1_000;
    let gone = false;
    let arrived = false;
    let wake = () => {};
    const onArrival = () => {
      arrived = true;
      wake();
    };
    res.once("close", () => {
      gone = true;
      wake();
    });
    for (const event of ARRIVALS) emulator.on(event, onArrival);
    try {
      // Each turn ends in an answer, or waits for an update, the deadline or the bot leaving;
      // a bot that left is not asked for again.
      for (;;) {
        arrived = false;
        const answer = await forward(req, body);
        if (gone) return;
        if (seconds === 0 || !isEmptyPoll(answer) || Date.now() >= deadline) {
          res.writeHead(answer.status, { "content-type": answer.type }).end(answer.body);
          return;
        }
        if (!arrived) {
          await new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, deadline - Date.now());
            wake = () => {
              clearTimeout(timer);
              resolve();
            };
          });
        }
        if (gone) return;
      }
    } finally {
      for (const event of ARRIVALS) emulator.off(event, onArrival);
    }
  }

  const server = createServer((req, res) => {
    pass(req, res).catch((error: Error) => {
      if (!res.headersSent) res.writeHead(502, { "content-type": "text/plain" });
      res.end(`the emulator did not answer: ${error.message}`);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    apiRoot: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
