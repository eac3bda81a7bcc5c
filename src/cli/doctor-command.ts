// `qbridge doctor`: what is wrong with the box, with the fix; `--repair` applies the safe fixes.

import type { Command } from "commander";
import { examineBox, repairBox } from "../questions/doctor.ts";
import { type CommonOptions, printJson, withCore } from "./context.ts";

export function registerDoctorCommand(program: Command): void {
  program
    .command("doctor")
    .description("check the box: unreadable cards, interrupted writes, stale locks, a dirty index")
    .option("--box <dir>", "the box directory (default: $QBRIDGE_BOX or ./box)")
    .option("--json", "print machine-readable JSON")
    .option("--repair", "fix what is safe to fix and list the rest")
    .action(async (options: CommonOptions & { repair?: boolean }) => {
      await withCore(options, async (core) => {
        let findings = await examineBox(core);
        if (options.repair) findings = await repairBox(core, findings);
        const open = findings.filter((f) => !f.repaired);
        if (options.json) {
          printJson({ healthy: findings.length === 0, findings });
        } else if (findings.length === 0) {
          process.stdout.write(`${core.box.paths.root}: healthy\n`);
        } else {
          for (const f of findings) {
            const state = f.repaired ? "repaired" : "problem";
            process.stdout.write(
              `${state}: ${f.path}: ${f.problem}\n${f.repaired ? "" : `  fix: ${f.fix}\n`}`,
            );
          }
        }
        if (open.length > 0) process.exitCode = 1;
      });
    });
}
