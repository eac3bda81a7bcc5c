// The one place where the core's named errors become the one-line replies of the bot.

import {
  CardChanged,
  CardUnreadable,
  InvalidAnswer,
  QbridgeError,
  QuestionNotFound,
  TransitionRejected,
} from "../../src/errors.ts";
import { shorten } from "./html.ts";

export function replyForError(error: unknown): string {
  if (error instanceof InvalidAnswer) {
    // A card's options can run to thousands of characters; the reply must stay one message.
    return `I could not match "${shorten(error.given, 60)}": expected ${shorten(error.expected, 1000)}. Nothing was recorded.`;
  }
  if (error instanceof CardChanged) {
    return "Not recorded: this question was edited since it was shown. Look at it again and reply anew.";
  }
  if (error instanceof TransitionRejected) {
    return `Not recorded: that question is already ${error.current}${error.detail ? ` (${error.detail})` : ""}.`;
  }
  if (error instanceof QuestionNotFound) return "That question is no longer in the box.";
  if (error instanceof CardUnreadable) {
    return "That question's card cannot be read right now; run qbridge doctor on the server.";
  }
  if (error instanceof QbridgeError) return `Not recorded: ${error.message}`;
  return "Something went wrong on the server; nothing was recorded. Try again in a moment.";
}
