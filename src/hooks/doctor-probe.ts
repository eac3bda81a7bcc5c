// `qbridge hook doctor` runs each installed hook command as the agent would (through the shell,
// with the hook's input on stdin), giving it the probe (probe.ts) instead of a request: nothing
// is filed. What comes back says whether the command runs at all (a launcher moved or deleted
// ends 127) and in which box it asks. Runs commands; writes nothing.

import { spawn } from "node:child_process";
import { PROBE_INPUT, type ProbeAnswer, readProbeAnswer } from "./probe.ts";

/** How long one probe may take before it counts as hanging. */
const PROBE_MS = 15_000;

export type ProbeResult =
  | { ran: true; answer: ProbeAnswer }
  | { ran: false; exit: number | null; why: string };

/** The first line of what a failed command said on stderr, if anything. */
function firstLine(text: string): string {
  return text.trim().split("\n")[0]?.trim() ?? "";
}

function failure(exit: number | null, stdout: string, stderr: string): ProbeResult {
  if (exit === 127) {
    return { ran: false, exit, why: "its command is not found (exit 127)" };
  }
  if (exit === 0) {
    const printed = stdout.trim() === "" ? "nothing" : "something else";
    return {
      ran: false,
      exit,
      why: `it printed ${printed} for the probe: it is not this qbridge's hook (an older install?)`,
    };
  }
  const said = firstLine(stderr);
  const how = exit === null ? `no answer within ${PROBE_MS / 1000} s` : `exit ${exit}`;
  return { ran: false, exit, why: `it failed (${how})${said ? `: ${said}` : ""}` };
}

/** Runs one installed command with the probe on its standard input. */
export function probeCommand(command: string): Promise<ProbeResult> {
  return new Promise((resolve) => {
    const child = spawn(command, { shell: true, stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => {
      stdout += d;
    });
    child.stderr.on("data", (d) => {
      stderr += d;
    });
    const timer = setTimeout(() => child.kill("SIGKILL"), PROBE_MS);
    child.on("error", (error) => {
      clearTimeout(timer);
      resolve({ ran: false, exit: null, why: `it could not be started: ${error.message}` });
    });
    child.on("close", (code) => {
      clearTimeout(timer);
      const answer = code === 0 ? readProbeAnswer(stdout) : undefined;
      resolve(answer ? { ran: true, answer } : failure(code, stdout, stderr));
    });
    child.stdin.on("error", () => undefined);
    child.stdin.end(PROBE_INPUT);
  });
}
