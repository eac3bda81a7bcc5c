// The doctor's checks of the ledger: SQLite's own integrity check, and when the aging sweep
// last ran (long ago means no `serve` sweeps this box). Neither is repairable in place.

import type { Core } from "../core.ts";
import type { DoctorCheck, Finding } from "./check.ts";

export function ledgerCheck(sweepMinutes: number): DoctorCheck {
  return {
    label: "ledger",
    async examine(core) {
      const findings: Finding[] = [];
      const facts: string[] = [];
      const integrity = safeIntegrity(core);
      if (integrity !== "ok") {
        findings.push({
          kind: "ledger",
          path: ".qbridge/ledger.sqlite",
          problem: `the ledger fails its integrity check: ${integrity}`,
          fix: "stop the service and delete .qbridge/ledger.sqlite: it is rebuilt; only old buttons and nudge latches are lost",
          repairable: false,
        });
      }
      findings.push(...examineSweep(core, sweepMinutes, facts));
      return { findings, facts };
    },
  };
}

/** When the aging sweep last ran; long ago means no `serve` sweeps this box. */
function examineSweep(core: Core, sweepMinutes: number, facts: string[]): Finding[] {
  const last = core.ledger.getMeta("last-sweep");
  if (!last) {
    facts.push(
      "aging sweep: never ran on this box (qbridge serve runs it; qbridge age runs it once)",
    );
    return [];
  }
  const ageMs = core.box.clock.now().getTime() - new Date(last).getTime();
  const minutes = Math.max(0, Math.round(ageMs / 60_000));
  if (ageMs > Math.max(3 * sweepMinutes, 60) * 60_000) {
    return [
      {
        kind: "sweep",
        path: ".qbridge/ledger.sqlite",
        problem: `the aging sweep last ran at ${last} (${minutes} min ago): nothing expires or nudges meanwhile`,
        fix: "start qbridge serve (it sweeps every QBRIDGE_SWEEP_MINUTES), or run qbridge age from cron",
        repairable: false,
      },
    ];
  }
  facts.push(`aging sweep: last ran at ${last} (${minutes} min ago)`);
  return [];
}

function safeIntegrity(core: Core): string {
  try {
    return core.ledger.integrity();
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}
