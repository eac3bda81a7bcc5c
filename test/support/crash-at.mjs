// Test-only, loaded into a qbridge child with `node --import`: SIGKILLs the process when a box
// write reaches the step named in QBRIDGE_TEST_CRASH_AT (see src/box/write-steps.ts). The
// product never loads this file and never reads that variable, so a production start cannot
// arm a crash point.
import { subscribe } from "node:diagnostics_channel";

const at = process.env.QBRIDGE_TEST_CRASH_AT;
if (at) {
  subscribe("qbridge:write-step", (step) => {
    if (step.point === at) process.kill(process.pid, "SIGKILL");
  });
}
