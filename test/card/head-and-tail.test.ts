// A long request shown by its head and tail, the characters between counted: the cut never
// falls inside a character of two UTF-16 units, whose half a chat refuses as text.

import { describe, expect, it } from "vitest";
import { headAndTail } from "../../src/card/agent-request.ts";

/** True when the text holds half of a character of two UTF-16 units. */
function holdsHalf(text: string): boolean {
  return /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(text);
}

describe("headAndTail", () => {
  it("keeps a text that fits whole", () => {
    expect(headAndTail("npm test", 200)).toBe("npm test");
  });

  it("never cuts through an emoji, at either end, and counts what it leaves out", () => {
    for (let shift = 0; shift < 4; shift++) {
      const text = `${"a".repeat(shift)}${"🙂".repeat(300)}`;
      const shown = headAndTail(text, 200);
      expect(holdsHalf(shown), `shift ${shift}`).toBe(false);
      const [head, count, tail] = shown.split(/ … | characters … /);
      expect(Number(count?.replace(/,/g, "")), `shift ${shift}`).toBe(
        text.length - (head?.length ?? 0) - (tail?.length ?? 0),
      );
      expect(text.startsWith(head as string) && text.endsWith(tail as string)).toBe(true);
    }
  });
});
