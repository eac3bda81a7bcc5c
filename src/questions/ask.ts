// Filing a question: validate what the asker sent, stamp `asked-at`, pick an id, commit.
// With `unlessOpen`, a question the same as one already open (by default: the same prompt) is
// not filed twice: the look for it and the filing are one step under the box-wide ask lock.
// The marks of an agent's own prompt (`kind`, `requested-schema`, `request`) come only from
// `agentPrompt`, which only the coding-agent paths pass: what an asker sends never carries them.

import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { applyAndCommit } from "../box/commit.ts";
import { withFileLock } from "../box/locks.ts";
import { checkId } from "../box/paths.ts";
import { refusedReceiver, webhookAllowList } from "../card/callback-address.ts";
import { CardSyntaxError, parseCardText, serializeCard } from "../card/codec.ts";
import { callbackCredentials, credentialsRefusal } from "../card/mask-url.ts";
import { AskSchema, describeIssues, type Question } from "../card/question.ts";
import { BoxReadOnly, InvalidInput } from "../errors.ts";
import { ledgerReadOnly } from "../ledger/open.ts";
import { type AgentPrompt, marked } from "./agent-prompt.ts";
import { auditCommitted } from "./audit.ts";
import type { Core } from "./core.ts";
import { cardIdTaken, scanQuestions } from "./scan.ts";
import {
  refuseOnReadOnly,
  settleInterruptedWrites,
  withQuestionLockLedgerLater,
} from "./transition.ts";

export interface AskResult {
  id: string;
  rel: string;
  card: Question;
  /** True when an open question with the same prompt was found and nothing was filed. */
  deduplicated: boolean;
  commit?: string;
}

const FIELD_ORDER = [
  "status",
  "prompt",
  "memo",
  "input",
  "learning",
  "directive",
  "recommended",
  "while-waiting",
  "irreversible",
  "context",
  "priority",
  "asked-at",
  "expires-after",
  "tasks",
  "asked-by",
  "callback",
  "kind",
  "requested-schema",
  "request",
] as const;

export function normalizePrompt(prompt: string): string {
  return prompt.trim().replace(/\s+/g, " ").toLowerCase();
}

function slug(text: string): string {
  return (
    text
      .normalize("NFKD")
      .replace(/[\u0300-\u036f]/g, "")
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-+|-+$/g, "")
      .slice(0, 40)
      .replace(/-+$/, "") || "question"
  );
}

/** Random bytes only when the asker brought no id. */
function newId(prompt: string, date: string): string {
  return `${date}-${slug(prompt)}-${randomBytes(3).toString("hex")}`;
}

/** Why a card text could not be read back (over a card limit), or undefined when it can. */
function unreadableReason(text: string): string | undefined {
  try {
    parseCardText(text);
    return undefined;
  } catch (error) {
    if (error instanceof CardSyntaxError) return error.message;
    throw error;
  }
}

export function validateAsk(input: unknown): ReturnType<typeof AskSchema.parse> {
  const result = AskSchema.safeParse(input);
  if (!result.success)
    throw new InvalidInput(`the question is not valid: ${describeIssues(result.error)}`);
  return result.data;
}

/** Whether an open question (its card and id) counts as the one being asked (unlessOpen). */
export type SameQuestion = (open: Question, asked: Question, openId: string) => boolean;

/** The usual sameness: the same prompt, whatever its case and spacing. A coding agent's own
 * prompt (a permission, a form: `kind`) is never it: the owner's answer there was not given to
 * this asker's memo and directive, and only its own path finds it again (ask-permission.ts). */
export const samePrompt: SameQuestion = (open, asked) =>
  open.kind === undefined && normalizePrompt(open.prompt) === normalizePrompt(asked.prompt);

export interface AskOptions {
  /** File nothing when an open question is the same (true: samePrompt); return that one. */
  unlessOpen?: boolean | SameQuestion;
  via?: string;
  /**
   * The caller's own work on the question being filed (its reply), done while git commits it
   * (CommitPlan.meanwhile's whileCommitting); not called when nothing is filed. If it throws,
   * the question stays filed and its error is thrown once it is.
   */
  meanwhile?: (filed: { id: string; card: Question }) => void;
  /** The question is a coding agent's own prompt (the hooks and `request_permission` only). */
  agentPrompt?: AgentPrompt;
}

/** Files the question (or, with unlessOpen, returns the same one already open). */
export async function askQuestion(
  core: Core,
  input: unknown,
  options: AskOptions = {},
): Promise<AskResult> {
  const { wantedId, card, content } = cardToFile(core, input, options.agentPrompt);
  const same = options.unlessOpen === true ? samePrompt : options.unlessOpen || undefined;
  const file = async (): Promise<AskResult> => {
    if (same) {
      // An ask killed before its commit leaves its card on disk until its journal is settled;
      // settle those first, so a question that was never filed is not taken for an open one.
      await settleInterruptedWrites(core);
      const open = scanQuestions(core.box, core.ledger, "pending").find(
        (entry) => entry.card?.status === "pending" && same(entry.card, card, entry.id),
      );
      if (open?.card) return { id: open.id, rel: open.rel, card: open.card, deduplicated: true };
    }
    const id =
      wantedId !== undefined
        ? checkId(wantedId)
        : newId(card.prompt, card["asked-at"].slice(0, 10));
    return fileCard(core, id, card, content, options);
  };
  // Asking with dedup holds one box-wide lock so two identical asks cannot both file.
  return same ? withFileLock(core.box.paths.locksDir, "ask", core.box.locks, file) : file();
}

/** The card an ask would file and its text; throws, before any lock or write, when it may not. */
function cardToFile(core: Core, input: unknown, agentPrompt: AgentPrompt | undefined) {
  const asked = validateAsk(input);
  // Before any lock (the box-wide ask lock of unlessOpen too): a read-only box is refused in
  // words. Asked of the ledger's folder: the ledger itself opens while git commits (below).
  if (ledgerReadOnly(core.box.paths.ledgerPath)) throw new BoxReadOnly(core.box.paths.root);
  if (asked.callback !== undefined && !core.webhooks) {
    throw new InvalidInput(
      "a callback needs answer webhooks on: set QBRIDGE_WEBHOOK_SECRET (webhooks are signed with it) where qbridge runs, or leave the callback out",
    );
  }
  const refused =
    asked.callback === undefined ? undefined : refusedReceiver(asked.callback, webhookAllowList());
  if (refused !== undefined) throw new InvalidInput(`the callback is refused: ${refused}`);
  const credentials = asked.callback && callbackCredentials(asked.callback);
  if (credentials) throw new InvalidInput(credentialsRefusal(credentials));
  const { id: wantedId, ...fields } = asked;
  const card = marked(
    {
      status: "pending",
      ...fields,
      "asked-at": fields["asked-at"] ?? core.box.clock.iso(),
    } as Question,
    agentPrompt,
  );
  const ordered: Record<string, unknown> = {};
  for (const key of FIELD_ORDER) ordered[key] = card[key as keyof Question];
  // Before any lock or write: a card that could not be read back is never filed.
  const content = serializeCard(ordered);
  const unreadable = unreadableReason(content);
  if (unreadable !== undefined) {
    throw new InvalidInput(`the question is over a card limit: as a card file ${unreadable}`);
  }
  return { wantedId, card, content };
}

/** Commits the card under its id (refused when the id is taken), with its audit line. */
async function fileCard(
  core: Core,
  id: string,
  card: Question,
  content: string,
  options: AskOptions,
): Promise<AskResult> {
  const { meanwhile } = options;
  return withQuestionLockLedgerLater(core, id, async () => {
    const rel = core.box.paths.questionRel(id);
    // Cards may live in subfolders too: an id is taken wherever its card is.
    const taken = existsSync(join(core.box.paths.root, rel)) || cardIdTaken(core, id);
    if (taken) {
      throw new InvalidInput(
        `a question with id "${id}" exists already: choose another id or leave it out`,
      );
    }
    const commit = await applyAndCommit(
      core.box,
      id,
      {
        writes: [{ rel, content }],
        message: `ask: ${card.prompt.replace(/\s+/g, " ").slice(0, 60)}`,
        trailers: {
          Question: id,
          ...(card["asked-by"] ? { "Asked-By": card["asked-by"] } : {}),
        },
        record: {
          at: core.box.clock.iso(),
          questionId: id,
          surface: options.via ?? "cli",
          actor: card["asked-by"],
          action: "ask",
          outcome: "applied",
        },
        // The ledger (the audit line needs it) opens while git runs: a ledger that cannot be
        // opened, or a box found read-only there, files nothing, as when it opened first.
        meanwhile: {
          whileAdding: () => refuseOnReadOnly(core),
          ...(meanwhile ? { whileCommitting: () => meanwhile({ id, card }) } : {}),
        },
      },
      auditCommitted(core),
    );
    return { id, rel, card, deduplicated: false, commit };
  });
}
