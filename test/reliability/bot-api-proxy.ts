// A loopback Bot API for the bridge half of the reliability suite: it stands in front of the
// telegram-test-api emulator, forwards every method to it and records the call and its answer.
// Two things the emulator cannot do are done here:
// - getUpdates with Telegram's offset semantics: an update stays deliverable until a later
//   getUpdates confirms it (offset > update_id), so a service killed mid-update gets it again
//   after a restart; `redeliver` hands out an update again even after it was confirmed (a
//   webhook retry does that);
// - Telegram's one-poller rule, when asked (`conflicts`): a getUpdates arriving while another is
//   held ends the older one with 409 Conflict, as Telegram does for two services on one token;
// - faults on demand: 429 with retry_after, 5xx, a request held and then cut (a timeout), a
//   dropped connection, and a response lost after the emulator carried the call out; and a
//   "kill point": the n-th call is held (forwarded first, or not) so the test can SIGKILL the
//   service while it waits.
// It never listens on anything but 127.0.0.1.

import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { Update } from "grammy/types";
import { readBody } from "../support/long-poll.ts";

export type Fault = "409" | "429" | "5xx" | "timeout" | "drop" | "lost-response";

export interface ProxyCall {
  seq: number;
  method: string;
  payload: Record<string, unknown>;
  /** What the emulator answered, when the call was carried out. */
  result?: unknown;
  /** The fault injected into this call, if any. */
  fault?: Fault;
  /** True when the service never got the answer (a kill point held it). */
  withheld?: boolean;
}

/** Chooses a fault for a call, or none. */
export type FaultPlan = (method: string, call: ProxyCall) => Fault | undefined;

export interface KillPoint {
  /** The n-th call (1-based) after arming, of the methods counted. */
  nth: number;
  /** Carry the call out at the emulator before holding it (the service never hears back). */
  forward: boolean;
  /** Methods that count; getUpdates never does. */
  methods?: string[];
}

export interface BotApiProxy {
  /** TELEGRAM_API_ROOT for the service. */
  apiRoot: string;
  calls: ProxyCall[];
  faults: Record<Fault, number>;
  /** getUpdates calls ended with 409 because a newer one came (the `conflicts` rule). */
  conflicts(): number;
  /** Queues an update as Telegram would deliver it; returns its update_id. */
  inject(update: Omit<Update, "update_id">): number;
  /** Hands out an update again on the next getUpdates, confirmed or not. */
  redeliver(update: Update): void;
  /** Every update injected so far, by id. */
  updates: Map<number, Update>;
  /** Updates not yet confirmed by an offset. */
  unconfirmed(): number[];
  setFaults(plan: FaultPlan | undefined): void;
  /** Holds the call at the kill point; resolves with it once it is held. */
  armKill(point: KillPoint): Promise<ProxyCall>;
  disarm(): void;
  close(): Promise<void>;
}

/** What Telegram answers the older of two getUpdates calls on one token. */
const CONFLICT = {
  ok: false,
  error_code: 409,
  description:
    "Conflict: terminated by other getUpdates request; make sure that only one bot instance is running",
};

/** Methods the emulator does not know, answered here as Telegram would. */
const MISSING: Record<string, unknown> = {
  setMyCommands: true,
  deleteMyCommands: true,
  getMyCommands: [],
  setChatMenuButton: true,
  sendChatAction: true,
};

export async function startBotApiProxy(options: {
  emulatorRoot: string;
  /** Longest hold of an empty getUpdates (ms). */
  holdMs?: number;
  /** Telegram's rule: a newer getUpdates ends a held older one with 409. */
  conflicts?: boolean;
}): Promise<BotApiProxy> {
  const holdMs = options.holdMs ?? 500;
  const calls: ProxyCall[] = [];
  const faults: Record<Fault, number> = {
    "409": 0,
    "429": 0,
    "5xx": 0,
    timeout: 0,
    drop: 0,
    "lost-response": 0,
  };
  const updates = new Map<number, Update>();
  let queue: Update[] = [];
  let forced: Update[] = [];
  let nextUpdateId = 1;
  let plan: FaultPlan | undefined;
  let kill: { point: KillPoint; seen: number; held: (call: ProxyCall) => void } | undefined;
  const waiters = new Set<() => void>();
  let heldPoll: (() => void) | undefined;
  let conflicted = 0;
  const wake = () => {
    for (const w of [...waiters]) w();
  };

  function send(res: ServerResponse, status: number, body: unknown): void {
    if (res.destroyed) return;
    res.writeHead(status, { "content-type": "application/json" });
    res.end(JSON.stringify(body));
  }

  async function forward(path: string, body: string): Promise<{ status: number; json: unknown }> {
    const response = await fetch(`${options.emulatorRoot}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: body || "{}",
    });
    return { status: response.status, json: await response.json() };
  }

  /** The updates to hand out, or "conflict" when a newer getUpdates ended this one. */
  async function getUpdates(
    payload: Record<string, unknown>,
    req: IncomingMessage,
  ): Promise<Update[] | "conflict"> {
    if (options.conflicts) heldPoll?.();
    const offset = Number(payload.offset ?? 0);
    if (offset > 0) queue = queue.filter((u) => u.update_id >= offset);
    const ready = () => [...forced, ...queue].slice(0, 100);
    if (ready().length === 0) {
      let ended = false;
      await new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          waiters.delete(done);
          if (heldPoll === end) heldPoll = undefined;
          resolve();
        };
        const end = () => {
          ended = true;
          done();
        };
        const timer = setTimeout(done, holdMs);
        waiters.add(done);
        heldPoll = end;
        req.once("close", done);
      });
      if (ended) {
        conflicted++;
        return "conflict";
      }
    }
    const out = ready();
    forced = [];
    return out;
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = (req.url ?? "/").split("?")[0] as string;
    const method = path.slice(path.lastIndexOf("/") + 1);
    const body = await readBody(req);
    const payload = (body ? JSON.parse(body) : {}) as Record<string, unknown>;
    const call: ProxyCall = { seq: calls.length + 1, method, payload };
    if (method !== "getUpdates") calls.push(call);

    const fault = plan?.(method, call);
    if (fault && fault !== "lost-response") {
      call.fault = fault;
      faults[fault]++;
      switch (fault) {
        case "409":
          return send(res, 409, CONFLICT);
        case "429":
          return send(res, 429, {
            ok: false,
            error_code: 429,
            description: "Too Many Requests: retry after 1",
            parameters: { retry_after: 1 },
          });
        case "5xx":
          return send(res, 502, { ok: false, error_code: 502, description: "Bad Gateway" });
        case "timeout":
          await new Promise((r) => setTimeout(r, 800));
          res.destroy();
          return;
        case "drop":
          res.destroy();
          return;
      }
    }

    let held = false;
    if (
      kill &&
      method !== "getUpdates" &&
      (!kill.point.methods || kill.point.methods.includes(method))
    ) {
      kill.seen++;
      held = kill.seen === kill.point.nth;
    }
    if (held && kill && !kill.point.forward) {
      call.withheld = true;
      kill.held(call);
      kill = undefined;
      return; // never answered: the service is killed while it waits
    }

    let answer: { status: number; json: unknown };
    if (method === "getUpdates") {
      const result = await getUpdates(payload, req);
      answer =
        result === "conflict"
          ? {
              status: 409,
              json: CONFLICT,
            }
          : { status: 200, json: { ok: true, result } };
    } else if (method in MISSING) {
      answer = { status: 200, json: { ok: true, result: MISSING[method] } };
    } else {
      answer = await forward(path, body);
    }
    const json = answer.json as { ok?: boolean; result?: unknown };
    if (json.ok) call.result = json.result;

    if (held && kill) {
      call.withheld = true;
      kill.held(call);
      kill = undefined;
      return;
    }
    if (fault === "lost-response") {
      call.fault = fault;
      faults[fault]++;
      res.destroy();
      return;
    }
    send(res, answer.status, answer.json);
  }

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      send(res, 500, { ok: false, error_code: 500, description: String(error) });
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  return {
    apiRoot: `http://127.0.0.1:${port}`,
    calls,
    faults,
    conflicts: () => conflicted,
    updates,
    inject(update) {
      const full = { ...update, update_id: nextUpdateId++ } as Update;
      updates.set(full.update_id, full);
      queue.push(full);
      wake();
      return full.update_id;
    },
    redeliver(update) {
      forced.push(update);
      wake();
    },
    unconfirmed: () => queue.map((u) => u.update_id),
    setFaults(next) {
      plan = next;
    },
    armKill(point) {
      return new Promise<ProxyCall>((resolve) => {
        kill = { point, seen: 0, held: resolve };
      });
    },
    disarm() {
      kill = undefined;
    },
    close: () =>
      new Promise<void>((resolve) => {
        wake();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
