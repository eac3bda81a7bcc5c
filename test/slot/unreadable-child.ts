// Child of unreadable-card.test.ts: a slot over the box in argv[2], run without the power to
// read a file its mode forbids (a normal user, or root under setpriv without its override
// capabilities), so a card made unreadable fails with a real EACCES. Prints what the slot did.

import { chmodSync } from "node:fs";
import { join } from "node:path";
import { openBox } from "../../src/box/box.ts";
import { createClock } from "../../src/box/clock.ts";
import { Ledger } from "../../src/ledger/ledger.ts";
import type { Closure, Presenter } from "../../src/slot/presentation/presenter.ts";
import { createSlot } from "../../src/slot/slot.ts";

const [dir, rel] = process.argv.slice(2) as [string, string];
const box = openBox(dir, { clock: createClock("2026-07-10T09:00:00Z") });
const ledger = new Ledger(box.paths.ledgerPath);
const slot = createSlot({ core: { box, ledger } });
const closures: [string, Closure["kind"]][] = [];
const presenter: Presenter = {
  surface: "notebook",
  ready: () => true,
  async present() {
    return { chatId: "desk", messageId: "1" };
  },
  async closed(presentation, closure) {
    closures.push([presentation.questionId, closure.kind]);
  },
};
slot.attach(presenter);

await slot.reconcile();
const presented = slot.current()?.questionId;
chmodSync(join(dir, rel), 0);
let error: string | undefined;
try {
  await slot.reconcile();
} catch (thrown) {
  error = (thrown as Error).name;
}
const stillPresented = slot.current()?.questionId;
chmodSync(join(dir, rel), 0o644);
await slot.reconcile();
const afterwards = slot.current()?.questionId;
process.stdout.write(JSON.stringify({ presented, error, stillPresented, afterwards, closures }));
await slot.close();
ledger.close();
