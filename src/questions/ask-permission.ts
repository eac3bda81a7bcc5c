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
}

/** One key per agent session, tool and exact input. */
export function requestKey(request: PermissionRequestKey): string {
  return createHash("sha256")
    .update(JSON.stringify([request.agent, request.sessionId ?? "", request.tool, request.input]))
    .digest("hex");
}

export async function askPermission(
  core: Core,
  card: Record<string, unknown>,
  request: PermissionRequestKey,
  via: string,
  /** The whole request the question allows (the card's `request`). */
  whole?: string,
): Promise<AskResult> {
  const key = requestKey(request);
  const requests = new PermissionRequests(core.ledger.db);
  const sameRequest: SameQuestion = (open, _asked, openId) =>
    open.kind === "permission" && requests.filedFor(openId, key);
  return askQuestion(core, card, {
    unlessOpen: sameRequest,
    via,
    agentPrompt: { kind: "permission", request: whole },
    meanwhile: ({ id }) =>
      requests.record(
        { questionId: id, agent: request.agent, sessionId: request.sessionId, requestKey: key },
        core.box.clock.iso(),
      ),
  });
}
