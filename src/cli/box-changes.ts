// What the box commands that change the box (or wait for a change) run: loaded with the
// command that needs them, not with every box command. `list` and `show` read the card index
// and cards, and loading the transition core, git's commit path and the stats with them
// cost each of those short commands a few milliseconds.

export { ageQuestions } from "../questions/aging.ts";
export { dismissQuestion } from "../questions/close.ts";
export { readCommitted, settleBeforeListing } from "../questions/transition.ts";
export { waitForOutcome } from "../questions/waiter.ts";
export { withdrawQuestion } from "../questions/withdraw.ts";
export { judgeAnswer } from "../slot/judge/by-id.ts";
export { CLI_SURFACE } from "../surfaces.ts";
