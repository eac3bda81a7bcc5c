// `qbridge pair`: a one-time code that pairs a boxholder on a surface (each bridge says how its
// code is sent and what to note about its settings).

import type { Command } from "commander";
import type { Config } from "../config.ts";
import { BoxError, InvalidInput } from "../errors.ts";
import type { ConfiguredBridge } from "../slot/bridge.ts";
import { bridgeMetaKey } from "../slot/door.ts";
import { Owners } from "../slot/owner.ts";
import { BRIDGES } from "./bridges.ts";
import { type CommonOptions, printJson, withCore } from "./context.ts";
import { writeErr, writeOut } from "./output.ts";

/** "12:32": the hour and minute on this machine's clock (TZ), as a person reads a deadline. */
function localTime(iso: string): string {
  const at = new Date(iso);
  const two = (n: number) => String(n).padStart(2, "0");
  return `${two(at.getHours())}:${two(at.getMinutes())}`;
}

/** True when a person sends the bridge's code themselves (no flag names where it is sent). */
const sentByHand = (bridge: ConfiguredBridge) =>
  !BRIDGES.find((d) => d.surface === bridge.surface)?.help.pairFlag;

/** The bridge `--surface` names, or the first listed one whose code a person sends themselves. */
function bridgeNamed(config: Config, surface: string | undefined): ConfiguredBridge {
  const bridge = surface
    ? config.bridges.find((b) => b.surface === surface)
    : (config.bridges.find(sentByHand) ?? config.bridges[0]);
  if (!bridge) {
    const known = config.bridges.map((b) => b.surface).join(", ") || "none";
    throw new InvalidInput(
      `there is no bridge "${surface ?? ""}" to pair on: --surface takes one of ${known}`,
    );
  }
  return bridge;
}

export function registerPairCommand(program: Command): void {
  const pair = program
    .command("pair")
    .description(
      "print a one-time code (valid 10 minutes) that makes you the boxholder on one surface (Telegram unless --surface names another)",
    )
    .option("--box <dir>", "the box directory (default: $QBRIDGE_BOX or ./box)")
    .option("--json", "print machine-readable JSON")
    .option(
      "--replace",
      "make a code that moves the bot to another Telegram account while a boxholder is paired (they are told)",
    )
    .addHelpText(
      "after",
      `
Send "/start CODE" to your bot in a private chat while "qbridge serve" runs. The code works
once. With TELEGRAM_OWNER_ID set, that user is the boxholder and no pairing is needed. Once a
boxholder is paired, a new code needs --replace: whoever sends it becomes the boxholder, and
the one before is told in their chat. A code pairs on the surface it was made for only.`,
    )
    .option(
      "--surface <name>",
      "the surface the code pairs on (default: telegram, the first bridge)",
    );
  // A bridge that sends its code to an address names the flag for it (--email ADDRESS).
  for (const { help } of BRIDGES) {
    if (help.pairFlag)
      pair.option(`--${help.pairFlag.flag} <${help.pairFlag.value}>`, help.pairFlag.description);
  }
  pair.action(pairAction);
}

/** The bridge a pair flag names (--email ADDRESS) and the address, when one was given. */
function sentTo(options: Record<string, unknown>): { surface: string; to: string } | undefined {
  for (const { surface, help } of BRIDGES) {
    const to = help.pairFlag && options[help.pairFlag.flag];
    if (typeof to === "string") return { surface, to };
  }
  return undefined;
}

/** Prints a one-time pairing code for the surface `--surface` names. */
async function pairAction(
  options: CommonOptions & { replace?: boolean; surface?: string } & Record<string, unknown>,
): Promise<void> {
  const send = sentTo(options);
  await withCore(options, async (core, config) => {
    // The code lives in the ledger; on a read-only box that is a copy in memory, and a code
    // kept there would be gone before anyone could send it.
    if (core.ledger.readOnly) {
      throw new BoxError(
        `${core.box.paths.root} is read-only: a pairing code is kept in the box's ledger, so pair needs a writable box; make it writable and try again`,
      );
    }
    const bridge = bridgeNamed(config, send?.surface ?? options.surface);
    const terms = bridge.pairing;
    if (send && !terms.deliver) {
      throw new InvalidInput(
        `the ${bridge.surface} bridge is off here, so the code cannot be sent to ${send.to}: ${bridge.offLine}`,
      );
    }
    const owners = core.ledger.store(Owners);
    const bound = owners.get(bridge.surface);
    if (bound && !options.replace && !terms.fixedOwner) {
      throw new InvalidInput(
        `${terms.userName(bound.userId)} is the boxholder (paired ${bound.boundAt}): run "qbridge pair --replace" for a code that moves the bot to another account (they are told)`,
      );
    }
    const replace = options.replace === true;
    const { code, expiresAt } = owners.newPairingCode(bridge.surface, core.box.clock.now(), {
      replace,
    });
    const sent =
      send && terms.deliver
        ? await terms.deliver(code, send.to, (key, value) =>
            core.ledger.setMeta(bridgeMetaKey(bridge.surface, key), value),
          )
        : undefined;
    if (options.json) return printJson({ code, surface: bridge.surface, expiresAt, replace });
    if (sent) writeOut(`${sent}.\n`);
    writeOut(
      `Pairing code: ${code}\n${terms.howToSend(code)}; valid until ${localTime(expiresAt)}, 10 minutes. It works once.\n`,
    );
    if (bound && replace && !terms.fixedOwner) {
      writeOut(
        `Whoever sends it becomes the boxholder instead of ${terms.userName(bound.userId)}, who is told in their chat.\n`,
      );
    }
    for (const note of terms.notes) writeErr(`note: ${note}\n`);
  });
}
