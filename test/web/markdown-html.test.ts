// A plan's Markdown (fixtures/claude-permission-exitplanmode.json) on the web page: rendered
// as Markdown, and nothing the text holds runs or loads, whatever it tries.

import { describe, expect, it } from "vitest";
import { markdownHtml } from "../../src/web/markdown-html.ts";
import { toolInputOf } from "../hooks/agent-fixtures.ts";

describe("Markdown on the web page", () => {
  it("a plan's headings, lists and code read as such", async () => {
    const html = await markdownHtml(toolInputOf("claude-permission-exitplanmode").plan as string);
    expect(html).toContain("<h2>Refactor auth</h2>");
    expect(html).toContain("<ol>\n<li>Extract the session check from <code>src/server.ts</code>");
    expect(html).toContain("<h3>Out of scope</h3>\n<ul>\n<li>Changing the token format.</li>");
  });

  it("raw HTML is shown as text, never as markup", async () => {
    const html = await markdownHtml('<script>alert(1)</script>\n\n<img src=x onerror="alert(2)">');
    expect(html).not.toMatch(/<script|<img/);
    expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(html).toContain("&lt;img src=x onerror=&quot;alert(2)&quot;&gt;");
  });

  it("a javascript: link is no link, and a web link leaves with no referrer", async () => {
    expect(await markdownHtml("[run](javascript:alert(1))")).not.toContain("<a");
    expect(await markdownHtml("[docs](https://example.org/a)")).toBe(
      '<p><a href="https://example.org/a" rel="nofollow noreferrer">docs</a></p>\n',
    );
  });

  it("an image is not loaded: it stays a link to follow by hand", async () => {
    expect(await markdownHtml("![chart](https://tracker.example/p.png)")).toBe(
      '<p>!<a href="https://tracker.example/p.png" rel="nofollow noreferrer">chart</a></p>\n',
    );
  });
});
