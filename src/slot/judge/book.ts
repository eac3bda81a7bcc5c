// The judge's book of who is who: the owners the box has paired on each surface, and the
// messages its surfaces showed questions in, read from the ledger. Read only.

import type { Core } from "../../questions/core.ts";
import { Owners } from "../owner.ts";
import { PresentationStore } from "../presentation/records.ts";
import type { Book } from "./who.ts";

export function bookOf(core: Core): Book {
  const owners = core.ledger.store(Owners);
  const presentations = core.ledger.store(PresentationStore);
  return {
    owner: (surface) => owners.get(surface)?.userId,
    showed: (surface, chatId, messageId) =>
      presentations.byMessage(surface, chatId, messageId) !== undefined,
  };
}
