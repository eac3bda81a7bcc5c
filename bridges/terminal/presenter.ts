// The terminal side of the slot: writes the presented question to the keyboard's screen, a
// line when it closes, and nudges. A terminal has no message to edit, so a closed presentation
// is told as a new line; the presentation's address is the terminal and its ledger number.

import type {
  Closure,
  Presentation,
  Presenter,
  PresentRequest,
  QuestionView,
  SurfaceDeclaration,
} from "../../src/slot/port.ts";
import { closedText, nudgeText, questionText } from "./render.ts";

export const SURFACE = "terminal";

/** What the terminal proves of whoever types: a person at a terminal; piped input, an asker. */
export const TERMINAL: SurfaceDeclaration = { name: SURFACE, proves: "a-terminal" };

export function createTerminalPresenter(deps: {
  write: (text: string) => void;
  /**
   * Where a presented question's block goes, with its presentation (the chat holds it while a
   * typed line is told, and notes a line begun before it appeared).
   */
  writeQuestion?: (text: string, seq: number) => void;
  now: () => Date;
}): Presenter {
  const { write } = deps;
  const writeQuestion = deps.writeQuestion ?? write;
  return {
    surface: SURFACE,
    // The screen is this process's: a quit or killed chat leaves the slot to the others.
    livesWithProcess: true,
    // It prints every card whole, an agent's whole request too (render.ts).
    shows: Number.POSITIVE_INFINITY,
    ready: () => true,
    async present(request: PresentRequest) {
      writeQuestion(
        questionText(request.question.card, request.behind, deps.now(), request.lastTime),
        request.seq,
      );
      return { chatId: SURFACE, messageId: String(request.seq) };
    },
    async closed(presentation: Presentation, closure: Closure) {
      write(closedText(closure.card?.prompt ?? presentation.questionId, closure));
    },
    async nudge(question: QuestionView, presented: Presentation | undefined) {
      const asked = new Date(question.card["asked-at"]).getTime();
      const days = Math.floor((deps.now().getTime() - asked) / 86_400_000);
      write(nudgeText(question.card, days, presented !== undefined));
      return true;
    },
  };
}
