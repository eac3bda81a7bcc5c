// A backlog for triage: 12 questions waiting, 5 of them with a recommendation (one of those
// irreversible), asked first so that all 5 are among the 10 a digest lists. Cards are written
// as an agent would write them; the clock is T0.

import {
  confirmCard,
  pendingCardText,
  selectCard,
  textCard,
  writeCardFile,
} from "../support/box.ts";

const at = (minutes: number) =>
  new Date(Date.parse("2026-07-10T08:00:00Z") + minutes * 60_000)
    .toISOString()
    .replace(".000Z", "Z");

/** The 4 whose recommendation a digest offers, with what accepting records. */
export const ACCEPTABLE = [
  { id: "rec-1", prompt: "Where do the March receipts go?", answer: "Finance" },
  { id: "rec-2", prompt: "May I rotate the backup keys?", answer: "Yes" },
  { id: "rec-3", prompt: "Where does the tax letter go?", answer: "Taxes" },
  { id: "rec-4", prompt: "May I email the landlord now?", answer: "No" },
] as const;

export const IRREVERSIBLE = { id: "rec-5", prompt: "Delete the old mailbox for good?" } as const;

export function writeBacklog(dir: string): void {
  const [one, two, three, four] = ACCEPTABLE;
  writeCardFile(
    dir,
    one.id,
    pendingCardText({
      ...selectCard({ prompt: one.prompt, recommended: "finance" }),
      "asked-at": at(0),
    }),
  );
  writeCardFile(
    dir,
    two.id,
    pendingCardText({
      ...confirmCard({ prompt: two.prompt, recommended: "yes" }),
      "asked-at": at(1),
    }),
  );
  writeCardFile(
    dir,
    three.id,
    pendingCardText({
      ...selectCard({ prompt: three.prompt, recommended: "taxes" }),
      "asked-at": at(2),
    }),
  );
  writeCardFile(
    dir,
    four.id,
    pendingCardText({
      ...confirmCard({ prompt: four.prompt, recommended: "no" }),
      "asked-at": at(3),
    }),
  );
  writeCardFile(
    dir,
    IRREVERSIBLE.id,
    pendingCardText({
      ...selectCard({ prompt: IRREVERSIBLE.prompt, recommended: "finance", irreversible: true }),
      "asked-at": at(4),
    }),
  );
  for (let i = 1; i <= 7; i++) {
    const card =
      i % 2 === 0
        ? selectCard({ prompt: `Where does scan ${i} go?` })
        : textCard({ prompt: `What is the name on contact ${i}?` });
    writeCardFile(dir, `plain-${i}`, pendingCardText({ ...card, "asked-at": at(10 + i) }));
  }
}
