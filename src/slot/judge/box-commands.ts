// The commands that need no open question, the same on every surface once the judge has let
// them through: `next` shows the next question (the earliest put-off one when nothing else
// waits), `waiting` says what waits (the triage digest with a backlog), `grants` lists the
// agents' live grants and `revoke` takes one back. Each returns what it found for the bridge
// to show; none writes a card.

import { loadQuestion } from "../../questions/store.ts";
import { liveGrantLines, revokeGrant } from "../grants.ts";
import { boxDigest } from "../triage/triage.ts";
import type { BoxCommand, BoxContext, Judging, Outcome, PutOff } from "./attempt.ts";

/** The pending questions still put off now, the earliest back first. */
export function putOffNow(j: Pick<Judging, "slot">): PutOff[] {
  const { slot } = j;
  const found: PutOff[] = [];
  for (const id of slot.later.waiting(slot.core.box.clock.now())) {
    const until = slot.later.until(id);
    let card: ReturnType<typeof loadQuestion>["card"] | undefined;
    try {
      card = loadQuestion(slot.core, id).card;
    } catch {
      card = undefined;
    }
    if (until && card?.status === "pending") {
      found.push({ id, prompt: card.prompt, until: new Date(until) });
    }
  }
  return found.sort((a, b) => a.until.getTime() - b.until.getTime());
}

async function next(c: BoxContext): Promise<Outcome> {
  const { ops, slot } = c;
  const open = ops.current();
  const view = (result: "presented" | "brought-back" | "busy" | "held-elsewhere" | "nothing") => ({
    kind: "next" as const,
    result,
    open: ops.current(),
    count: ops.waiting().count,
    putOff: putOffNow(c),
  });
  if (open) {
    const result = ops.mine(open) ? "busy" : "held-elsewhere";
    return {
      kind: "refused",
      name: `next:${result}`,
      reason: "not-current",
      reply: "",
      shows: view(result),
    };
  }
  const { presented } = await ops.next();
  if (presented)
    return { kind: "recorded", name: "next:presented", reply: "", shows: view("presented") };
  const first = putOffNow(c)[0];
  if (first) {
    slot.later.clear(first.id);
    if (await ops.show(first.id)) {
      return {
        kind: "recorded",
        name: "next:brought-back",
        reply: "",
        shows: view("brought-back"),
      };
    }
  }
  return { kind: "recorded", name: "next:nothing", reply: "", shows: view("nothing") };
}

function waiting(c: BoxContext): Outcome {
  const shows = {
    kind: "waiting" as const,
    waiting: c.ops.waiting(),
    digest: boxDigest(c.slot.core),
    putOff: putOffNow(c),
  };
  return { kind: "recorded", name: "waiting", reply: "", shows };
}

function grants(c: BoxContext): Outcome {
  const lines = liveGrantLines(c.slot);
  return {
    kind: "recorded",
    name: "grants",
    reply: lines.join("\n"),
    shows: { kind: "grants", lines },
  };
}

function revoke(c: BoxContext): Outcome {
  const id = c.attempt.label?.trim() ?? "";
  if (!id) {
    return {
      kind: "clarification",
      name: "revoke-asked",
      reply: "Say which: /revoke ID (/grants lists them).",
    };
  }
  return { kind: "recorded", name: "revoked", reply: revokeGrant(c.slot, id, c.who.via) };
}

export const BOX_COMMANDS: Record<BoxCommand, (c: BoxContext) => Promise<Outcome> | Outcome> = {
  next,
  waiting,
  grants,
  revoke,
};

export function isBoxCommand(name: string): name is BoxCommand {
  return name in BOX_COMMANDS;
}
