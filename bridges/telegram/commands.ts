// The bot's commands: /start (with a pairing code), /waiting (with a backlog, the triage
// digest), /next, /park, /later, /dismiss, /grants and /revoke (coding agents' session
// grants), /help.
// They are registered with setMyCommands at start; a failure there is logged, never fatal.

import type { Api, Context } from "grammy";
import {
  boxDigest,
  type CommandAttempt,
  type Digest,
  type DigestLine,
  type Judge,
  liveGrantLines,
  revokeGrant,
  type Slot,
} from "../../src/slot/port.ts";
import type { Access } from "./access.ts";
import { laterLayout } from "./keyboard.ts";
import { pairWithCode } from "./pairing.ts";
import { quoting, SURFACE } from "./presenter.ts";
import { HELP_HTML, putOffText, waitingHtml } from "./render.ts";
import { replyForError } from "./replies.ts";
import { digestLayout } from "./triage-keyboard.ts";
import { digestHtml } from "./triage-render.ts";

/** Said where the [🌐 All questions] button would be, when there is no public URL to link to. */
export const NO_PUBLIC_URL_HTML =
  "No web link: set <code>QBRIDGE_PUBLIC_URL</code> where qbridge serve runs (the https address of the web page) to get one here.";

/** A command on the open question, as the judge takes it: who sent it, and what. */
function commandAttempt(
  ctx: Context,
  access: Access,
  action: CommandAttempt["action"],
): CommandAttempt {
  return {
    kind: "command",
    surface: SURFACE,
    actor: { id: String(ctx.from?.id), boxholder: access.isBoxholder(ctx) },
    action,
  };
}

export const COMMANDS = [
  { command: "waiting", description: "How many questions wait, and the top one" },
  { command: "next", description: "Show the next question (parked ones too)" },
  { command: "park", description: "Put the open question aside; it stays pending" },
  { command: "later", description: "Put the open question off until a time you pick" },
  { command: "dismiss", description: "Decline the open question" },
  { command: "grants", description: "What coding agents may run without asking" },
  { command: "revoke", description: "Take a grant back: /revoke ID" },
  { command: "help", description: "How to answer" },
  { command: "start", description: "Start, or pair with a code from qbridge pair" },
];

/** What the commands are built from. */
export interface CommandDeps {
  slot: Slot;
  judge: Judge;
  access: Access;
  configuredOwner: string | undefined;
  questionsLink: () => string | undefined;
}

/** Each command's handler, by its name in the menu (bot.ts routes them). */
export function createCommands(deps: CommandDeps) {
  const bound =
    (command: (deps: CommandDeps, ctx: Context) => Promise<void>) =>
    (ctx: Context): Promise<void> =>
      command(deps, ctx);
  return {
    start: bound(start),
    waiting: bound(waiting),
    next: bound(next),
    park: bound(park),
    later: bound(later),
    dismiss: bound(dismiss),
    grants: bound(grants),
    revoke: bound(revoke),
    help: bound(help),
  };
}

/** A fresh link to every question as a URL button, or the text saying how to get one. */
function allQuestions(deps: CommandDeps, html: string) {
  const url = deps.questionsLink();
  if (!url) return { html: `${html}\n\n${NO_PUBLIC_URL_HTML}`, markup: {} };
  return {
    html,
    markup: { reply_markup: { inline_keyboard: [[{ text: "🌐 All questions", url }]] } },
  };
}

/** With a backlog: one line per question (each a button showing it) and Accept N. */
async function sendDigest(deps: CommandDeps, ctx: Context, digest: Digest): Promise<void> {
  const url = deps.questionsLink();
  const html = url ? digestHtml(digest) : `${digestHtml(digest)}\n\n${NO_PUBLIC_URL_HTML}`;
  const layout = digestLayout(digest, url);
  const owner = { questionId: (digest.lines[0] as DigestLine).id };
  await deps.judge.withButtons(owner, String(ctx.chat?.id), layout.specs, async (tokens) => {
    const sent = await ctx.reply(html, {
      parse_mode: "HTML",
      reply_markup: layout.build(tokens),
    });
    return String(sent.message_id);
  });
}

/** /start: pairs with a code from a private chat, or greets the boxholder. */
async function start(deps: CommandDeps, ctx: Context): Promise<void> {
  const { slot, access } = deps;
  const code = typeof ctx.match === "string" ? ctx.match.trim() : "";
  if (ctx.chat?.type !== "private" || !ctx.from) {
    await access.refuse(ctx, "/start outside a private chat");
    return;
  }
  if (code && !deps.configuredOwner) {
    await pairWithCode(ctx, code, { slot });
    return;
  }
  if (!access.isBoxholder(ctx)) {
    await access.refuse(
      ctx,
      code ? "/start with a code while TELEGRAM_OWNER_ID is set" : "/start from a stranger",
    );
    return;
  }
  await ctx.reply(HELP_HTML, { parse_mode: "HTML" });
  await waiting(deps, ctx);
  await slot.fill();
}

/** /waiting: the triage digest when there is a backlog, else the count and the top question. */
async function waiting(deps: CommandDeps, ctx: Context): Promise<void> {
  const { slot } = deps;
  const digest = boxDigest(slot.core);
  if (digest) return sendDigest(deps, ctx, digest);
  const { count, top, presented } = slot.waiting();
  const { html, markup } = allQuestions(
    deps,
    waitingHtml(count, top?.card, presented !== undefined),
  );
  await ctx.reply(html, {
    parse_mode: "HTML",
    ...markup,
    ...quoting(presented, ctx.chat?.id),
  });
}

async function next({ slot }: CommandDeps, ctx: Context): Promise<void> {
  const { busy, presented } = await slot.next();
  if (busy) {
    const open = slot.current();
    await ctx.reply("A question is open: answer it, or /park it to see the next.", {
      ...quoting(open, ctx.chat?.id),
    });
  } else if (!presented) {
    const { count } = slot.waiting();
    await ctx.reply(count > 0 ? putOffText(count) : "Nothing is waiting on you.");
  }
}

/** /park, judged as every surface's is (a question an agent waits on is never parked). */
async function park({ judge, access, slot }: CommandDeps, ctx: Context): Promise<void> {
  const outcome = await judge.attempt(commandAttempt(ctx, access, "park"), async (judged) => {
    if (judged.kind === "recorded") return;
    if (judged.reason === "nothing-open") await ctx.reply("Nothing is open to park.");
    else if (judged.error !== undefined) await ctx.reply(replyForError(judged.error));
    else await ctx.reply(judged.reply);
  });
  if (outcome.kind === "recorded" && !slot.current()) {
    await ctx.reply("Parked. Nothing else is waiting right now.");
  }
}

async function dismiss({ judge, access }: CommandDeps, ctx: Context): Promise<void> {
  await judge.attempt(commandAttempt(ctx, access, "dismiss"), async (outcome) => {
    if (outcome.kind === "recorded") return;
    if (outcome.reason === "nothing-open") await ctx.reply("Nothing is open to dismiss.");
    else if (outcome.error !== undefined) await ctx.reply(replyForError(outcome.error));
    else await ctx.reply(outcome.reply);
  });
}

/** /later: the times the open question can be put off to, as buttons under it. */
async function later({ judge, access }: CommandDeps, ctx: Context): Promise<void> {
  await judge.attempt(commandAttempt(ctx, access, "later"), async (outcome) => {
    const open = outcome.target;
    if (outcome.relayout === "later" && open && ctx.chat) {
      const layout = laterLayout(outcome.later ?? []);
      const owner = { presentationSeq: open.seq, questionId: open.questionId };
      await judge.withButtons(owner, String(ctx.chat.id), layout.specs, async (tokens) => {
        const sent = await ctx.reply(outcome.reply, {
          reply_markup: layout.build(tokens),
          ...quoting(open, ctx.chat?.id),
        });
        return String(sent.message_id);
      });
    } else if (outcome.reason === "nothing-open") {
      await ctx.reply("Nothing is open to put off.");
    } else if (outcome.error !== undefined) await ctx.reply(replyForError(outcome.error));
    else await ctx.reply(outcome.reply);
  });
}

/** /grants: the live "Allow for this session" grants, plain text (ids to /revoke). */
async function grants({ slot }: CommandDeps, ctx: Context): Promise<void> {
  const lines = liveGrantLines(slot);
  const hint = lines.length && !lines[0]?.startsWith("No ") ? "\n\nTake one back: /revoke ID" : "";
  await ctx.reply(`${lines.join("\n")}${hint}`);
}

async function revoke({ slot }: CommandDeps, ctx: Context): Promise<void> {
  const id = typeof ctx.match === "string" ? ctx.match.trim() : "";
  await ctx.reply(
    id ? revokeGrant(slot, id, SURFACE) : "Say which: /revoke ID (/grants lists them).",
  );
}

async function help(deps: CommandDeps, ctx: Context): Promise<void> {
  const { html, markup } = allQuestions(deps, HELP_HTML);
  await ctx.reply(html, { parse_mode: "HTML", ...markup });
}

/** Registers the command menu; Telegram (or an emulator) refusing it never stops the bot. */
export async function registerCommands(
  api: Api,
  logger: { warn(obj: object, msg?: string): void },
): Promise<void> {
  try {
    await api.setMyCommands(COMMANDS);
  } catch (error) {
    logger.warn({ err: error }, "setMyCommands failed; the commands still work when typed");
  }
}
