// The conformance stories (stories.ts) on the Telegram bridge, on one emulator: once tapping
// the presented message's buttons, once typing replies.

import { describe } from "vitest";
import { useEmulator } from "../support/telegram.ts";
import { replyDriver, tapDriver } from "./drivers/telegram.ts";
import { conformance } from "./stories.ts";

const emulator = useEmulator();

describe("telegram, tapping buttons", () => conformance(tapDriver(emulator)));
describe("telegram, typing replies", () => conformance(replyDriver(emulator)));
