// The judge's word on who acted and what they may do, in one place for every surface: a proof
// (proof.ts) resolved against what the surface declared and the owners the box has paired
// becomes a trust level; a trust level, an act and the card decide whether it may go on. A
// question filed by an agent's hook is answered and declined only by the boxholder, whatever
// the surface. Never takes a surface's word for who someone is.

import { isAgentPrompt, type Question } from "../../card/question.ts";
import { NotOwnSurface } from "../../errors.ts";
import type { CommandName } from "./attempt.ts";
import type { From, Proof, SurfaceDeclaration, Trust, Who } from "./proof.ts";

/** What the judge looks up to resolve a proof: the paired owners, the messages shown. */
export interface Book {
  /** The owner paired on `surface` (an account id, an address), when one is. */
  owner(surface: string): string | undefined;
  /** True when `messageId` in `chatId` is a message of `surface` that showed a question. */
  showed(surface: string, chatId: string, messageId: string): boolean;
}

/** The trust an attempt earns: what its surface proves, checked against its proof. */
export function whoActed(from: From, book: Book): Who {
  const { surface, proof } = from;
  const via = surface.name;
  const by = idOf(proof);
  const resolved = trustOf(surface, proof, book);
  return { via, by, trust: resolved.trust, why: resolved.why };
}

/** Who the proof names, as the card and the audit record it. */
function idOf(proof: Proof): string | undefined {
  switch (proof.kind) {
    case "account":
      return proof.userId;
    case "address":
      return proof.sender;
    case "terminal":
    case "shell":
      return proof.login;
    case "token":
      return proof.by;
    case "session":
    case "link":
      return undefined;
  }
}

const boxholder = { trust: "boxholder", why: undefined } as const;
const asker = (why: string) => ({ trust: "asker", why }) as const;
const stranger = (why: string) => ({ trust: "stranger", why }) as const;

function trustOf(
  surface: SurfaceDeclaration,
  proof: Proof,
  book: Book,
): { trust: Trust; why: string | undefined } {
  switch (surface.proves) {
    case "paired-account": {
      if (proof.kind !== "account") return mismatch(surface, proof);
      const owner = surface.fixedOwner ?? book.owner(surface.name);
      if (owner === undefined) return stranger("no boxholder is paired on this surface");
      if (proof.userId !== owner) return stranger("not the paired account");
      return proof.privateChat
        ? boxholder
        : stranger("the paired account, outside its private chat");
    }
    case "paired-address": {
      if (proof.kind !== "address") return mismatch(surface, proof);
      const owner = surface.fixedOwner ?? book.owner(surface.name);
      if (owner === undefined) return stranger("no boxholder is paired on this surface");
      if (proof.sender.toLowerCase() !== owner.toLowerCase()) {
        return stranger("not the paired address");
      }
      const replied = proof.inReplyTo;
      if (replied === undefined || !book.showed(surface.name, owner, replied)) {
        return stranger("the paired address, not replying to a message that showed a question");
      }
      return boxholder;
    }
    case "a-terminal":
      if (proof.kind !== "terminal") return mismatch(surface, proof);
      return proof.tty ? boxholder : asker("piped input, not a person at a terminal");
    case "signed-link":
      if (proof.kind !== "link") return mismatch(surface, proof);
      return proof.role === "boxholder" ? boxholder : asker("a link handed to an asker");
    case "agent":
      if (proof.kind === "token" || proof.kind === "session" || proof.kind === "shell") {
        return asker("an agent's surface");
      }
      return mismatch(surface, proof);
  }
}

/** A proof of another kind than the surface declared it takes: trusted with nothing. */
function mismatch(surface: SurfaceDeclaration, proof: Proof) {
  return stranger(`a ${proof.kind} proof on a surface that proves ${surface.proves}`);
}

/**
 * What an attempt does, as far as who may do it matters: answer a question (a pick, typed
 * words, a confirm, "same", accepting triage's list), decline it (dismiss), attend to it (park,
 * later, extend, next, show, the steps between), read what waits, or list and revoke the
 * agents' grants.
 */
export type Act = "answer" | "decline" | "attend" | "read" | "grants";

/** Why an act is refused to whoever tried it. */
export type Refusal =
  | { reason: "stranger" }
  | { reason: "not-own-surface"; error: NotOwnSurface }
  | { reason: "boxholder-only" };

/**
 * Whether `who` may do `act` (on `card`, when it is about one): a stranger nothing; only the
 * boxholder the grants, and answering or declining a question an agent's hook filed.
 */
export function mayAct(
  who: Who,
  act: Act,
  card?: { id: string; card: Pick<Question, "kind"> },
): Refusal | undefined {
  if (who.trust === "stranger") return { reason: "stranger" };
  if (who.trust === "boxholder") return undefined;
  if (act === "grants") return { reason: "boxholder-only" };
  if ((act === "answer" || act === "decline") && card && isAgentPrompt(card.card)) {
    const why = who.why ? `${who.via} (${who.why})` : who.via;
    return { reason: "not-own-surface", error: new NotOwnSurface(card.id, why) };
  }
  return undefined;
}

/** What each button action and command does, as far as who may do it matters. */
const ACTS: Record<CommandName, Act> = {
  answer: "answer",
  confirm: "answer",
  same: "answer",
  accept: "answer",
  // A multiselect's picks: toggling one is part of answering, and Send answers.
  toggle: "answer",
  send: "answer",
  dismiss: "decline",
  back: "attend",
  park: "attend",
  later: "attend",
  extend: "attend",
  show: "attend",
  triage: "attend",
  next: "attend",
  waiting: "read",
  grants: "grants",
  revoke: "grants",
};

export function actOf(name: CommandName): Act {
  return ACTS[name];
}
