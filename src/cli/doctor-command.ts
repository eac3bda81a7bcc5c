// `qbridge doctor`: what is wrong with the box, with the fix; `--repair` applies the safe fixes.
// Progress goes to stderr on a terminal only; what was fine is listed after the findings.

import type { Command } from "commander";
import { examineBox, repairBox } from "../questions/doctor/doctor.ts";
import { bridgeHelp } from "./bridges.ts";
import { type CommonOptions, printJson, progress, withCore } from "./context.ts";
import { doctorChecks } from "./doctor-checks.ts";
import { writeOut } from "./output.ts";

export function registerDoctorCommand(program: Command): void {
  program
    .command("doctor")
    .description(
      "check the box: git, unreadable cards, interrupted writes, stale locks, a dirty index, the ledger, the slot, the last sweep, the bot",
    )
    .option("--box <dir>", "the box directory (default: $QBRIDGE_BOX or ./box)")
    .option("--json", "print machine-readable JSON")
    .option("--repair", "fix what is safe to fix and list the rest")
    .option(
      "--service-env <file>",
      "read the service's settings from its env file too (the file wins), so the bot checks run as the service would",
    )
    .addHelpText(
      "after",
      `
Checks: git (a HEAD commit, git fsck, a stale .git/index.lock, a trial commit), unreadable cards,
interrupted writes, stale locks, stray jobs, uncommitted files, the ledger (PRAGMA integrity_check), a
presentation stuck in the slot, when the aging sweep last ran, and each bridge that is on:
${bridgeHelp((help) => help.doctor)}
Exit 1 while a problem remains. --repair finishes interrupted writes, removes stale locks,
stray jobs and a stale index.lock, unstages staged files and releases a stuck presentation; the
rest is listed with its fix.

Examples:
  qbridge doctor
  qbridge doctor --repair --json
  sudo cat /etc/qbridge/qbridge.env | sudo -u qbridge qbridge doctor --service-env /dev/stdin`,
    )
    .action(async (options: CommonOptions & { repair?: boolean }) => {
      await withCore(options, async (core, config) => {
        const facts: string[] = [];
        let findings = await examineBox(core, {
          checks: await doctorChecks(config),
          onProgress: options.json ? undefined : progress("checking"),
          facts,
          sweepMinutes: config.sweepMinutes,
        });
        if (options.repair) findings = await repairBox(core, findings);
        const open = findings.filter((f) => !f.repaired);
        if (options.json) {
          printJson({ healthy: findings.length === 0, findings });
        } else {
          if (findings.length === 0) writeOut(`${core.box.paths.root}: healthy\n`);
          for (const f of findings) {
            const state = f.repaired ? "repaired" : "problem";
            writeOut(`${state}: ${f.path}: ${f.problem}\n${f.repaired ? "" : `  fix: ${f.fix}\n`}`);
          }
          for (const fact of facts) writeOut(`ok: ${fact}\n`);
        }
        if (open.length > 0) process.exitCode = 1;
      });
    });
}
