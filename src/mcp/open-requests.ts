// The requests a client sent over one transport that have no reply yet, so a server told to
// stop (stdin closed, SIGTERM) can answer them all before it closes: a call whose question was
// already filed must not lose its reply, and the box must not be closed under a running call.
// A request the client cancelled gets no reply (the protocol says so) and is forgotten.

import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage, RequestId } from "@modelcontextprotocol/sdk/types.js";

export interface OpenRequests {
  /** Resolves once every request received so far has had its reply sent (or was cancelled). */
  answered(): Promise<void>;
}

function isRequest(message: JSONRPCMessage): message is JSONRPCMessage & { id: RequestId } {
  return "method" in message && "id" in message;
}

function isReply(message: JSONRPCMessage): message is JSONRPCMessage & { id: RequestId } {
  return !("method" in message) && "id" in message;
}

function cancelledId(message: JSONRPCMessage): RequestId | undefined {
  if (!("method" in message) || message.method !== "notifications/cancelled") return undefined;
  return (message.params as { requestId?: RequestId } | undefined)?.requestId;
}

/** Watches a transport the server is connected to already (it wraps the server's handlers). */
export function watchOpenRequests(transport: Transport): OpenRequests {
  const open = new Set<RequestId>();
  const idle: (() => void)[] = [];
  const forget = (id: RequestId | undefined) => {
    if (id === undefined || !open.delete(id) || open.size > 0) return;
    for (const resolve of idle.splice(0)) resolve();
  };

  const receive = transport.onmessage;
  transport.onmessage = (message, extra) => {
    if (isRequest(message)) open.add(message.id);
    else forget(cancelledId(message));
    receive?.(message, extra);
  };
  const send = transport.send.bind(transport);
  transport.send = async (message, options) => {
    await send(message, options);
    if (isReply(message)) forget(message.id);
  };

  return {
    answered: () =>
      open.size === 0 ? Promise.resolve() : new Promise<void>((resolve) => idle.push(resolve)),
  };
}
