// The composition root of `qbridge serve`: the box and ledger, the slot with its watcher, every
// bridge that is on (config.bridges, from the list in src/cli/bridges.ts), the web page, the
// answer webhooks, and the aging sweep (src/slot/sweeper.ts). It wires them and names no
// surface: what a bridge provides and receives is the contract in src/slot/bridge.ts. Stopping
// finishes the update in flight, then closes the web server and the ledger.

import type { Logger } from "pino";
import { checkGitTrustsBox } from "./box/git-owner.ts";
import type { Config } from "./config.ts";
import type { BridgeFailed } from "./errors.ts";
import { serveMcp } from "./mcp/http.ts";
import type { SweepReport } from "./questions/aging.ts";
import type { Core } from "./questions/core.ts";
import { openCore } from "./questions/open.ts";
import { quietHoursText } from "./slot/attention/quiet-hours.ts";
import type { Bridge, BridgeDeps, ConfiguredBridge } from "./slot/bridge.ts";
import { openDoor } from "./slot/door.ts";
import { createSlot, type Slot } from "./slot/slot.ts";
import { createSweeper } from "./slot/sweeper.ts";
import { createHealthProbe, type HealthProbe } from "./web/health.ts";
import { linkUrl, loadSecret, noLinkAddress } from "./web/links.ts";
import { type RunningWeb, startWeb } from "./web/server.ts";
import { recordBoxReceiver } from "./webhooks/box-receiver.ts";
import { createWebhookSender } from "./webhooks/delivery.ts";
import { oweWebhooks } from "./webhooks/owe.ts";

export { createLogger } from "./logger.ts";

export interface ServiceOptions {
  config: Config;
  logger: Logger;
  /** How often the slot looks for cards changed by other processes (default 1 s). */
  watchMs?: number;
  /** Start the web page (default true). */
  web?: boolean;
  /** Test seams per bridge, by surface (e.g. telegram: API transformers, the polling pace). */
  seams?: Record<string, unknown>;
}

export interface Service {
  core: Core;
  slot: Slot;
  /** The bridges that are on, in the list's order. */
  bridges: Bridge[];
  web: RunningWeb | undefined;
  /** What /healthz shows; each bridge reports its own part under its surface's name. */
  health: HealthProbe;
  /** One line per part that runs, for the operator. */
  started: string[];
  /**
   * Settles with the error when a bridge fails so that the service must end (a BridgeFailed:
   * its token held elsewhere); never settles otherwise. The caller stops the service.
   */
  failed: Promise<Error>;
  /** Runs the aging sweep now (nudges through the bridges), then reconciles the slot. */
  sweep(): Promise<SweepReport>;
  stop(): Promise<void>;
}

interface Shared {
  options: ServiceOptions;
  slot: Slot;
  health: HealthProbe;
  /** The key that signs links to the web page. */
  secret: Buffer;
  fail: (error: BridgeFailed) => void;
}

/** What a bridge is given: its door, the logger, signed links, its part of /healthz, `fail`. */
function bridgeDeps(bridge: ConfiguredBridge, shared: Shared): BridgeDeps {
  const { options, slot, secret } = shared;
  const { config, logger } = options;
  const { clock } = slot.core.box;
  const publicUrl = config.web.publicUrl;
  return {
    door: openDoor(slot, bridge.declaration),
    logger,
    web: { host: config.web.host },
    link: (id) => linkUrl(publicUrl, secret, { question: id }, clock.now()),
    questionsLink: () => linkUrl(publicUrl, secret, { page: "questions" }, clock.now()),
    health: (state) => shared.health.report(bridge.surface, state),
    fail: shared.fail,
    seams: options.seams?.[bridge.surface],
  };
}

export async function startService(options: ServiceOptions): Promise<Service> {
  const { config, logger } = options;
  const started: string[] = [];
  const core = await openServiceCore(options, started);
  const slot = createSlot({ core, logger, attention: config.attention });
  const health = createHealthProbe(core);
  let fail: (error: Error) => void = () => undefined;
  const failed = new Promise<Error>((resolve) => {
    fail = resolve;
  });
  const { bridges, web } = await startParts({ options, slot, health, fail }, started);
  slot.watch(options.watchMs ?? 1_000);
  const webhooks = startWebhooks(core, options, started);
  const sweeper = await startSweeper(slot, bridges, options, started);

  let stopping: Promise<void> | undefined;
  return {
    core,
    slot,
    bridges,
    web,
    health,
    started,
    failed,
    sweep: sweeper.sweep,
    stop() {
      stopping ??= (async () => {
        await sweeper.stop();
        await webhooks?.stop();
        for (const bridge of bridges) await bridge.stop();
        await slot.close();
        await web?.close();
        core.ledger.close();
        logger.info({}, "stopped");
      })();
      return stopping;
    },
  };
}

/** Opens the box and its ledger for a lasting service; refuses a box git does not trust. */
async function openServiceCore(options: ServiceOptions, started: string[]): Promise<Core> {
  const { config, logger } = options;
  let setAside: string | undefined;
  const core = openCore(config, {
    lasting: true,
    checkLedger: true,
    onSetAside: (notice) => (setAside = notice),
    owe: oweWebhooks,
  });
  // Before the ledger is opened: a refused start leaves no file of this user in the box.
  await checkGitTrustsBox(core.box);
  core.ledger.faultLog = (fields, message) => logger.warn(fields, message);
  started.push(`box ${config.boxDir} (ledger ${core.box.paths.ledgerPath})`);
  if (setAside) {
    logger.warn({}, setAside);
    started.push(setAside);
  }
  const noLinks = noLinkAddress(config.web);
  if (noLinks) logger.warn({}, noLinks);
  return core;
}

/**
 * Creates every bridge that is on and the web page, brings the slot in step with the box, then
 * starts the bridges. A part that fails to start stops every part started before it.
 */
async function startParts(
  shared: Omit<Shared, "secret">,
  started: string[],
): Promise<{ bridges: Bridge[]; web: RunningWeb | undefined }> {
  const { options, slot, health } = shared;
  const { config, logger } = options;
  const { core } = slot;
  const bridges: Bridge[] = [];
  let web: RunningWeb | undefined;
  try {
    const on = config.bridges.filter((bridge) => bridge.on);
    // The links' key is made on first use: with no bridge on, none is needed yet.
    const secret = on.length > 0 ? loadSecret(core.box) : Buffer.alloc(0);
    for (const configured of on) {
      bridges.push(await configured.create(bridgeDeps(configured, { ...shared, secret })));
    }
    if (options.web !== false) {
      const onTransition = () => slot.reconcile();
      web = await startWeb({ core, config, health, logger, onTransition, mcp: serveMcp });
    }
    // The box and the ledger are brought in step (a dead writer's half-change finished or
    // undone, a dead process's claim superseded) before the first update is handled, so a tap
    // or a reply that arrives at start-up meets the slot as it really is.
    await slot.reconcile();
    for (const bridge of bridges) started.push(...(await bridge.start()));
    for (const configured of config.bridges) {
      if (!configured.on) started.push(configured.offLine);
    }
    if (web) started.push(`web page ${web.url}`);
    return { bridges, web };
  } catch (error) {
    for (const bridge of bridges) await bridge.stop();
    await web?.close();
    await slot.close();
    core.ledger.close();
    throw error;
  }
}

/** Answer webhooks, on when a signing secret is set (the outbox is in the ledger). */
function startWebhooks(core: Core, options: ServiceOptions, started: string[]) {
  const { config, logger } = options;
  const webhooks = config.webhooks.secret
    ? createWebhookSender({
        core,
        secret: config.webhooks.secret,
        giveUpAfterMs: config.webhooks.giveUpAfterMs,
        logger,
      })
    : undefined;
  // Every writer of the box owes this service's receiver, also one without the setting.
  recordBoxReceiver(core.ledger, config.webhooks.secret ? config.webhooks.url : undefined);
  webhooks?.start();
  if (webhooks) {
    started.push(
      `answer webhooks on${config.webhooks.url ? ` (every question to ${new URL(config.webhooks.url).origin})` : " (per-question callbacks)"}`,
    );
  }
  return webhooks;
}

/** The aging sweep, run again as each bridge comes to hold its surface. */
async function startSweeper(
  slot: Slot,
  bridges: Bridge[],
  options: ServiceOptions,
  started: string[],
) {
  const { config, logger } = options;
  const sweeper = createSweeper({
    slot,
    logger,
    sweepMinutes: config.sweepMinutes,
    attention: config.attention,
  });
  await sweeper.start();
  // A bridge that does not yet hold its surface (a polling bot before its first poll) is
  // nudged nothing by the first sweep: the sweep runs again once it does.
  for (const bridge of bridges) void bridge.ready?.then(sweeper.soon);
  const { quietHours } = config.attention;
  if (quietHours) {
    started.push(
      `quiet hours ${quietHoursText(quietHours)} (${config.timeZone}): only high-priority questions are sent then`,
    );
  }
  started.push(`aging sweep every ${config.sweepMinutes} min`);
  return sweeper;
}
