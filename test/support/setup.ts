// Runs around every test file: a qbridge child that a failed test never stopped (a serve, a
// chat) is killed when its file ends, so it cannot outlive the run or load the next files; the
// box layout makeBox copies is removed with it.

import { afterAll } from "vitest";
import { removeBoxLayout } from "./box.ts";
import { killLeftoverChildren } from "./child.ts";

afterAll(killLeftoverChildren);
afterAll(removeBoxLayout);

// The tests' webhook receivers listen on loopback, which callbacks may reach only when named.
process.env.QBRIDGE_WEBHOOK_ALLOW = "127.0.0.1,localhost,::1";
