// Triage at the keyboard, as on Telegram and the web: with a backlog, `waiting` prints the
// digest the judge found (src/slot/triage/); `accept` prints exactly what accepting its
// recommendations would record, and `record` records that list. Each step is a button's token
// handed to the one judge, as a tap is: the keyboard has no buttons, so the token of the last
// list printed is kept here, tied to the line it was printed with, and typing the word is the
// tap. Nothing is recorded before `record`, and a list is recorded once.

import { randomBytes } from "node:crypto";
import type { ButtonSpec, Digest, DigestLine, Door, Outcome, Proof } from "../../src/slot/port.ts";
import { SURFACE } from "./presenter.ts";
import { digestText, offerResultText, offerText } from "./render.ts";

/** A printed list's token, and the line it went with (its "message"). */
interface Printed {
  token: string;
  messageId: string;
}

export interface KeyboardTriageDeps {
  door: Door;
  proof: Proof;
  write: (text: string) => void;
  /** What the line says for an outcome that recorded nothing. */
  lineFor: (outcome: Outcome, nothingOpen: string) => string;
}

/** This chat's printed lines: their count, and the lists `accept` and `record` would tap. */
interface Lines {
  /** Unique across chats, so a token is only ever typed where it was printed. */
  chat: string;
  printed: number;
  /** The digest's [Accept N recommendations], then the offer's [Record these N]. */
  accept: Printed | undefined;
  record: Printed | undefined;
}

/** The keyboard's triage words (`waiting`, `accept`, `record`), each a tap on the last list. */
export function createKeyboardTriage(deps: KeyboardTriageDeps) {
  const { write } = deps;
  const lines: Lines = {
    chat: randomBytes(4).toString("hex"),
    printed: 0,
    accept: undefined,
    record: undefined,
  };

  return {
    /** The backlog's digest `waiting` found, and `accept` armed when it offers anything. */
    async digest(digest: Digest): Promise<void> {
      const first = (digest.lines[0] as DigestLine).id;
      if (digest.offer.length === 0) write(digestText(digest));
      else lines.accept = await print(deps, lines, first, { action: "triage" }, digestText(digest));
      lines.record = undefined;
    },

    /** The list of exactly what `record` would record; nothing recorded. */
    async accept(): Promise<void> {
      const shown = lines.accept;
      if (!shown) {
        write("Nothing to accept: type waiting first; with 5 or more waiting it lists them.\n");
        return;
      }
      lines.accept = undefined;
      await tap(deps, shown, async (outcome) => {
        if (outcome.triage?.step !== "offer") return void write(deps.lineFor(outcome, ""));
        const { offerId, items } = outcome.triage;
        const spec = { action: "accept", optionId: offerId } as const;
        lines.record = await print(deps, lines, items[0]?.id ?? "", spec, offerText(items));
      });
    },

    /** Records the last list printed by `accept`, once. */
    async record(): Promise<void> {
      const shown = lines.record;
      if (!shown) {
        write("Nothing to record: type waiting, then accept, to see what would be recorded.\n");
        return;
      }
      lines.record = undefined;
      await tap(deps, shown, (outcome) => write(recordedLine(deps, outcome)));
    },
  };
}

/** Prints a list as a new line whose one button's token the judge mints around the write. */
async function print(
  { door, write }: KeyboardTriageDeps,
  lines: Lines,
  owner: string,
  spec: ButtonSpec,
  text: string,
): Promise<Printed> {
  const messageId = `${lines.chat}-${++lines.printed}`;
  let token = "";
  await door.withButtons({ questionId: owner }, SURFACE, [spec], async (t) => {
    token = t[0] as string;
    write(text);
    return messageId;
  });
  return { token, messageId };
}

/** Hands the printed list's token to the judge, as a tap on its button would. */
async function tap(
  { door, proof }: KeyboardTriageDeps,
  printed: Printed,
  render: (outcome: Outcome) => Promise<void> | void,
): Promise<void> {
  await door.attempt(
    {
      kind: "button",
      proof,
      token: printed.token,
      where: { chatId: SURFACE, messageId: printed.messageId },
    },
    async (outcome) => render(outcome),
  );
}

/** What `record` prints: what the list recorded, that it was too old, or why nothing was. */
function recordedLine(deps: KeyboardTriageDeps, outcome: Outcome): string {
  if (outcome.triage?.step === "result") {
    return offerResultText(outcome.triage.result, outcome.triage.replayed);
  }
  if (outcome.reason === "late") {
    return "This list is over an hour old, so nothing was recorded: type waiting for a fresh one.\n";
  }
  return deps.lineFor(outcome, "");
}
