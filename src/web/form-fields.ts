// The web form of an elicitation with several fields: one control per field of the MCP
// server's form (a choice list for an enum, checkboxes for a multi-select, yes/no for a boolean,
// a number or a text box), and the values sent back as the JSON the question's answer holds.
// The core checks that JSON against the form before it records it; this page never decides
// what is valid.

import { formFields } from "../card/elicitation.ts";
import type { Question } from "../card/question.ts";
import { html, type Markup } from "./html.ts";

const PREFIX = "field.";

/** A question answered with this form: an elicitation whose form has more than one field. */
export function isMultiFieldForm(card: Question): boolean {
  return card.kind === "elicitation" && formFields(card["requested-schema"] ?? {}).length > 1;
}

function previous(text: string | undefined): Record<string, unknown> {
  try {
    const value = JSON.parse(text ?? "{}");
    return value && typeof value === "object" ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/**
 * The form's controls: on first sight filled with the schema's defaults, when shown again with
 * what was sent last (the answer's JSON), so a field the person cleared stays clear.
 */
export function formFieldsMarkup(card: Question, text: string | undefined): Markup {
  const given = previous(text);
  const controls = formFields(card["requested-schema"] ?? {}).map((field) => {
    const name = `${PREFIX}${field.name}`;
    const id = `f-${field.name.replace(/[^A-Za-z0-9_-]/g, "_")}`;
    if (field.type === "multiselect") {
      const sent = given[field.name];
      const picked = text === undefined ? [] : Array.isArray(sent) ? sent.map(String) : [];
      const boxes = (field.choices ?? []).map(
        (c) =>
          html`<label><input type="checkbox" name="${name}" value="${c.value}"${picked.includes(c.value) ? html` checked` : ""}> ${c.label}</label>`,
      );
      const label = html`<p class="field">${field.title}${field.required ? " *" : ""}</p>${field.description ? html`<p class="meta">${field.description}</p>` : ""}`;
      return html`${label}${boxes}`;
    }
    const sent = given[field.name] === undefined ? "" : String(given[field.name]);
    const value = text === undefined ? (field.default ?? "") : sent;
    const required = field.required ? html` required` : "";
    const label = html`<label class="field" for="${id}">${field.title}${field.required ? " *" : ""}</label>${field.description ? html`<p class="meta">${field.description}</p>` : ""}`;
    if (field.type === "enum" || field.type === "boolean") {
      const choices =
        field.type === "boolean"
          ? [
              { value: "true", label: "Yes" },
              { value: "false", label: "No" },
            ]
          : (field.choices ?? []);
      const options = choices.map(
        (c) =>
          html`<option value="${c.value}"${c.value === value ? html` selected` : ""}>${c.label}</option>`,
      );
      return html`${label}<select id="${id}" name="${name}"${required}><option value="">—</option>${options}</select>`;
    }
    const type = field.type === "string" ? "text" : "number";
    const step = field.type === "number" ? html` step="any"` : "";
    return html`${label}<input id="${id}" type="${type}" name="${name}" value="${value}"${step}${required}>`;
  });
  return html`${controls}
<button type="submit">Send answer</button>`;
}

/** The fields a form post carried, as the answer's JSON text; undefined when it had none. */
export function formFieldsText(body: Record<string, unknown>): string | undefined {
  const values: Record<string, string | string[]> = {};
  for (const [key, value] of Object.entries(body)) {
    if (!key.startsWith(PREFIX)) continue;
    if (typeof value === "string" && value.trim() !== "") {
      values[key.slice(PREFIX.length)] = value.trim();
    } else if (Array.isArray(value)) {
      // Checkboxes send one value per box ticked (a multi-select field).
      values[key.slice(PREFIX.length)] = value.filter((v): v is string => typeof v === "string");
    }
  }
  const keys = Object.keys(body).filter((key) => key.startsWith(PREFIX));
  return keys.length === 0 ? undefined : JSON.stringify(values);
}
