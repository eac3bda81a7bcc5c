// Story: a permission request dies with its hook in minutes, so no surface offers to let it
// wait: no Park, no Later, no "+7 days" on Telegram, in the terminal or on the web page, and a
// typed /park, a posted Later or Extend changes nothing. "Last time" is offered only from the
// same request (the same tool and input), never from another command.

import { afterEach, describe, expect, it } from "vitest";
import { questionText } from "../../bridges/terminal/render.ts";
import { answerQuestion } from "../../src/questions/answer.ts";
import { askPermission } from "../../src/questions/ask-permission.ts";
import { extendQuestion } from "../../src/questions/extend.ts";
import { loadQuestion } from "../../src/questions/store.ts";
import type { Presenter, PresentRequest } from "../../src/slot/presentation/presenter.ts";
import { createSlot } from "../../src/slot/slot.ts";
import { confirmCard, type TestBox } from "../support/box.ts";
import { type Harness, openHarness, useEmulator } from "../support/telegram.ts";
import { formTokenIn, postForm, webFixture } from "../web/web-support.ts";

const emulator = useEmulator();
const opened: Harness[] = [];
afterEach(async () => {
  for (const h of opened.splice(0)) await h.slot.close();
});

function permission(command: string, session = "s-1") {
  return {
    card: confirmCard({ prompt: `Allow Bash: ${command}?`, irreversible: false }),
    key: { agent: "claude", sessionId: session, tool: "Bash", input: { command } },
  };
}

async function permissionIn(box: TestBox, command: string, session?: string): Promise<string> {
  const { card, key } = permission(command, session);
  return (await askPermission(box, card, key, "hook")).id;
}

describe("a permission request offers no way to wait", () => {
  it("on Telegram: no Park, no Later, no more days; /park changes nothing", async () => {
    const h = await openHarness(emulator());
    opened.push(h);
    const id = await permissionIn(h, "make deploy");
    await h.slot.reconcile();
    const message = await h.lastMessage();
    const buttons = message.buttons.map((b) => b.text).join(" | ");
    expect(buttons).toContain("Dismiss");
    expect(buttons).not.toMatch(/Park|Later|days|Extend/);

    await h.owner.command("/park");
    await h.pump();
    expect(String(h.sent("sendMessage").at(-1)?.payload.text)).toContain(
      "Nothing changed: an agent waits on this question",
    );
    expect(h.slot.current()?.questionId).toBe(id);
    expect(h.slot.presentations.parked()).toEqual([]);
  });

  it("in the terminal: the commands it lists leave out park, later and extend", async () => {
    const web = await webFixture();
    const id = await permissionIn(web.box, "make deploy");
    const text = questionText(loadQuestion(web.box, id).card, 0);
    expect(text).toContain("(dismiss, same, next, waiting, accept, record, help, quit)");
    expect(text).not.toMatch(/park|later|extend/);
  });

  it("on the web page: no Later and no Extend; posting either changes nothing", async () => {
    const web = await webFixture();
    const id = await permissionIn(web.box, "make deploy");
    const link = web.link(id);
    const page = await (await web.app.request(link)).text();
    expect(page).not.toContain('id="later"');
    expect(page).not.toContain('id="extend"');
    const before = loadQuestion(web.box, id).card["expires-after"];
    const later = await postForm(web.app, link, {
      form: formTokenIn(page),
      action: "later",
      later: "tomorrow",
    });
    expect(later.status).toBe(422);
    expect(await later.text()).toContain("an agent waits on this question");
    await expect(extendQuestion(web.box, id, "P7D", { via: "web" })).rejects.toThrow(
      /not extended: an agent waits on this question/,
    );
    expect(loadQuestion(web.box, id).card["expires-after"]).toBe(before);
  });
});

describe("Last time on a permission request", () => {
  it("comes only from the same request, never from another command", async () => {
    const web = await webFixture();
    const box = web.box;
    const seen: PresentRequest[] = [];
    const presenter: Presenter = {
      surface: "screen",
      ready: () => true,
      async present(request) {
        seen.push(request);
        return { chatId: "desk", messageId: String(seen.length) };
      },
      async closed() {},
    };
    const slot = createSlot({ core: box });
    slot.attach(presenter);
    const first = await permissionIn(box, "rm -rf build", "s-1");
    await answerQuestion(box, first, { text: "yes" }, { via: "telegram" });

    const other = await permissionIn(box, "rm -rf build/../..", "s-1");
    await slot.reconcile();
    expect(seen.at(-1)?.question.id).toBe(other);
    expect(seen.at(-1)?.lastTime).toBeUndefined();
    await answerQuestion(box, other, { text: "no" }, { via: "telegram" });
    await slot.reconcile();

    const same = await permissionIn(box, "rm -rf build", "s-2");
    await slot.reconcile();
    expect(seen.at(-1)?.question.id).toBe(same);
    expect(seen.at(-1)?.lastTime).toMatchObject({ id: first, answer: "Yes" });
    await slot.close();
  });
});
