// The bot's commands: /start (with a pairing code), /waiting (with a backlog, the triage
// digest), /next, /park, /later, /dismiss, /grants and /revoke (coding agents' session
// grants), /help. Each but /start and /help is an attempt for the judge, whoever sent it: it
// refuses and audits a stranger's, and means the same as the command of any other surface.
// They are registered with setMyCommands at start; a failure there is logged, never fatal.

import type { Api, Context } from "grammy";
import type { CommandName, Digest, DigestLine, Door, Outcome } from "../../src/slot/port.ts";
import type { Access } from "./access.ts";
import { laterLayout } from "./keyboard.ts";
import { MAX_MESSAGE_CHARS } from "./limits.ts";
import { pairWithCode } from "./pairing.ts";
import { quoting } from "./presenter.ts";
import { HELP_HTML, putOffText, waitingHtml } from "./render.ts";
import { replyForError } from "./replies.ts";
import { digestLayout } from "./triage-keyboard.ts";
import { digestHtml } from "./triage-render.ts";

/** Said where the [🌐 All questions] button would be, when there is no public URL to link to. */
export const NO_PUBLIC_URL_HTML =
  "No web link: set <code>QBRIDGE_PUBLIC_URL</code> where qbridge serve runs (the https address of the web page) to get one here.";

/**
 * Hands a command to the judge, as what this update shows of its sender; a stranger gets the
 * polite refusal (the judge audited the attempt), anyone else `render`.
 */
async function command(
  deps: CommandDeps,
  ctx: Context,
  action: CommandName,
  render: (outcome: Outcome) => Promise<void>,
  extra: { label?: string } = {},
): Promise<Outcome> {
  const { door, access } = deps;
  return door.attempt({ kind: "command", proof: access.proof(ctx), action, ...extra }, (outcome) =>
    outcome.reason === "stranger" ? access.refuse(ctx) : render(outcome),
  );
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
  door: Door;
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
  await deps.door.withButtons(owner, String(ctx.chat?.id), layout.specs, async (tokens) => {
    const sent = await ctx.reply(html, {
      parse_mode: "HTML",
      reply_markup: layout.build(tokens),
    });
    return String(sent.message_id);
  });
}

/** /start: pairs with a code from a private chat, or greets the boxholder. */
async function start(deps: CommandDeps, ctx: Context): Promise<void> {
  const { door, access } = deps;
  const code = typeof ctx.match === "string" ? ctx.match.trim() : "";
  if (ctx.chat?.type !== "private" || !ctx.from) {
    await access.refuse(ctx, "/start outside a private chat");
    return;
  }
  if (code && !deps.configuredOwner) {
    await pairWithCode(ctx, code, { door });
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
  await door.fill();
}

/** /waiting: the triage digest when there is a backlog, else the count and the top question. */
async function waiting(deps: CommandDeps, ctx: Context): Promise<void> {
  await command(deps, ctx, "waiting", async (outcome) => {
    const shown = outcome.shows;
    if (shown?.kind !== "waiting") return void (await ctx.reply(outcome.reply));
    if (shown.digest) return sendDigest(deps, ctx, shown.digest);
    const { count, top, presented } = shown.waiting;
    const { html, markup } = allQuestions(
      deps,
      waitingHtml(count, top?.card, presented !== undefined),
    );
    await ctx.reply(html, { parse_mode: "HTML", ...markup, ...quoting(presented, ctx.chat?.id) });
  });
}

/** /next: the next question, or the earliest put-off one when nothing else waits. */
async function next(deps: CommandDeps, ctx: Context): Promise<void> {
  await command(deps, ctx, "next", async (outcome) => {
    const shown = outcome.shows;
    if (shown?.kind !== "next") return void (await ctx.reply(outcome.reply));
    if (shown.result === "busy" || shown.result === "held-elsewhere") {
      await ctx.reply("A question is open: answer it, or /park it to see the next.", {
        ...quoting(shown.open, ctx.chat?.id),
      });
    } else if (shown.result === "nothing") {
      await ctx.reply(shown.count > 0 ? putOffText(shown.count) : "Nothing is waiting on you.");
    }
  });
}

/** /park: the open question aside (it stays pending); the next one is shown. */
async function park(deps: CommandDeps, ctx: Context): Promise<void> {
  const outcome = await command(deps, ctx, "park", (done) => sayRefusal(ctx, done, "park"));
  if (outcome.name === "parked" && !deps.door.current()) {
    await ctx.reply("Parked. Nothing else is waiting right now.");
  }
}

async function dismiss(deps: CommandDeps, ctx: Context): Promise<void> {
  await command(deps, ctx, "dismiss", (outcome) => sayRefusal(ctx, outcome, "dismiss"));
}

/** What a command on the open question says when it recorded nothing; nothing when it did. */
async function sayRefusal(ctx: Context, outcome: Outcome, verb: string): Promise<void> {
  if (outcome.kind === "recorded") return;
  if (outcome.reason === "nothing-open") await ctx.reply(`Nothing is open to ${verb}.`);
  else if (outcome.error !== undefined) await ctx.reply(replyForError(outcome.error));
  else await ctx.reply(outcome.reply);
}

/** /later: the times the open question can be put off to, as buttons under it. */
async function later(deps: CommandDeps, ctx: Context): Promise<void> {
  const { door } = deps;
  await command(deps, ctx, "later", async (outcome) => {
    const open = outcome.target;
    if (outcome.relayout === "later" && open && ctx.chat) {
      const layout = laterLayout(outcome.later ?? []);
      const owner = { presentationSeq: open.seq, questionId: open.questionId };
      await door.withButtons(owner, String(ctx.chat.id), layout.specs, async (tokens) => {
        const sent = await ctx.reply(outcome.reply, {
          reply_markup: layout.build(tokens),
          ...quoting(open, ctx.chat?.id),
        });
        return String(sent.message_id);
      });
    } else await sayRefusal(ctx, outcome, "put off");
  });
}

/** /grants: the live "Allow for this session" grants, plain text (ids to /revoke). */
async function grants(deps: CommandDeps, ctx: Context): Promise<void> {
  await command(deps, ctx, "grants", async (outcome) => {
    const shown = outcome.shows;
    if (shown?.kind !== "grants") return void (await ctx.reply(outcome.reply));
    const { lines } = shown;
    const hint =
      lines.length && !lines[0]?.startsWith("No ") ? "\n\nTake one back: /revoke ID" : "";
    await ctx.reply(`${linesWithin(lines, MAX_MESSAGE_CHARS - hint.length)}${hint}`);
  });
}

/** The lines that fit in `max` characters, and how many more there are when some do not. */
function linesWithin(lines: readonly string[], max: number): string {
  const more = (n: number) => `… and ${n} more: qbridge grants on the server lists them all.`;
  const shown: string[] = [];
  let length = 0;
  for (const [i, line] of lines.entries()) {
    const left = lines.length - i - 1;
    const room = max - (left > 0 ? more(left).length + 1 : 0);
    if (length + line.length > room) {
      shown.push(more(lines.length - i));
      break;
    }
    shown.push(line);
    length += line.length + 1;
  }
  return shown.join("\n");
}

async function revoke(deps: CommandDeps, ctx: Context): Promise<void> {
  const id = typeof ctx.match === "string" ? ctx.match.trim() : "";
  await command(deps, ctx, "revoke", (outcome) => ctx.reply(outcome.reply).then(() => undefined), {
    label: id,
  });
}

async function help(deps: CommandDeps, ctx: Context): Promise<void> {
  if (!deps.access.isBoxholder(ctx)) {
    await deps.access.refuse(ctx, "a message from someone who is not the boxholder");
    return;
  }
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
