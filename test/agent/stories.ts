// The agent stories, told the same way over each MCP transport: an agent asks through the SDK's
// own Client while the boxholder taps (or does not) on the Telegram emulator. Each transport's
// test file runs them against one box and one connection, question after question, as an
// agent's session would; every story leaves no question in front of the owner.

import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadQuestion } from "../../src/questions/store.ts";
import { boxFileExists, cleanupBoxes, jobRel, selectCard } from "../support/box.ts";
import {
  buttonData,
  type Emulator,
  eventually,
  type Harness,
  openHarness,
  startEmulator,
} from "../support/telegram.ts";
import { callTool, shownOnTelegram, textJson } from "./agent-support.ts";

export interface Connection {
  client: Client;
  close(): Promise<void>;
}

/** Connects an MCP client to the box of this harness, over one transport. */
export type Connect = (h: Harness) => Promise<Connection>;

/** The buttons of the last keyboard the bot put on a message (the confirming step). */
function lastKeyboard(h: Harness, messageId: number): { text: string; callback_data: string }[] {
  const edit = h
    .sent("editMessageReplyMarkup")
    .filter((c) => c.payload.message_id === messageId)
    .at(-1);
  const markup = edit?.payload.reply_markup as
    | { inline_keyboard: { text: string; callback_data: string }[][] }
    | undefined;
  return markup?.inline_keyboard.flat() ?? [];
}

const askArgs = (prompt: string, extra: Record<string, unknown> = {}) => {
  const card = selectCard({ prompt });
  return {
    prompt,
    memo: card.memo,
    type: "select",
    options: (card.input as { options: unknown[] }).options,
    directive: card.directive,
    ...extra,
  };
};

export function agentStories(transport: string, connect: Connect): void {
  describe(`an agent over MCP ${transport}`, () => {
    let emulator: Emulator;
    let h: Harness;
    let agent: Connection;
    /** The question the unanswered story leaves open, for the withdrawal story after it. */
    let withdrawable: { id: string; prompt: string } | undefined;

    beforeAll(async () => {
      emulator = await startEmulator();
      h = await openHarness(emulator);
      agent = await connect(h);
    });
    afterAll(async () => {
      await agent?.close();
      await h?.slot.close();
      await emulator?.stop();
      cleanupBoxes();
    });

    it("promises no tools/list_changed, which it never sends", () => {
      expect(agent.client.getServerCapabilities()?.tools).toEqual({ listChanged: false });
    });

    it("asks and waits; a Telegram tap during the wait answers that same call", async () => {
      const prompt = "Where do the March receipts belong?";
      const call = callTool(agent.client, "ask_human", askArgs(prompt, { wait_seconds: 20 }));
      const message = await shownOnTelegram(h, prompt);
      await h.owner.tap(buttonData(message, "b)"), message.messageId);
      await h.pump();
      const result = await call.result;
      expect(result.isError).toBeFalsy();
      expect(result.structuredContent).toMatchObject({
        status: "answered",
        answeredVia: "telegram",
        answer: { text: "Taxes", selected: "taxes" },
        late: false,
      });
      expect(JSON.parse(result.content[0]?.text ?? "{}")).toEqual(result.structuredContent);
      expect(call.progress.length).toBeGreaterThanOrEqual(1);
    });

    it("an unanswered ask comes back pending after the wait, not as an error or a refusal", async () => {
      const prompt = "Should the April invoices be split by client?";
      const call = callTool(agent.client, "ask_human", askArgs(prompt, { wait_seconds: 2 }));
      await shownOnTelegram(h, prompt);
      const result = await call.result;
      expect(result.isError).toBeFalsy();
      expect(result.structuredContent).toMatchObject({ status: "pending", late: false });
      expect(result.structuredContent).not.toHaveProperty("answer");
      expect(call.progress[0]).toMatchObject({ progress: 0, total: 2 });
      const id = result.structuredContent?.id as string;
      // Asked again, the same open prompt is found, not filed twice.
      const again = await callTool(agent.client, "ask_human", askArgs(prompt)).result;
      expect(again.structuredContent).toMatchObject({ id, status: "pending" });
      const listed = await callTool(agent.client, "list_questions", {}).result;
      expect(listed.structuredContent?.questions).toEqual([
        expect.objectContaining({ id, status: "pending" }),
      ]);
      withdrawable = { id, prompt };
    });

    it("withdrawing edits the owner's Telegram message; a late tap records nothing", async () => {
      const { id, prompt } = withdrawable as { id: string; prompt: string };
      const message = await shownOnTelegram(h, prompt);
      const result = await callTool(agent.client, "withdraw_question", {
        id,
        reason: "the invoices were split by hand",
      }).result;
      expect(result.structuredContent).toMatchObject({ id, status: "withdrawn" });
      const edit = await eventually(
        async () => {
          await h.slot.reconcile();
          return h.sent("editMessageText").find((c) => c.payload.message_id === message.messageId);
        },
        10_000,
        "the edited message",
      );
      expect(String(edit.payload.text)).toContain(
        "Withdrawn by the asker: the invoices were split by hand",
      );
      expect(edit.payload.reply_markup).toEqual({ inline_keyboard: [] });
      await h.owner.tap(buttonData(message, "a)"), message.messageId);
      await h.pump();
      expect(loadQuestion(h, id).card.status).toBe("withdrawn");
      expect(boxFileExists(h.dir, jobRel(id))).toBe(false);
      const after = await callTool(agent.client, "get_answer", { id }).result;
      expect(after.structuredContent).toMatchObject({ id, status: "withdrawn" });
    });

    it("request_permission allows after the owner's yes, with the input unchanged", async () => {
      const input = { command: "rm -rf build/", description: "clean the build" };
      const call = callTool(agent.client, "request_permission", {
        tool_name: "Bash",
        input,
        tool_use_id: "toolu_01",
        wait_seconds: 20,
      });
      const message = await shownOnTelegram(h, "Allow Bash: rm -rf build/?");
      expect(message.text).toContain("&quot;description&quot;: &quot;clean the build&quot;");
      await h.owner.tap(buttonData(message, "Yes"), message.messageId);
      await h.pump();
      const confirm = lastKeyboard(h, message.messageId).find((b) => b.text.includes("Confirm"));
      await h.owner.tap(confirm?.callback_data as string, message.messageId);
      await h.pump();
      expect(await textJson(call)).toEqual({ behavior: "allow", updatedInput: input });
    });

    it("request_permission denies with the owner's note when they say no", async () => {
      const call = callTool(agent.client, "request_permission", {
        tool_name: "Bash",
        input: { command: "git push --force" },
        wait_seconds: 20,
      });
      const message = await shownOnTelegram(h, "Allow Bash: git push --force?");
      await h.owner.say("no - not while others work on main", { replyTo: message.messageId });
      await h.pump();
      const decision = await textJson(call);
      expect(decision.behavior).toBe("deny");
      expect(decision.message).toContain('"not while others work on main"');
      expect(decision.message).toContain("said no");
    });

    it("request_permission with no answer yet denies saying it is not a refusal and names the open question", async () => {
      const call = callTool(agent.client, "request_permission", {
        tool_name: "Write",
        input: { file_path: "/etc/hosts", content: "127.0.0.1 example" },
        wait_seconds: 2,
      });
      await shownOnTelegram(h, "Allow Write: /etc/hosts?");
      const decision = await textJson(call);
      expect(decision.behavior).toBe("deny");
      const message = decision.message as string;
      expect(message).toContain("Nobody has decided yet");
      expect(message).toContain("NOT a refusal");
      const id = /question (\S+) so far/.exec(message)?.[1] as string;
      expect(loadQuestion(h, id).card).toMatchObject({ status: "pending", irreversible: true });
      expect(boxFileExists(h.dir, jobRel(id))).toBe(false);
      const later = await callTool(agent.client, "get_answer", { id }).result;
      expect(later.structuredContent).toMatchObject({ id, status: "pending" });
      await callTool(agent.client, "withdraw_question", { id }).result;
      await h.slot.reconcile();
    });
  });
}
