// Story: a coding agent runs `qbridge hook permission` as its PermissionRequest hook. The
// request (as the agent documents it) becomes one question on the boxholder's phone; what they
// tap comes back as the decision JSON the agent documents, and nothing is left for anyone to
// do afterwards: no follow-up job, and no question left open once the hook is gone.

import { afterEach, describe, expect, it } from "vitest";
import { GrantStore } from "../../src/ledger/grants.ts";
import { listJobs, pendingQuestions } from "../../src/questions/state.ts";
import { loadQuestion } from "../../src/questions/store.ts";
import { gitLog } from "../support/box.ts";
import { eventually } from "../support/child.ts";
import {
  buttonData,
  type Harness,
  openHarness,
  toBotMessage,
  useEmulator,
} from "../support/telegram.ts";
import {
  ClaudePermissionOutput,
  editedTo,
  fixture,
  printed,
  shown,
  startHook,
  tapConfirmed,
} from "./hook-support.ts";

const emulator = useEmulator();
const opened: Harness[] = [];
afterEach(async () => {
  for (const h of opened.splice(0)) await h.slot.close();
});

/** A box with a bot on the emulator, its slot watching the box as `qbridge serve` does. */
async function phone(): Promise<Harness> {
  const h = await openHarness(emulator());
  h.slot.watch(100);
  opened.push(h);
  return h;
}

const BASH = "Allow Bash: rm -rf node_modules?";

async function asks(h: Harness): Promise<number> {
  return (await gitLog(h.dir)).filter((subject) => subject.startsWith("ask: ")).length;
}

describe("Claude Code's PermissionRequest hook", () => {
  it("shows the tool, the command, the agent's words and the folder; Allow once prints Claude Code's allow and writes no job", async () => {
    const h = await phone();
    const hook = startHook("permission", h.dir, fixture("claude-permission-bash"));
    const message = await shown(h, BASH);
    expect(message.text).toContain("Remove node_modules directory");
    expect(message.text).toContain("ada/my-project");
    expect(message.buttons.map((b) => b.text)).toEqual(
      expect.arrayContaining([
        expect.stringContaining("Allow once"),
        expect.stringContaining("Allow for this session"),
        expect.stringContaining("Always allow"),
        expect.stringContaining("Deny"),
      ]),
    );
    const { id, card } = onlyPending(h);
    expect(card).toMatchObject({
      kind: "permission",
      irreversible: true,
      "expires-after": "PT10M",
    });

    await tapConfirmed(h, message, buttonData(message, "a)"));
    expect(await hook.exited).toBe(0);
    const output = ClaudePermissionOutput.parse(printed(hook));
    expect(output.hookSpecificOutput.decision).toEqual({ behavior: "allow" });
    expect(loadQuestion(h, id).card.status).toBe("answered");
    expect(listJobs(h)).toEqual([]);
  });

  it("Allow for this session lets the same session's next matching request through at once, counted; another session asks again", async () => {
    const h = await phone();
    const first = startHook("permission", h.dir, fixture("claude-permission-bash"));
    const message = await shown(h, BASH);
    await tapConfirmed(h, message, buttonData(message, "b)"));
    expect(await first.exited).toBe(0);
    expect(ClaudePermissionOutput.parse(printed(first)).hookSpecificOutput.decision).toEqual({
      behavior: "allow",
    });
    const [grant] = new GrantStore(h.ledger).all();
    expect(grant).toMatchObject({
      agent: "claude",
      sessionId: "abc123",
      tool: "Bash",
      pattern: "exact:rm -rf node_modules",
    });

    const again = fixture("claude-permission-bash", {
      tool_input: { command: "rm -rf node_modules", description: "Remove it again" },
    });
    const second = startHook("permission", h.dir, again);
    expect(await second.exited).toBe(0);
    expect(ClaudePermissionOutput.parse(printed(second)).hookSpecificOutput.decision).toEqual({
      behavior: "allow",
    });
    expect(await asks(h)).toBe(1);
    expect(new GrantStore(h.ledger).get(grant?.id as string)?.uses).toBe(1);
    const use = h.ledger.auditFor().find((row) => row.action === "grant-use");
    expect(use).toMatchObject({
      verbatim: "Bash: rm -rf node_modules",
      detail: grant?.id,
      outcome: "applied",
    });

    const other = startHook(
      "permission",
      h.dir,
      fixture("claude-permission-bash", { session_id: "another-session" }),
    );
    await expectEventuallyAsks(h, 2);
    await other.kill("SIGTERM");
    expect(printed(other)).toBeUndefined();
  });

  it("/grants lists the session's grant on Telegram and /revoke takes it back: the next request asks again", async () => {
    const h = await phone();
    const first = startHook("permission", h.dir, fixture("claude-permission-bash"));
    const message = await shown(h, BASH);
    await tapConfirmed(h, message, buttonData(message, "b)"));
    expect(await first.exited).toBe(0);
    const [grant] = new GrantStore(h.ledger).all();
    const id = grant?.id as string;

    await h.owner.command("/grants");
    await h.pump();
    const listed = String(h.sent("sendMessage").at(-1)?.payload.text);
    expect(listed).toContain(`${id}: claude may run Bash rm -rf node_modules (used 0×`);
    await h.owner.command(`/revoke ${id}`);
    await h.pump();
    expect(String(h.sent("sendMessage").at(-1)?.payload.text)).toBe(
      `Revoked ${id}: Bash rm -rf node_modules asks again.`,
    );
    expect(new GrantStore(h.ledger).get(id)?.revokedAt).toBeDefined();

    const again = startHook("permission", h.dir, fixture("claude-permission-bash"));
    await expectEventuallyAsks(h, 2);
    await again.kill("SIGTERM");
    expect(printed(again)).toBeUndefined();
  });

  it("Always allow hands back the agent's own suggested rule as updatedPermissions", async () => {
    const h = await phone();
    const hook = startHook("permission", h.dir, fixture("claude-permission-bash"));
    const message = await shown(h, BASH);
    await tapConfirmed(h, message, buttonData(message, "c)"));
    expect(await hook.exited).toBe(0);
    const { decision } = ClaudePermissionOutput.parse(printed(hook)).hookSpecificOutput;
    expect(decision).toEqual({
      behavior: "allow",
      updatedPermissions: [
        {
          type: "addRules",
          rules: [{ toolName: "Bash", ruleContent: "rm -rf node_modules" }],
          behavior: "allow",
          destination: "localSettings",
        },
      ],
    });
  });

  it("a typed Deny with a note, confirmed, becomes the deny message", async () => {
    const h = await phone();
    const hook = startHook("permission", h.dir, fixture("claude-permission-bash"));
    const message = await shown(h, BASH);
    await h.owner.say("e - not while the build runs", { replyTo: message.messageId });
    await h.pump();
    await confirmTyped(h, 'Record "Deny" as your answer?');
    expect(await hook.exited).toBe(0);
    const { decision } = ClaudePermissionOutput.parse(printed(hook)).hookSpecificOutput;
    expect(decision).toEqual({
      behavior: "deny",
      message: expect.stringContaining('"not while the build runs"'),
    });
  });

  it("a reply edits the command; it is shown back for a confirming tap and returned as updatedInput", async () => {
    const h = await phone();
    const hook = startHook("permission", h.dir, fixture("claude-permission-bash"));
    const message = await shown(h, BASH);
    await h.owner.say("d - rm -rf node_modules/.cache", { replyTo: message.messageId });
    await h.pump();
    expect(printed(hook)).toBeUndefined();
    await confirmTyped(h, 'Record "rm -rf node_modules/.cache" as your answer?');
    expect(await hook.exited).toBe(0);
    const { decision } = ClaudePermissionOutput.parse(printed(hook)).hookSpecificOutput;
    expect(decision).toEqual({
      behavior: "allow",
      updatedInput: {
        command: "rm -rf node_modules/.cache",
        description: "Remove node_modules directory",
      },
    });
  });

  it("an Edit shows its file and how many lines it replaces", async () => {
    const h = await phone();
    const hook = startHook("permission", h.dir, fixture("claude-permission-edit"));
    const message = await shown(h, "Allow Edit: /Users/ada/my-project/src/app.ts?");
    expect(message.text).toContain("Replaces 2 line(s) with 3.");
    expect(message.buttons.map((b) => b.text).join(" ")).not.toContain("edited command");
    await hook.kill("SIGTERM");
  });
});

describe("a hook that ends before anyone answers", () => {
  it("withdraws its question, the Telegram message says so, and a late tap records nothing", async () => {
    const h = await phone();
    const hook = startHook("permission", h.dir, fixture("claude-permission-bash"));
    const message = await shown(h, BASH);
    const { id } = onlyPending(h);
    await hook.kill("SIGTERM");
    expect(printed(hook)).toBeUndefined();
    const edit = await editedTo(
      h,
      message.messageId,
      "Withdrawn by the asker: answered at the computer",
    );
    expect(edit).toContain(BASH);
    await h.owner.tap(buttonData(message, "a)"), message.messageId);
    await h.pump();
    expect(loadQuestion(h, id).card.status).toBe("withdrawn");
    expect(listJobs(h)).toEqual([]);
    expect((await gitLog(h.dir)).filter((s) => s.startsWith("answer: "))).toEqual([]);
  });

  it("gives up just before its own timeout: withdraws, prints nothing, so the agent asks at its screen", async () => {
    const h = await phone();
    const hook = startHook("permission", h.dir, fixture("claude-permission-bash"), [
      "--timeout",
      "3",
    ]);
    const message = await shown(h, BASH);
    expect(await hook.exited).toBe(0);
    expect(printed(hook)).toBeUndefined();
    await editedTo(h, message.messageId, "Withdrawn by the asker: the agent's hook timed out");
    const [card] = pendingQuestions(h).pending;
    expect(card).toBeUndefined();
  });
});

/** The one pending question of the box. */
function onlyPending(h: Harness): { id: string; card: unknown } {
  const { pending } = pendingQuestions(h);
  expect(pending).toHaveLength(1);
  const [view] = pending;
  return { id: view?.id as string, card: view?.card };
}

async function expectEventuallyAsks(h: Harness, count: number): Promise<void> {
  await eventually(
    async () => ((await asks(h)) === count ? true : undefined),
    20_000,
    `${count} asks`,
  );
}

/** The bot's question before recording typed words: it says `text`; tap its Yes. */
async function confirmTyped(h: Harness, text: string): Promise<void> {
  const asked = h
    .sent("sendMessage")
    .filter((c) => String(c.payload.text).includes(text))
    .at(-1);
  if (!asked) throw new Error(`the bot never asked ${text}`);
  const message = toBotMessage(asked);
  await h.owner.tap(buttonData(message, "✅ Yes"), message.messageId);
  await h.pump();
}
