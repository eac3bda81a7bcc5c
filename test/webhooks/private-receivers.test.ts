// A callback to the machine itself, a private network or a metadata service is refused at ask
// time, whatever numeric form its host takes, unless QBRIDGE_WEBHOOK_ALLOW names it.

import { afterEach, describe, expect, it } from "vitest";
import { askQuestion } from "../../src/questions/ask.ts";
import { pendingQuestions } from "../../src/questions/state.ts";
import { cleanupBoxes, confirmCard, makeBox, type TestBox } from "../support/box.ts";

const allowed = process.env.QBRIDGE_WEBHOOK_ALLOW;
afterEach(() => {
  process.env.QBRIDGE_WEBHOOK_ALLOW = allowed;
  cleanupBoxes();
});

const REFUSED = [
  "http://127.0.0.1/hook",
  "http://localhost:8080/hook",
  "http://10.0.0.1/hook",
  "http://172.16.5.4/hook",
  "http://192.168.1.1/hook",
  "http://169.254.169.254/latest/meta-data",
  "http://100.64.0.1/hook",
  "http://0.0.0.0/hook",
  "http://[fe80::1]/hook",
  "http://[fd00::1]/hook",
  "http://[::1]/hook",
  "http://[::ffff:127.0.0.1]/hook",
  "http://[::ffff:a00:1]/hook",
  "http://0x7f000001/hook",
  "http://2130706433/hook",
  "http://017700000001/hook",
  "http://metadata.google.internal/computeMetadata/v1/",
];

async function withWebhooks(): Promise<TestBox> {
  return { ...(await makeBox()), webhooks: { url: undefined } } as TestBox;
}

describe("a callback to a private or metadata address", () => {
  it("is refused at ask time, each form named, and nothing is filed", async () => {
    delete process.env.QBRIDGE_WEBHOOK_ALLOW;
    const box = await withWebhooks();
    for (const callback of REFUSED) {
      await expect(askQuestion(box, confirmCard({ callback })), callback).rejects.toThrow(
        /the callback is refused: its (address|host) /,
      );
    }
    expect(pendingQuestions(box).pending).toEqual([]);
  });

  it("is filed when QBRIDGE_WEBHOOK_ALLOW names its host, and a public host always is", async () => {
    process.env.QBRIDGE_WEBHOOK_ALLOW = "127.0.0.1, localhost";
    const box = await withWebhooks();
    await askQuestion(box, confirmCard({ callback: "http://127.0.0.1:9/hook" }));
    await askQuestion(box, confirmCard({ prompt: "B?", callback: "http://localhost:9/hook" }));
    await askQuestion(box, confirmCard({ prompt: "C?", callback: "https://agent.example.org/a" }));
    // A public address is filed in either spelling: only the private ranges are refused.
    await askQuestion(box, confirmCard({ prompt: "D?", callback: "https://93.184.216.34/a" }));
    await askQuestion(box, confirmCard({ prompt: "E?", callback: "https://[::ffff:5db8:d822]/a" }));
    expect(pendingQuestions(box).pending).toHaveLength(5);
  });
});
