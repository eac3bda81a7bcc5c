// The conformance stories (stories.ts) on the desk, a bridge written for tests through the port.

import { afterEach, describe } from "vitest";
import { cleanupBoxes } from "../support/box.ts";
import { deskDriver } from "./drivers/desk.ts";
import { conformance } from "./stories.ts";

afterEach(cleanupBoxes);

describe("desk, tapping buttons", () => conformance(deskDriver()));
