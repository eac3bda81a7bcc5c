// The answer form's controls, drawn from the parts the question's input type offers
// (src/card/inputs/): choices as radios or checkboxes (with the own-words field beside
// `_other`), a note, a box for one's own words, Send, or a submit button per choice. No
// script: checkboxes post every picked id as `choice`. This file draws; it never decides what a
// type takes (the type reads the post back, question-post.ts hands it over).

import type { Choice, FormPart } from "../card/inputs/contract.ts";
import { html, type Markup } from "./html.ts";

/** What the person sent last, kept when the page is shown again with a problem. */
export interface FormValues {
  /** The values named `choice`: the picked option ids (a radio's or a button's one). */
  choices?: string[] | undefined;
  other?: string | undefined;
  note?: string | undefined;
  text?: string | undefined;
}

function choiceMarkup(choice: Choice, multiple: boolean, values: FormValues): Markup {
  const checked = values.choices?.includes(choice.id) ?? false;
  // A radio group needs one picked; checkboxes need none each (the type says what is missing).
  const control = multiple
    ? html`<input type="checkbox" name="choice" value="${choice.id}"${checked ? html` checked` : ""}>`
    : html`<input type="radio" name="choice" value="${choice.id}" required${checked ? html` checked` : ""}>`;
  const letter =
    choice.letter === undefined ? "" : html`<span class="letter">${choice.letter})</span> `;
  const rec = choice.recommended ? html` <span class="rec">recommended</span>` : "";
  return html`<label class="choice">${control}<span>${letter}${choice.label}${rec}</span></label>
${choice.ownWords ? html`<input class="other" type="text" name="other" maxlength="20000" aria-label="${choice.label}: your own words" placeholder="Your own words for “${choice.label}”" value="${values.other ?? ""}">` : ""}`;
}

function choicesMarkup(part: { multiple: boolean; choices: Choice[] }, values: FormValues) {
  const label = part.multiple ? "Pick one or more" : "Pick one";
  return html`<fieldset style="border:0;padding:0;margin:0" aria-label="${label}">${part.choices.map((c) => choiceMarkup(c, part.multiple, values))}</fieldset>`;
}

function noteMarkup(folded: boolean, values: FormValues): Markup {
  // Folded, the choices and Send share a phone's first screen; a note sent back stays open.
  if (folded) {
    return html`<details class="note"${values.note ? html` open` : ""}><summary>Add a note (optional)</summary>
<textarea id="note" class="note" name="note" rows="2" maxlength="20000" aria-label="Note (optional)">${values.note ?? ""}</textarea></details>`;
  }
  return html`<label class="field" for="note">Note (optional)</label>
<textarea id="note" class="note" name="note" rows="2" maxlength="20000">${values.note ?? ""}</textarea>`;
}

function buttonsMarkup(choices: Choice[]): Markup {
  const buttons = choices.map((c, i) => {
    const rec = c.recommended ? " (recommended)" : "";
    // The first is the main button; the others look secondary.
    return i === 0
      ? html`<button type="submit" name="choice" value="${c.id}">${c.label}${rec}</button>`
      : html`<button type="submit" class="no" name="choice" value="${c.id}">${c.label}${rec}</button>`;
  });
  return html`<div class="pair">${buttons}</div>`;
}

function partMarkup(part: FormPart, values: FormValues): Markup {
  switch (part.part) {
    case "choices":
      return choicesMarkup(part, values);
    case "note":
      return noteMarkup(part.folded, values);
    case "words":
      return html`<label class="field" for="text">Your answer</label>
<textarea id="text" name="text" required maxlength="20000">${values.text ?? ""}</textarea>`;
    case "send":
      return html`<button type="submit">Send answer</button>`;
    case "buttons":
      return buttonsMarkup(part.choices);
  }
}

/** The form's controls, part by part, filled with what was sent last. */
export function answerFieldsMarkup(parts: FormPart[], values: FormValues): Markup {
  return html`${parts.map((part, i) => (i === 0 ? partMarkup(part, values) : html`\n${partMarkup(part, values)}`))}`;
}
