// Triage at the keyboard, as on Telegram and the web: with a backlog, `waiting` prints the
// digest (src/slot/triage/); `accept` prints exactly what accepting its recommendations would
// record, and `record` records that list. Each step is a button's token handed to the one judge,
// as a tap is: the keyboard has no buttons, so the token of the last list printed is kept here,
// tied to the line it was printed with, and typing the word is the tap. Nothing is recorded
// before `record`, and a list is recorded once.

import { randomBytes } from "node:crypto";
import {
  type Actor,
  type ButtonSpec,
  boxDigest,
  type DigestLine,
  type Judge,
  type Outcome,
  type Slot,
} from "../../src/slot/port.ts";
import { SURFACE } from "./presenter.ts";
import { digestText, offerResultText, offerText } from "./render.ts";

/** A printed list's token, and the line it went with (its "message"). */
interface Printed {
  token: string;
  messageId: string;
}

export interface TriageDeps {
  slot: Slot;
  judge: Judge;
  actor: Actor;
  write: (text: string) => void;
  /** What the line says for an outcome that recorded nothing. */
  lineFor: (outcome: Outcome, nothingOpen: string) => string;
}

export function createKeyboardTriage(deps: TriageDeps): KeyboardTriage {
  return new KeyboardTriage(deps);
}

/** One chat's triage: the lists it printed, and the token each one's word taps. */
export class KeyboardTriage {
  private readonly deps: TriageDeps;
  /** This chat's lines: unique across chats, so a token is only ever typed where it was printed. */
  private readonly chat = randomBytes(4).toString("hex");
  private printed = 0;
  /** The digest's [Accept N recommendations], then the offer's [Record these N]. */
  private acceptable: Printed | undefined;
  private recordable: Printed | undefined;

  constructor(deps: TriageDeps) {
    this.deps = deps;
  }

  /** With a backlog: the digest, and `accept` armed when it offers anything. False without. */
  async waiting(): Promise<boolean> {
    const { slot, write } = this.deps;
    const digest = boxDigest(slot.core);
    if (!digest) return false;
    const first = (digest.lines[0] as DigestLine).id;
    if (digest.offer.length === 0) write(digestText(digest));
    else this.acceptable = await this.print(first, { action: "triage" }, digestText(digest));
    this.recordable = undefined;
    return true;
  }

  /** The list of exactly what `record` would record; nothing recorded. */
  async accept(): Promise<void> {
    const { write, lineFor } = this.deps;
    const shown = this.acceptable;
    if (!shown) {
      write("Nothing to accept: type waiting first; with 5 or more waiting it lists them.\n");
      return;
    }
    this.acceptable = undefined;
    await this.tap(shown, async (outcome) => {
      if (outcome.triage?.step !== "offer") return void write(lineFor(outcome, ""));
      const { offerId, items } = outcome.triage;
      const spec = { action: "accept", optionId: offerId } as const;
      this.recordable = await this.print(items[0]?.id ?? "", spec, offerText(items));
    });
  }

  /** Records the last list printed by `accept`, once. */
  async record(): Promise<void> {
    const { write, lineFor } = this.deps;
    const shown = this.recordable;
    if (!shown) {
      write("Nothing to record: type waiting, then accept, to see what would be recorded.\n");
      return;
    }
    this.recordable = undefined;
    await this.tap(shown, (outcome) => {
      if (outcome.triage?.step === "result") {
        write(offerResultText(outcome.triage.result, outcome.triage.replayed));
      } else if (outcome.reason === "late") {
        write(
          "This list is over an hour old, so nothing was recorded: type waiting for a fresh one.\n",
        );
      } else write(lineFor(outcome, ""));
    });
  }

  /** Prints a list with its one button's token, minted by the judge for this line. */
  private async print(owner: string, spec: ButtonSpec, text: string): Promise<Printed> {
    const messageId = `${this.chat}-${++this.printed}`;
    let token = "";
    await this.deps.judge.withButtons({ questionId: owner }, SURFACE, [spec], async (t) => {
      token = t[0] as string;
      this.deps.write(text);
      return messageId;
    });
    return { token, messageId };
  }

  /** Typing the word of a printed list: its token, as a tap, for the judge. */
  private async tap(printed: Printed, render: (outcome: Outcome) => Promise<void> | void) {
    await this.deps.judge.attempt(
      {
        kind: "button",
        surface: SURFACE,
        actor: this.deps.actor,
        token: printed.token,
        where: { chatId: SURFACE, messageId: printed.messageId },
      },
      async (outcome) => render(outcome),
    );
  }
}
