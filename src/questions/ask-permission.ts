// Filing a coding agent's permission request: the card is marked `kind: permission` (which no
// asker can set) and a ledger row says which request it was filed for, written while git
// commits under the box-wide ask lock. A request made again while its question is open waits
// on that question; a question that only looks the same (the same words, filed by an asker) is
// never taken for it.

import { createHash } from "node:crypto";
import { PermissionRequests } from "../ledger/permission-requests.ts";
import { type AskResult, askQuestion, type SameQuestion } from "./ask.ts";
import type { Core } from "./core.ts";

export interface PermissionRequestKey {
  /** claude, codex, or mcp (request_permission). */
  agent: string;
  sessionId?: string | undefined;
  tool: string;
  input: Record<string, unknown>;
  /**
   * The one tool call it is for, when the asker can tell calls apart (a hook: the agent's call
   * id, else the hook process itself): two calls with the same input are two questions, the
   * same call delivered twice is one.
   */
  call?: string | undefined;
}

/** What a request asks: the agent, the tool and the exact input, whatever its session or call. */
export function inputKey(request: PermissionRequestKey): string {
  const { agent, tool, input } = request;
  return createHash("sha256")
    .update(JSON.stringify([agent, tool, input]))
    .digest("hex");
}

/** One key per agent session, tool and exact input, and per tool call where one is named. */
export function requestKey(request: PermissionRequestKey): string {
  const { agent, sessionId, tool, input, call } = request;
  const parts = [agent, sessionId ?? "", tool, input, ...(call === undefined ? [] : [call])];
  return createHash("sha256").update(JSON.stringify(parts)).digest("hex");
}

export async function askPermission(
  core: Core,
  card: Record<string, unknown>,
  request: PermissionRequestKey,
  via: string,
  options: {
    /** The caller's own work while git commits the question (a hook's lease record). */
    meanwhile?: ((filed: { id: string }) => void) | undefined;
    /** The whole request the question allows (the card's `request`). */
    whole?: string | undefined;
  } = {},
): Promise<AskResult> {
  const key = requestKey(request);
  const requests = core.ledger.store(PermissionRequests);
  const sameRequest: SameQuestion = (open, _asked, openId) =>
    open.kind === "permission" && requests.filedFor(openId, key);
  return askQuestion(core, card, {
    unlessOpen: sameRequest,
    via,
    agentPrompt: { kind: "permission", request: options.whole },
    meanwhile: ({ id }) => {
      requests.record(
        {
          questionId: id,
          agent: request.agent,
          sessionId: request.sessionId,
          requestKey: key,
          inputKey: inputKey(request),
        },
        core.box.clock.iso(),
      );
      options.meanwhile?.({ id });
    },
  });
}
