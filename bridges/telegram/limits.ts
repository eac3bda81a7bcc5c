// Telegram's limits, in one place. Messages are measured as the HTML we send, which is never
// shorter than what Telegram counts after parsing it, so staying under here stays under there.

export const MAX_MESSAGE_CHARS = 4096;
export const MAX_CALLBACK_DATA_BYTES = 64;
/** answerCallbackQuery shows at most 200 characters. */
export const MAX_CALLBACK_ANSWER_CHARS = 200;
/** Longer button texts are cut by the apps; we shorten them ourselves and show them whole in the text. */
export const MAX_BUTTON_CHARS = 40;
