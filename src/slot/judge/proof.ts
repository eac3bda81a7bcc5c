// Who made an attempt, as the surface saw it: the surface as it declared itself once, and the
// raw facts it saw (a proof), never a verdict. The judge (who.ts) turns the two into a trust
// level. Types only, so bridges, adapters and the judge's files share them.

/**
 * How far the judge trusts whoever acted. `boxholder`: proven, may answer anything, a question
 * an agent's hook filed included; `asker`: an agent or a process (the API, MCP, the CLI, a link
 * handed to an asker, piped input at the chat), ordinary questions only; `stranger`: nothing.
 */
export type Trust = "boxholder" | "asker" | "stranger";

/** Whom a signed link was made for: the boxholder (it answers) or an asker (it shows only). */
export type LinkRole = "boxholder" | "asker";

/** What a surface saw of whoever acted: facts, each checked by the judge, never trusted as is. */
export type Proof =
  /** A chat account: its user id, the chat it wrote in, whether that chat is private. */
  | {
      kind: "account";
      userId: string | undefined;
      chatId: string | undefined;
      privateChat: boolean;
    }
  /** A mail: its sender, and the message it replied to. */
  | { kind: "address"; sender: string; inReplyTo: string | undefined }
  /** A terminal: whether input and output are terminal devices (not piped), and the login. */
  | { kind: "terminal"; tty: boolean; login: string | undefined }
  /** A signed link: the role it was signed for. */
  | { kind: "link"; role: LinkRole }
  /** The API's bearer token; `by` is the caller's own word for itself, recorded, never trusted. */
  | { kind: "token"; by: string | undefined }
  /** An MCP session. */
  | { kind: "session"; id: string | undefined }
  /** A shell running `qbridge` (its commands, e.g. `answer`). */
  | { kind: "shell"; login: string | undefined };

/**
 * What a surface proves, declared once by the surface (a bridge in its BridgePlug; the web, the
 * API, MCP, the CLI and the hooks in src/surfaces.ts). Each takes one kind of proof:
 * - `paired-account` (account): the paired account, or the one a setting fixes, in a private
 *   chat is the boxholder; anyone else a stranger.
 * - `paired-address` (address): the paired address replying to a message of this surface that
 *   showed a question is the boxholder; anything else a stranger.
 * - `a-terminal` (terminal): a person at a terminal is the boxholder; piped input an asker.
 * - `signed-link` (link): the role the link was signed for.
 * - `agent` (token, session, shell): an asker at most.
 */
export type SurfaceDeclaration =
  | {
      name: string;
      proves: "paired-account" | "paired-address";
      /** The account or address a setting fixes as the boxholder (no code pairs anyone else). */
      fixedOwner?: string | undefined;
    }
  | { name: string; proves: "a-terminal" | "signed-link" | "agent" };

export type Proves = SurfaceDeclaration["proves"];

/** Whoever made an attempt: the surface, as declared, and what it saw of them. */
export interface From {
  surface: SurfaceDeclaration;
  proof: Proof;
}

/** Whoever made an attempt, as the judge resolved them. */
export interface Who {
  trust: Trust;
  /** The surface's name: answered-via, the audit's surface. */
  via: string;
  /** Who they are there, when the proof names them: answered-by, the audit's actor. */
  by: string | undefined;
  /** Why they are not the boxholder, for the audit; undefined for the boxholder. */
  why: string | undefined;
}
