// `qbridge grants [--json]` and `qbridge grants revoke ID`: the "Allow for this session" grants
// coding agents hold (live first, then what became of the others), and taking one back.

import type { Command } from "commander";
import { GrantNotFound } from "../errors.ts";
import { type Grant, GrantStore, grantLive } from "../ledger/grants.ts";
import { type CommonOptions, printJson, withCore } from "./context.ts";
import { writeOut } from "./output.ts";

function state(grant: Grant, now: string): string {
  if (grant.revokedAt) return `revoked ${grant.revokedAt.slice(0, 16).replace("T", " ")}`;
  if (!grantLive(grant, now)) return "expired";
  return `until ${grant.expiresAt.slice(0, 16).replace("T", " ")}`;
}

/** One line per grant: id, agent and session, what it covers, uses, state. */
export function grantLine(grant: Grant, now: string): string {
  const pattern = grant.pattern.replace(/^[a-z]+:/, "");
  const session =
    grant.sessionId.length > 12 ? `${grant.sessionId.slice(0, 12)}…` : grant.sessionId;
  return `${grant.id}  ${grant.agent} ${session}  ${grant.tool} ${pattern}  used ${grant.uses}×  ${state(grant, now)}`;
}

export function registerGrantsCommand(program: Command): void {
  const grants = program
    .command("grants")
    .option("--box <dir>", "the box directory (default: $QBRIDGE_BOX or ./box)")
    .option("--json", "print machine-readable JSON")
    .description('the "Allow for this session" grants coding agents hold')
    .action(async (options: CommonOptions) => {
      await withCore(options, async (core) => {
        const all = new GrantStore(core.ledger).all();
        const now = core.box.clock.iso();
        if (options.json) {
          return printJson(all.map((grant) => ({ ...grant, live: grantLive(grant, now) })));
        }
        const live = all.filter((grant) => grantLive(grant, now));
        const rest = all.filter((grant) => !grantLive(grant, now));
        if (all.length === 0) return writeOut("no grants: no agent session may skip a question\n");
        writeOut(
          `${[...live, ...rest].map((grant) => grantLine(grant, now)).join("\n")}\n` +
            (live.length ? "revoke one with: qbridge grants revoke ID\n" : ""),
        );
      });
    });

  grants
    .command("revoke")
    // Not named "id": that argument is resolved as a question id (question-ids.ts).
    .argument("<grant>", "the grant's id (qbridge grants lists them)")
    .description("take a grant back: the next matching request asks again")
    // --box and --json are the parent's: commander gives them to it wherever they stand.
    .action(async (id: string, _options: CommonOptions, command: Command) => {
      const options = command.optsWithGlobals() as CommonOptions;
      await withCore(options, async (core) => {
        const store = new GrantStore(core.ledger);
        const grant = store.get(id);
        if (!grant) throw new GrantNotFound(id);
        const revoked = store.revoke(id, core.box.clock.iso(), "cli");
        if (options.json) return printJson({ id, revoked, grant: store.get(id) });
        writeOut(
          revoked
            ? `revoked ${id}: ${grant.tool} ${grant.pattern.replace(/^[a-z]+:/, "")} asks again\n`
            : `${id} was revoked already; nothing changed\n`,
        );
      });
    });
}
