// The door a chat bridge is given into the core, for one surface: the attempts it hands the
// judge (each stamped with the surface as it declared itself, so a bridge cannot speak for
// another), the buttons it sends, the presentations it shows, pairing, and its own values in
// the ledger. Narrow on purpose: a bridge gets no core, no store and no database, and decides
// nothing about who someone is; it passes what it saw (a proof) and renders what comes back.

import { auditRefused, safeAudit } from "../questions/audit.ts";
import { bookOf } from "./judge/book.ts";
import type {
  ButtonAttempt,
  CommandAttempt,
  Judge,
  Outcome,
  StrangerUpdate,
  TextAttempt,
} from "./judge/judge.ts";
import { createJudge } from "./judge/judge.ts";
import type { Proof, SurfaceDeclaration, Trust } from "./judge/proof.ts";
import { whoActed } from "./judge/who.ts";
import type { Pairing } from "./owner.ts";
import type { Presenter } from "./presentation/presenter.ts";
import type { Presentation } from "./presentation/records.ts";
import type { Slot, Waiting } from "./slot.ts";

/** An attempt as a bridge makes it: what it saw of the person (`proof`), not who they are. */
export type DoorAttempt =
  | (Omit<ButtonAttempt, "from"> & { proof: Proof })
  | (Omit<TextAttempt, "from"> & { proof: Proof })
  | (Omit<CommandAttempt, "from"> & { proof: Proof });

/** A pairing code sent on this surface, decided; `already`: the sender is the boxholder. */
export type DoorPairing = Pairing | { ok: false; reason: "already" };

export interface Door {
  /** The surface this door opens, as it declared itself. */
  readonly surface: SurfaceDeclaration;
  /** The box's time zone, for times a person reads ("back tomorrow at 09:00"). */
  readonly timeZone: string;
  /**
   * Judges an attempt made on this surface, under the slot's lock: decides, records, lets the
   * bridge `render` the outcome, then does the slot's work that follows (Judge.attempt).
   */
  attempt(attempt: DoorAttempt, render?: (outcome: Outcome) => Promise<void>): Promise<Outcome>;
  /** Sends a message with buttons whose tokens the judge mints (Judge.withButtons). */
  withButtons: Judge["withButtons"];
  /** The presentation a message of this surface shows (a reply that quotes it). */
  quoted(chatId: string, messageId: string): Presentation | undefined;
  /** True when an update was handled to the end before: a redelivery to skip. */
  handledBefore(key: string): boolean;
  /** Marks an update handled, once its handling has ended. */
  handled(key: string): void;
  /** How the judge trusts whoever this proof names: a bridge picks its words by it, no more. */
  trust(proof: Proof): Trust;
  /**
   * Audits a stranger's update that is no attempt (a picture, an edit, a group chat's message).
   * With `once`: true only the first time for this chat (the one polite refusal a bridge sends
   * there); without, false, and nothing is remembered for the chat.
   */
  refuseStranger(entry: Omit<StrangerUpdate, "surface">): boolean;
  /** True only the first time for this chat: whether to send a stranger the polite refusal. */
  refuseOnce(chatId: string): boolean;
  /** The boxholder on this surface: the account or address a setting fixes, else the paired one. */
  owner(): string | undefined;
  /**
   * A pairing code `userId` sent: decided and audited. `after` (once the bridge has said the
   * outcome) shows the open question again in the new boxholder's chat, or fills the slot.
   */
  pair(code: string, userId: string): { pairing: DoorPairing; after: () => Promise<void> };
  /**
   * Shows this surface's questions through `presenter`. `reader`: what its reader proves, where
   * the bridge knows it when attaching (a terminal's streams); when the judge takes it for less
   * than the boxholder, the presenter reaches nobody a hook's question could (askerOnly).
   */
  attach(presenter: Presenter, reader?: Proof): void;
  /**
   * Someone wrote: when the judge takes them for the boxholder and their chat was held off as
   * refusing messages, it takes them again; true then (fill the slot once the update is handled).
   */
  heard(proof: Proof): boolean;
  /** Presents the next question when the slot is free. */
  fill(): Promise<void>;
  /** What waits: the count, the top question, the open presentation. */
  waiting(): Waiting;
  /** The open presentation, on whatever surface. */
  current(): Presentation | undefined;
  /** The box's clock. */
  now(): Date;
  /** This bridge's own values in the ledger, under keys of its surface's. */
  meta: {
    get(key: string): string | undefined;
    set(key: string, value: string): void;
    delete(key: string): void;
  };
}

/** The ledger's key of a bridge's own value (`door.meta`): its surface's name, then its key. */
export function bridgeMetaKey(surface: string, key: string): string {
  return `${surface}-${key}`;
}

export function openDoor(slot: Slot, surface: SurfaceDeclaration): Door {
  const judge = createJudge(slot);
  const { core } = slot;
  const name = surface.name;
  const iso = () => core.box.clock.iso();
  const metaKey = (key: string) => bridgeMetaKey(name, key);
  const owner = () =>
    ("fixedOwner" in surface ? surface.fixedOwner : undefined) ?? slot.owners.get(name)?.userId;
  const trust = (proof: Proof) => whoActed({ surface, proof }, bookOf(core)).trust;
  return {
    surface,
    // Read when a time is shown, never as the door opens: reading it may start ICU.
    get timeZone() {
      return slot.attention.timeZone;
    },
    attempt: ({ proof, ...rest }, render) =>
      judge.attempt(
        { ...rest, from: { surface, proof } } as Parameters<Judge["attempt"]>[0],
        render,
      ),
    withButtons: (...args) => judge.withButtons(...args),
    quoted: (chatId, messageId) => judge.quoted(name, chatId, messageId),
    handledBefore: (key) => judge.handledBefore(key),
    handled: (key) => judge.handled(key),
    trust,
    refuseStranger: (entry) => judge.refuseStranger({ ...entry, surface: name }),
    refuseOnce: (chatId) => slot.inbox.refuseOnce(name, chatId, iso()),
    owner,
    pair: (code, userId) => pair(slot, surface, owner, code, userId),
    attach: (presenter, reader) =>
      slot.attach(
        reader === undefined || trust(reader) === "boxholder"
          ? presenter
          : { ...presenter, askerOnly: true },
      ),
    heard: (proof) => trust(proof) === "boxholder" && slot.heard(name),
    fill: async () => {
      await slot.fill();
    },
    waiting: () => slot.waiting(),
    current: () => slot.current(),
    now: () => core.box.clock.now(),
    meta: {
      get: (key) => core.ledger.getMeta(metaKey(key)),
      set: (key, value) => core.ledger.setMeta(metaKey(key), value),
      delete: (key) => core.ledger.deleteMeta(metaKey(key)),
    },
  };
}

/** A pairing code, decided by the slot's owner rules and audited; the slot moved on after. */
function pair(
  slot: Slot,
  surface: SurfaceDeclaration,
  owner: () => string | undefined,
  code: string,
  userId: string,
): { pairing: DoorPairing; after: () => Promise<void> } {
  const { core } = slot;
  const name = surface.name;
  const entry = { at: core.box.clock.iso(), surface: name, actor: userId, action: "pair" };
  const nothing = async () => undefined;
  if (owner() === userId) return { pairing: { ok: false, reason: "already" }, after: nothing };
  let pairing: Pairing;
  try {
    pairing = slot.owners.pair(name, code, userId, core.box.clock.now());
  } catch (error) {
    auditRefused(core, entry, error);
    throw error;
  }
  safeAudit(core, {
    ...entry,
    outcome: pairing.ok ? "applied" : `refused:${pairing.reason}`,
    ...(pairing.ok && pairing.replaced
      ? { detail: `replaced ${name} user ${pairing.replaced.userId}` }
      : {}),
  });
  if (!pairing.ok) return { pairing, after: nothing };
  return {
    pairing,
    // A question open in the replaced boxholder's chat is shown again in the new one's.
    async after() {
      const open = slot.current();
      if (open?.surface === name && open.chatId !== undefined && open.chatId !== userId) {
        await slot.show(open.questionId, { again: true });
      } else {
        await slot.fill();
      }
    },
  };
}
