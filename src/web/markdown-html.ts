// Markdown (a plan, a card's body) as HTML for the web page, rendered by markdown-it with raw
// HTML off: every tag in the text is shown as text, links go only to the schemes markdown-it
// allows (never javascript:, vbscript:, file: or data: text) and leave with no referrer, and
// an image is never loaded (it stays a link to follow by hand), so a page fetches nothing a
// text names.

import MarkdownItParser, { type MarkdownIt } from "markdown-it";

let renderer: MarkdownIt | undefined;

function markdownIt(): MarkdownIt {
  const md = new MarkdownItParser({ html: false, linkify: false, typographer: false });
  md.disable("image");
  const open = md.renderer.rules.link_open;
  md.renderer.rules.link_open = (tokens, idx, options, env, self) => {
    tokens[idx]?.attrSet("rel", "nofollow noreferrer");
    return open ? open(tokens, idx, options, env, self) : self.renderToken(tokens, idx, options);
  };
  return md;
}

/** The text as HTML in which nothing the text holds runs or loads. */
export function markdownHtml(text: string): string {
  renderer ??= markdownIt();
  return renderer.render(text);
}
