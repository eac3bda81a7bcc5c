// Which Copilot CLI tools page the phone. Copilot runs its permissionRequest hook before its
// own rules, session approvals and prompt, for every permission request but the `read` and
// `hook` kinds (hooks reference, "permissionRequest decision control"), so a hook that paged
// for everything would page for what Copilot allows itself. Its tool table ("Tool names for
// hook matching") names: ask_user, bash, create, edit, glob, grep, powershell, task, view,
// web_fetch. Tools that only read the workspace, and Copilot's own question to the person at
// the computer, fall through (empty output: Copilot decides as it would without the hook);
// every other tool, MCP tools and tools this list does not know included, pages. Names are
// compared ignoring case: Claude-format payloads carry Claude's names ("Bash"). Pure.

/** Tools that read and change nothing (and `read`, Claude's name for `view` in Claude-format
 * payloads): Copilot's own rules decide. */
const READS = ["view", "glob", "grep", "read"] as const;
/** Copilot asking the person at the computer: a question of its own, not a permission. */
const ASKS = ["ask_user"] as const;

export type ToolEffect =
  | { pages: false; why: "reads" | "asks-at-the-computer" }
  | { pages: true; why: "changes" };

export function copilotToolEffect(toolName: string): ToolEffect {
  const name = toolName.trim().toLowerCase();
  if ((READS as readonly string[]).includes(name)) return { pages: false, why: "reads" };
  if ((ASKS as readonly string[]).includes(name)) {
    return { pages: false, why: "asks-at-the-computer" };
  }
  return { pages: true, why: "changes" };
}
