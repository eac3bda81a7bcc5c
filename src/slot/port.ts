// The one door from the bridges into the core: everything a chat bridge (bridges/telegram,
// bridges/terminal) may use of the cards, the questions and the slot, and nothing else. A
// bridge imports the core only from here (plus the floor's errors and backoff, and the
// settings helpers), so the test of the layers sees at a glance what a bridge depends on. It
// only re-exports; it holds no code. What it offers: the types of the attempts a bridge makes
// and the outcomes it renders, its Door (door.ts: attempts, buttons, presentations, pairing,
// its own ledger values), the presenter contract, and pure helpers for words a person reads.
// No core, no store, no database: what a new bridge needs is added here, in its group; the
// groups stand in the order of their paths, as the formatter sorts them.

// Cards: a question's fields and options, and their letters; what its input type offers; an
// agent's request shown whole.
export { PROMPT_SHOWN_CHARS, requestBeyondPrompt, unseenAllow } from "../card/agent-request.ts";
export { controlsSpelled } from "../card/agent-text.ts";
export { shorten } from "../card/excerpt.ts";
export type { Buttons, Choice, ChoiceButton, TypedHint } from "../card/inputs/contract.ts";
export type { Question } from "../card/question.ts";
export { inputTypeOf, mayWait, optionsOf } from "../card/question.ts";
export { letterOf } from "../card/resolve.ts";
// Questions: a question's deadline in words, the doctor's checks, a question as the slot shows it.
export { deadlineOf, expiryWords } from "../questions/deadline.ts";
export type { DoctorCheck, Finding } from "../questions/doctor/doctor.ts";
export type { QuestionView } from "../questions/state.ts";
// Attention: "Later" and when a put-off question comes back.
export type { LaterOption } from "./attention/later.ts";
export { backAt } from "./attention/later.ts";
// The bridge contract: what a bridge is, what it is given, how it joins the bridge list.
export type { Bridge, BridgeDeps, BridgePlug } from "./bridge.ts";
// The door: what a bridge hands the judge and gets back, for its own surface.
export type { Door, DoorAttempt, DoorPairing } from "./door.ts";
// The judge's words: what an attempt carries of the person, and the outcomes to render.
export type {
  CommandName,
  CommandView,
  Outcome,
  Proof,
  PutOff,
  SurfaceDeclaration,
  Trust,
} from "./judge/judge.ts";
export { ELSEWHERE_REPLY, UNKNOWN_REPLY } from "./judge/taps.ts";
// Pairing a chat with the boxholder.
export type { Pairing } from "./owner.ts";
export { PAIRING_LIFETIME_MS, PAIRING_WINDOW_MS } from "./owner.ts";
// Presentations: what a bridge shows, where, with which buttons, and what closes it.
export type { Closure, Presenter, PresentRequest } from "./presentation/presenter.ts";
export { ChatRefuses } from "./presentation/presenter.ts";
export type { Address, Presentation } from "./presentation/records.ts";
export type { ButtonSpec, ButtonToken } from "./presentation/tokens.ts";
// The log the bridges write to.
export type { SlotLogger, Waiting } from "./slot.ts";
// Triage: the waiting list's digest and its one-tap offers.
export type { Digest, DigestLine, OfferItem, OfferResult, TriageView } from "./triage/triage.ts";
export { recommendationWords, TRIAGE_NOTE } from "./triage/triage.ts";
