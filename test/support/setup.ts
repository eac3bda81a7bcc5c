// Runs around every test file: a qbridge child that a failed test never stopped (a serve, a
// chat) is killed when its file ends, so it cannot outlive the run or load the next files; the
// boxes and scratch folders a file left, and the box layout makeBox copies, are removed with it.

import { afterAll } from "vitest";
import { cleanupBoxes, removeBoxLayout } from "./box.ts";
import { killLeftoverChildren } from "./child.ts";

// After-hooks run last registered first: the children are killed before their boxes go.
afterAll(removeBoxLayout);
afterAll(cleanupBoxes);
afterAll(killLeftoverChildren);

// Every test reaches only servers on loopback, so none needs the extra certificate authorities
// a machine may name in NODE_EXTRA_CA_CERTS: the hundreds of node processes the tests start must
// not each read and parse that bundle before they begin.
delete process.env.NODE_EXTRA_CA_CERTS;

// The tests' webhook receivers listen on loopback, which callbacks may reach only when named.
process.env.QBRIDGE_WEBHOOK_ALLOW = "127.0.0.1,localhost,::1";
