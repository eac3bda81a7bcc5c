// The page shell every web page shares: a phone-first viewport, readable type, large tap
// targets, light and dark colours from the device's setting, and no script at all (every page
// works as plain HTML forms).

import { html, type Markup, raw } from "./html.ts";

const STYLE = `
:root{color-scheme:light dark;--fg:#1b1f24;--bg:#f4f5f7;--card:#fff;--line:#d0d7de;--muted:#57606a;--chip:#eaeef2;--input:#afb8c1;--link:#0969da;--ok:#1a7f37;--go:#1f883d;--bad:#cf222e;--warn:#bf8700;--hi-bg:#ffebe9;--hi-fg:#82071e}
@media (prefers-color-scheme:dark){:root{--fg:#e6edf3;--bg:#0d1117;--card:#161b22;--line:#30363d;--muted:#9da7b3;--chip:#21262d;--input:#484f58;--link:#4493f8;--ok:#3fb950;--go:#238636;--bad:#f85149;--warn:#d29922;--hi-bg:#490202;--hi-fg:#ffa198}}
*{box-sizing:border-box}
body{margin:0;font:17px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--fg);background:var(--bg)}
main{max-width:40rem;margin:0 auto;padding:1rem 1rem 3rem;overflow-wrap:break-word}
fieldset{min-width:0;border:0;padding:0;margin:0}
legend{font-weight:600;padding:0;margin:.9rem 0 .3rem}
h1{font-size:1.35rem;line-height:1.3;margin:.4rem 0 1rem}
h2{font-size:1rem;margin:1.6rem 0 .5rem;color:var(--muted);text-transform:uppercase;letter-spacing:.04em}
p{margin:.5rem 0}
h2.answer{margin:.75rem 0 .25rem}
.card{background:var(--card);border:1px solid var(--line);border-radius:12px;padding:.7rem .9rem;margin:.6rem 0}
.card>p:first-child{margin-top:0}
.card>p:last-child{margin-bottom:0}
.text{white-space:pre-wrap;overflow-wrap:anywhere}
.meta{color:var(--muted);font-size:.9rem}
.tag{display:inline-block;border-radius:999px;padding:.1rem .6rem;font-size:.8rem;background:var(--chip);color:var(--fg)}
.tag.high{background:var(--hi-bg);color:var(--hi-fg)}
.learn{border-left:4px solid var(--link)}
.warn{border-left:4px solid var(--warn)}
.notice{border-left:4px solid var(--ok)}
.problem{border-left:4px solid var(--bad)}
.warn-line{border-left:4px solid var(--warn);padding:.1rem 0 .1rem .6rem;margin:.6rem 0}
.choice{display:flex;align-items:flex-start;gap:.75rem;min-height:2.75rem;padding:.6rem .75rem;margin:.35rem 0;border:1px solid var(--line);border-radius:10px;background:var(--card);cursor:pointer}
.choice input{width:1.4rem;height:1.4rem;margin:.1rem 0 0;flex:none}
.choice>span{min-width:0}
.letter{font-weight:600;color:var(--muted)}
.rec{color:var(--ok);font-size:.85rem;font-weight:600}
label.field{display:block;font-weight:600;margin:.9rem 0 .3rem}
input,select,textarea,button{font:inherit;font-size:max(1em,16px)}
textarea,select,input:not([type=radio],[type=checkbox],[type=hidden]){display:block;width:100%;min-height:2.75rem;color:inherit;padding:.55rem .7rem;border:1px solid var(--input);border-radius:10px;background:var(--card)}
textarea{min-height:6rem}
textarea.note{min-height:3.2rem}
input.other{display:block;margin:.25rem 0 .5rem 2.9rem;width:calc(100% - 2.9rem)}
@supports selector(:has(*)){input.other{display:none}.choice:has(input:checked)+input.other{display:block}}
summary{cursor:pointer;min-height:2.75rem;padding:.55rem 0}
details.note>summary{color:var(--muted)}
button{font-weight:600;min-height:3rem;padding:.7rem 1.2rem;border-radius:10px;border:1px solid var(--go);background:var(--go);color:#fff;width:100%;margin:.5rem 0;cursor:pointer}
button.no{background:var(--card);color:var(--bad);border-color:var(--bad)}
button.quiet{background:var(--card);color:var(--muted);border-color:var(--input)}
.pair{display:flex;gap:.75rem}
.pair button{flex:1}
details.card>summary{color:var(--muted);padding:.3rem 0}
details.card[open]>summary{margin-bottom:.5rem}
nav.pages{display:flex;gap:.75rem;margin:1.5rem 0 0}
nav.pages a{flex:1;text-align:center;padding:.6rem;border:1px solid var(--line);border-radius:10px;background:var(--card);text-decoration:none;min-height:2.75rem}
ul.list,ul.fields{list-style:none;padding:0;margin:0}
ul.fields li{margin:.2rem 0}
ul.args{list-style:none;padding:0;margin:.2rem 0}
ul.args>li{padding:.3rem 0;border-top:1px solid var(--line)}
ul.args>li:first-child{border-top:0}
ul.args ul.args{padding-left:1rem}
.arg-name{font-weight:600}
ul.list li{margin:.5rem 0}
ul.list a{display:block;text-decoration:none;color:inherit;background:var(--card);border:1px solid var(--line);border-radius:10px;padding:.8rem 1rem;min-height:3rem}
.card h1,.card h2,.card h3,.card h4{font-size:1.05rem;line-height:1.35;margin:.9rem 0 .3rem;color:inherit;text-transform:none;letter-spacing:0}
.card ul:not([class]),.card ol:not([class]){padding-left:1.3rem}
pre{white-space:pre-wrap;overflow-wrap:anywhere;font-size:.9em}
table:not([class]){display:block;max-width:100%;overflow-x:auto;border-collapse:collapse}
table:not([class]) :is(td,th){border:1px solid var(--line);padding:.3rem .5rem;text-align:left}
img{max-width:100%}
a{color:var(--link)}
code{font-size:.9em;background:var(--chip);padding:.1rem .3rem;border-radius:4px}
`;

/** Where a signed page can send the person next: both links are freshly signed. */
export interface PageLinks {
  next?: string | undefined;
  all?: string | undefined;
}

function navigation(links: PageLinks | undefined): Markup {
  if (!links?.next && !links?.all) return html``;
  return html`<nav class="pages" aria-label="Pages">${links.next ? html`<a href="${links.next}" id="next-question">Next question</a>` : ""}${links.all ? html`<a href="${links.all}" id="all-questions">All questions</a>` : ""}</nav>`;
}

export function page(title: string, body: Markup, links?: PageLinks): string {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<meta name="robots" content="noindex, nofollow">
<title>${title}</title>
<style>${raw(STYLE)}</style>
</head>
<body><main>
${body}
${navigation(links)}
</main></body>
</html>
`.toString();
}
