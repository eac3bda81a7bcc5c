// The page shell every web page shares: a phone-first viewport, readable type, large tap
// targets, and no script at all (every page works as plain HTML forms).

import { html, Markup } from "./html.ts";

const STYLE = `
*{box-sizing:border-box}
body{margin:0;font:17px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1b1f24;background:#f4f5f7}
main{max-width:40rem;margin:0 auto;padding:1rem 1rem 3rem}
h1{font-size:1.35rem;line-height:1.3;margin:.4rem 0 1rem}
h2{font-size:1rem;margin:1.6rem 0 .5rem;color:#57606a;text-transform:uppercase;letter-spacing:.04em}
p{margin:.5rem 0}
.card{background:#fff;border:1px solid #d0d7de;border-radius:12px;padding:.85rem 1rem;margin:.75rem 0}
.card>p:first-child{margin-top:0}
.card>p:last-child{margin-bottom:0}
.text{white-space:pre-wrap;overflow-wrap:anywhere}
.meta{color:#57606a;font-size:.9rem}
.tag{display:inline-block;border-radius:999px;padding:.1rem .6rem;font-size:.8rem;background:#eaeef2;color:#24292f}
.tag.high{background:#ffebe9;color:#82071e}
.learn{border-left:4px solid #0969da}
.warn{border-left:4px solid #bf8700}
.notice{border-left:4px solid #1a7f37}
.problem{border-left:4px solid #cf222e}
.choice{display:flex;align-items:flex-start;gap:.75rem;min-height:3rem;padding:.75rem;margin:.5rem 0;border:1px solid #d0d7de;border-radius:10px;background:#fff;cursor:pointer}
.choice input{width:1.4rem;height:1.4rem;margin:.1rem 0 0;flex:none}
.letter{font-weight:600;color:#57606a}
.rec{color:#1a7f37;font-size:.85rem;font-weight:600}
label.field{display:block;font-weight:600;margin:.9rem 0 .3rem}
textarea,input[type=text]{width:100%;font:inherit;padding:.7rem;border:1px solid #afb8c1;border-radius:10px;background:#fff}
textarea{min-height:6rem}
input.other{display:block;margin:.25rem 0 .5rem 2.9rem;width:calc(100% - 2.9rem)}
button{font:inherit;font-weight:600;min-height:3rem;padding:.7rem 1.2rem;border-radius:10px;border:1px solid #1f883d;background:#1f883d;color:#fff;width:100%;margin:.5rem 0;cursor:pointer}
button.no{background:#fff;color:#cf222e;border-color:#cf222e}
button.quiet{background:#fff;color:#57606a;border-color:#afb8c1}
.pair{display:flex;gap:.75rem}
.pair button{flex:1}
ul.list{list-style:none;padding:0;margin:0}
ul.list li{margin:.5rem 0}
ul.list a{display:block;text-decoration:none;color:inherit;background:#fff;border:1px solid #d0d7de;border-radius:10px;padding:.8rem 1rem;min-height:3rem}
a{color:#0969da}
code{font-size:.9em;background:#eaeef2;padding:.1rem .3rem;border-radius:4px}
`;

export function page(title: string, body: Markup): string {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<meta name="robots" content="noindex, nofollow">
<title>${title}</title>
<style>${new Markup(STYLE)}</style>
</head>
<body><main>
${body}
</main></body>
</html>
`.text;
}
