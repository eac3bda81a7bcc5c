// HTML for the web pages, through hono/html: every interpolated value is escaped unless it is
// markup a template made (or `raw`, kept for the page shell's own constant style sheets). Card
// text can hold anything an agent wrote; it never becomes markup. This file only narrows the
// types: no value here is a promise, so a template is markup at once, never a promise of it,
// and `true` is left out because hono renders it as nothing (write the text wanted instead).

import { html as honoHtml } from "hono/html";
import type { HtmlEscapedString } from "hono/utils/html";

export { raw } from "hono/html";

export type Markup = HtmlEscapedString;

type Value = Markup | string | number | false | null | undefined | readonly Value[];

export function html(strings: TemplateStringsArray, ...values: Value[]): Markup {
  return honoHtml(strings, ...values) as Markup;
}
