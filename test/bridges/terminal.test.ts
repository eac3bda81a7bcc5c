// The conformance stories (stories.ts) on the terminal bridge: typed lines at a keyboard.

import { afterEach, describe } from "vitest";
import { cleanupBoxes } from "../support/box.ts";
import { terminalDriver } from "./drivers/terminal.ts";
import { conformance } from "./stories.ts";

afterEach(cleanupBoxes);

describe("terminal, typing lines", () => conformance(terminalDriver()));
