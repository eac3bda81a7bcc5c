// The first screen of a plan for a chat: its head, whole lines up to a phone screen, and what
// is left out counted in lines and characters, so the reader knows how much more the web page
// holds. The text is the plan's own Markdown, never reworded. Pure.

/** About one phone screen of a chat message. */
export const SCREEN = { lines: 20, chars: 1_000 } as const;

export interface PlanScreen {
  /** The head, in the plan's own words ("" for an empty plan). */
  head: string;
  /** What the head leaves out; undefined when the whole plan fits. */
  elided: { lines: number; chars: number } | undefined;
}

/** The plan's head: whole lines while both limits hold; a first line too long is cut with "…". */
export function planScreen(
  plan: string,
  limits: { lines: number; chars: number } = SCREEN,
): PlanScreen {
  const text = plan.replace(/\s+$/, "");
  const lines = text === "" ? [] : text.split("\n");
  let shown = 0;
  let used = 0;
  for (const line of lines) {
    const cost = (shown > 0 ? 1 : 0) + line.length;
    if (shown === limits.lines || used + cost > limits.chars) break;
    shown++;
    used += cost;
  }
  if (shown === lines.length) return { head: text, elided: undefined };
  if (shown === 0) {
    const cut = limits.chars - 1;
    return { head: `${text.slice(0, cut)}…`, elided: leftOut(text.slice(cut), true) };
  }
  const head = lines.slice(0, shown).join("\n").replace(/\s+$/, "");
  return { head, elided: leftOut(text.slice(used), false) };
}

/** What a head leaves out: whole lines after it (a cut line's rest is not a line of its own). */
function leftOut(rest: string, midLine: boolean): { lines: number; chars: number } {
  const text = rest.replace(/^\s+/, "");
  const lines = text.split("\n").length - (midLine ? 1 : 0);
  return { lines, chars: text.length };
}

/** The head with a last line saying what the web page adds. */
export function planScreenText(screen: PlanScreen): string {
  if (!screen.elided) return screen.head;
  const { lines, chars } = screen.elided;
  const count = lines > 0 ? `${lines} more line${lines === 1 ? "" : "s"}` : "the rest of a line";
  return `${screen.head}\n… ${count} (${chars.toLocaleString("en-US")} characters): the whole plan is on the web page.`;
}
