// What "Always allow" writes: the permission updates Claude Code suggests with a request
// (`permission_suggestions`, the Agent SDK's PermissionUpdate: addRules {rules: [{toolName,
// ruleContent?}], behavior, destination}, setMode {mode, destination}, addDirectories
// {directories, destination}, and the replace/remove kinds), kept only where one tap may write
// them and the card can say them in words. An allow-list: an allow rule with content (a rule
// without content is every call of the tool), a mode other than bypassPermissions and dontAsk,
// a directory inside the project that is neither `/` nor the home folder, and only the four
// documented destinations. Everything else is dropped and left to the agent's own prompt; what
// is kept is rebuilt in the documented shape, so nothing the card does not state is written.
// Pure.

import { isAbsolute, relative, resolve } from "node:path";
import { z } from "zod";
import { visible } from "../card/agent-text.ts";

const DESTINATIONS = ["session", "localSettings", "projectSettings", "userSettings"] as const;
type Destination = (typeof DESTINATIONS)[number];

/** Modes one tap may switch to; bypassPermissions and dontAsk never are. */
const MODES = ["default", "acceptEdits", "plan"] as const;

export interface Rule {
  toolName: string;
  ruleContent: string;
}

/** One update "Always allow" may write, in the shape Claude Code reads back. */
export type AlwaysUpdate =
  | { type: "addRules"; rules: Rule[]; behavior: "allow"; destination: Destination }
  | { type: "setMode"; mode: (typeof MODES)[number]; destination: Destination }
  | { type: "addDirectories"; directories: string[]; destination: Destination };

const destination = z.enum(DESTINATIONS);
const Suggestion = z.discriminatedUnion("type", [
  z.object({
    type: z.literal("addRules"),
    rules: z.array(z.object({ toolName: z.string().min(1), ruleContent: z.string().optional() })),
    behavior: z.literal("allow"),
    destination,
  }),
  z.object({ type: z.literal("setMode"), mode: z.enum(MODES), destination }),
  z.object({
    type: z.literal("addDirectories"),
    directories: z.array(z.string().min(1)),
    destination,
  }),
]);

/** A rule's content that names something: not empty, not only wildcards. */
function hasContent(rule: { ruleContent?: string | undefined }): rule is Rule {
  return rule.ruleContent !== undefined && !/^[\s*:]*$/.test(rule.ruleContent);
}

/** A directory inside the project (cwd), and neither `/` nor the home folder. */
function insideProject(directory: string, cwd: string, home: string): boolean {
  const path = resolve(cwd, directory);
  if (path === "/" || path === resolve(home)) return false;
  const within = relative(resolve(cwd), path);
  return within === "" || (!within.startsWith("..") && !isAbsolute(within));
}

/** The suggestion cut down to what one tap may write; undefined when nothing of it may. */
function kept(raw: unknown, cwd: string, home: string): AlwaysUpdate | undefined {
  const parsed = Suggestion.safeParse(raw);
  if (!parsed.success) return undefined;
  const s = parsed.data;
  switch (s.type) {
    case "addRules": {
      const rules = s.rules
        .filter(hasContent)
        .map((r) => ({ toolName: r.toolName, ruleContent: r.ruleContent }));
      return rules.length ? { ...s, rules } : undefined;
    }
    case "setMode":
      return s;
    case "addDirectories": {
      const directories = s.directories.filter((d) => insideProject(d, cwd, home));
      return directories.length ? { ...s, directories } : undefined;
    }
  }
}

/** The suggestions "Always allow" may write; an empty list offers no "Always allow". */
export function alwaysUpdates(suggestions: unknown[], cwd: string, home: string): AlwaysUpdate[] {
  return suggestions.flatMap((raw) => kept(raw, cwd, home) ?? []);
}

const WHERE: Record<Destination, string> = {
  session: "for this session only",
  localSettings: "in this project's .claude/settings.local.json",
  projectSettings: "in this project's .claude/settings.json (shared with the repository)",
  userSettings: "in your ~/.claude/settings.json (every project)",
};

const MODE_WORDS: Record<(typeof MODES)[number], string> = {
  default: "the default mode (ask as usual)",
  acceptEdits: "accept-edits mode (file edits without asking)",
  plan: "plan mode (no changes)",
};

/** One update as a person reads it: "the allow rule Bash(npm test) in …". */
function updateWords(update: AlwaysUpdate): string {
  switch (update.type) {
    case "addRules": {
      const rules = update.rules.map((r) => `${visible(r.toolName)}(${visible(r.ruleContent)})`);
      return `the allow rule${rules.length > 1 ? "s" : ""} ${rules.join(", ")} ${WHERE[update.destination]}`;
    }
    case "setMode":
      return `a switch to ${MODE_WORDS[update.mode]} ${WHERE[update.destination]}`;
    case "addDirectories":
      return `access to ${update.directories.map(visible).join(", ")} ${WHERE[update.destination]}`;
  }
}

/** Every update "Always allow" writes, in words, for the card. */
export function alwaysWords(updates: AlwaysUpdate[]): string {
  return updates.map(updateWords).join("; ");
}

/** The content of the first allow rule for `tool` among the updates: the agent's own rule. */
export function suggestedRule(updates: AlwaysUpdate[], tool: string): string | undefined {
  for (const update of updates) {
    if (update.type !== "addRules") continue;
    const rule = update.rules.find((r) => r.toolName === tool);
    if (rule) return rule.ruleContent;
  }
  return undefined;
}
