// The phone end to end, against a real `qbridge serve` on the emulator (phone-rig.ts):
// (f) filed to phone: from `qbridge ask` starting until the emulator holds the bot's message of
//     that question, beside that `qbridge ask` alone (start to exit), budget 1.1x; for the
//     first question after start (filed the moment serve makes its first getUpdates) and in
//     steady state. The permission hook's figures are in hook.ts.

import { exited, failed, ms, now, type PhoneRig, phoneRig } from "./phone-rig.ts";
import { budgetRow } from "./stats.ts";

const RUNS = Number(process.env.BENCH_PHONE_RUNS ?? 8);

/** Files a confirm question; returns the time to the phone and `qbridge ask`'s own time. */
async function fileOne(rig: PhoneRig, round: string): Promise<{ phone: number; ask: number }> {
  const prompt = `Bench phone ${round}: may I rotate the logs?`;
  const shown = rig.held(prompt);
  const started = now();
  const ask = rig.cli([
    "ask",
    "--type",
    "confirm",
    "--prompt",
    prompt,
    "--memo",
    "The log folder grows.",
    "--directive",
    "Rotate the logs.",
  ]);
  const done = exited(ask);
  const { at, messageId } = await Promise.race([shown, failed(ask, "qbridge ask")]);
  const figures = { phone: ms(started, at), ask: ms(started, await done) };
  const acks = rig.arrivals("answerCallbackQuery");
  const before = acks.length;
  await rig.tap(messageId, "");
  await rig.until(() => (acks.length > before ? true : undefined), "the tap's ack");
  return figures;
}

export async function benchPhone(): Promise<string[]> {
  const rig = await phoneRig("phone");
  const first = { phone: [] as number[], ask: [] as number[] };
  const steady = { phone: [] as number[], ask: [] as number[] };
  try {
    await rig.startServe();
    const one = await fileOne(rig, "first");
    first.phone.push(one.phone);
    first.ask.push(one.ask);
    for (let i = 0; i < RUNS; i++) {
      const next = await fileOne(rig, String(i));
      steady.phone.push(next.phone);
      steady.ask.push(next.ask);
    }
  } finally {
    await rig.stop();
  }
  return [
    budgetRow(
      "filed→phone, first after start",
      first.phone,
      "that qbridge ask alone",
      first.ask,
      1.1,
    ),
    budgetRow("filed→phone, steady", steady.phone, "those qbridge ask alone", steady.ask, 1.1),
  ];
}
