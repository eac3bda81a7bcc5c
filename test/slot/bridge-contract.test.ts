// Story: someone adds a second bridge ("example", settings EXAMPLE_*) next to Telegram, as one
// more entry in the bridge list. The core knows neither: each validates its own settings, every
// problem is reported at once, its secret stays out of the logs, serve says it started, doctor
// asks it for its check, /healthz shows its part, and its fatal failure ends the service with
// exit 78.

import pino from "pino";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { BRIDGES } from "../../src/cli/bridges.ts";
import { doctorChecks } from "../../src/cli/doctor-checks.ts";
import { exitCodeOf } from "../../src/cli/exit.ts";
import { checked, loadConfig } from "../../src/config.ts";
import { BridgeFailed, SettingsInvalid } from "../../src/errors.ts";
import { createLogger } from "../../src/logger.ts";
import type { DoctorCheck } from "../../src/questions/doctor/doctor.ts";
import { type Service, startService } from "../../src/service.ts";
import { type BridgeDeps, defineBridge } from "../../src/slot/bridge.ts";
import { cleanupBoxes, makeBox, T0 } from "../support/box.ts";

afterAll(cleanupBoxes);
const running: Service[] = [];
afterEach(async () => {
  for (const s of running.splice(0)) await s.stop();
  vi.restoreAllMocks();
});

class ExampleRevoked extends BridgeFailed {
  override name = "ExampleRevoked";
}

/** What the example bridge was given when the service created it. */
let given: BridgeDeps | undefined;
const exampleCheck: DoctorCheck = {
  label: "example",
  examine: async () => ({ findings: [], facts: ["example: reachable"] }),
};

const example = defineBridge<{ token: string | undefined }>({
  surface: "example",
  proves: "paired-account",
  help: { settings: "Example: EXAMPLE_TOKEN turns it on.", doctor: "the example console" },
  schema: z
    .object({
      EXAMPLE_TOKEN: checked(
        (v) => /^ex-[a-z0-9]{16,}$/.test(v),
        "EXAMPLE_TOKEN must start with ex- and 16 letters or digits: copy it from the example console",
      ),
    })
    .transform((e) => ({ token: e.EXAMPLE_TOKEN })),
  on: (settings) => settings.token !== undefined,
  offLine: "example off (set EXAMPLE_TOKEN to turn it on)",
  secrets: (settings) => [settings.token],
  create: async (_settings, deps) => {
    given = deps;
    return {
      start: async () => {
        deps.health({ ok: true });
        return ["example bridge on"];
      },
      stop: async () => undefined,
    };
  },
  check: async () => exampleCheck,
  pairing: () => ({
    fixedOwner: undefined,
    userName: (id) => `example user ${id}`,
    howToSend: (code) => `Say "pair ${code}" to the example bot`,
    notes: [],
  }),
});

const LIST = [...BRIDGES, example];
const EXAMPLE_TOKEN = "ex-0123456789abcdef";

describe("each bridge validates its own settings", () => {
  it("the core's, Telegram's and a second bridge's problems are reported at once, each naming its variable, no value echoed", () => {
    let problems: string[] = [];
    try {
      loadConfig(
        {
          QBRIDGE_WEB_PORT: "99999",
          TELEGRAM_OWNER_ID: "@me-secretish",
          EXAMPLE_TOKEN: "wrong-and-private",
        },
        {},
        LIST,
      );
    } catch (error) {
      expect(error).toBeInstanceOf(SettingsInvalid);
      problems = (error as SettingsInvalid).problems;
    }
    expect(problems.sort()).toEqual([
      "EXAMPLE_TOKEN must start with ex- and 16 letters or digits: copy it from the example console",
      "QBRIDGE_WEB_PORT must be a port number from 0 to 65535",
      "TELEGRAM_OWNER_ID must be your numeric Telegram user id (digits only), or unset to pair with /start",
    ]);
    expect(problems.join("\n")).not.toMatch(/secretish|wrong-and-private/);
  });

  it("the core's config has no surface in it: without the bridge list, TELEGRAM_* configure nothing", () => {
    const config = loadConfig({ TELEGRAM_OWNER_ID: "@not-checked-by-the-core" });
    expect(config.bridges).toEqual([]);
    expect(Object.keys(config)).not.toContain("telegram");
  });

  it("a secret the bridge declares is blanked out of every log line", () => {
    const config = loadConfig({ EXAMPLE_TOKEN }, {}, LIST);
    const lines: string[] = [];
    vi.spyOn(process.stdout, "write").mockImplementation((chunk) => {
      lines.push(String(chunk));
      return true;
    });
    createLogger(config).info({ url: `https://example.test/${EXAMPLE_TOKEN}` }, "calling");
    expect(lines.join("")).toContain("https://example.test/[secret]");
    expect(lines.join("")).not.toContain(EXAMPLE_TOKEN);
  });
});

describe("the service runs every bridge in the list", () => {
  it("serve says each bridge's summary, or how to turn it on; /healthz carries its part; doctor asks it", async () => {
    const box = await makeBox();
    const config = loadConfig({ EXAMPLE_TOKEN, QBRIDGE_TIME: T0 }, { box: box.dir }, LIST);
    const service = await startService({ config, logger: pino({ level: "silent" }), web: false });
    running.push(service);
    expect(service.started).toContain("example bridge on");
    expect(service.started).toContain("telegram off (set TELEGRAM_BOT_TOKEN to turn it on)");
    // Its door onto the service's slot, for its own surface only: no slot, core or store.
    expect(given?.door.surface).toEqual({
      name: "example",
      proves: "paired-account",
      fixedOwner: undefined,
    });
    expect(given).not.toHaveProperty("slot");
    expect((await service.health.current()).parts).toEqual({ example: { ok: true } });
    const checks = await doctorChecks(config);
    expect(checks.map((c) => c.label)).toContain("example");
    expect(checks.map((c) => c.label)).not.toContain("telegram");
  });

  it("a bridge's fatal failure ends the service, and serve exits 78 without the core knowing the bridge", async () => {
    const box = await makeBox();
    const config = loadConfig({ EXAMPLE_TOKEN, QBRIDGE_TIME: T0 }, { box: box.dir }, LIST);
    const service = await startService({ config, logger: pino({ level: "silent" }), web: false });
    running.push(service);
    const revoked = new ExampleRevoked("EXAMPLE_TOKEN was revoked: make a new one");
    given?.fail(revoked);
    const failure = await service.failed;
    expect(failure).toBe(revoked);
    expect(exitCodeOf(failure)).toBe(78);
  });
});
