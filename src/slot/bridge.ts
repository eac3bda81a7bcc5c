// The bridge contract: what a surface (Telegram today, any chat service later) provides to be
// plugged into `qbridge serve`, and what it is given: one door (door.ts) into the core for its
// surface, never the slot, the stores or the database. A bridge is a folder under bridges/ and
// one line in the bridge list (src/cli/bridges.ts); the core never names a surface. What a
// surface proves of whoever acts on it is declared once, here, by its plug (`proves`).
//
// A bridge's definition must be cheap to load (every command reads the settings): it holds its
// zod schema and imports its network library only inside `create` and `check`.
// docs/BRIDGES.md explains the contract for someone writing a bridge.

import type { z } from "zod";
import type { BridgeFailed } from "../errors.ts";
import type { DoctorCheck } from "../questions/doctor/doctor.ts";
import type { Door } from "./door.ts";
import type { Proves, SurfaceDeclaration } from "./judge/proof.ts";
import type { SlotLogger } from "./slot.ts";

/** The environment as the config reads it (only src/config.ts hands it over). */
export type Environment = Readonly<Record<string, string | undefined>>;

/** One part of /healthz: ok, or not with why, in one sentence. */
export interface BridgeHealth {
  ok: boolean;
  reason?: string;
}

/** What a bridge is given when the service creates it. */
export interface BridgeDeps {
  /** Its door into the core: attempts, buttons, presentations, pairing, its own ledger values. */
  door: Door;
  logger: SlotLogger;
  /** Where the web page listens, and the signed links to it (undefined without a public URL). */
  web: { host: string };
  link(questionId: string): string | undefined;
  questionsLink(): string | undefined;
  /** Tells /healthz where the bridge stands with its surface, each time that changes. */
  health(state: BridgeHealth): void;
  /**
   * The bridge cannot go on as configured (its token refused, held by another service): the
   * service stops and `qbridge serve` exits with the error's sentence and EX_CONFIG (78).
   */
  fail(error: BridgeFailed): void;
  /** What a test passed in for this surface (a recording transformer, a faster poll), else undefined. */
  seams: unknown;
}

/** A created bridge: attached to the slot, not yet talking to its surface. */
export interface Bridge {
  /**
   * Connects to the surface. Resolves with the lines of the start-up summary (what runs, who
   * the boxholder is); throws a BridgeFailed for a setting the surface refuses, an InvalidInput
   * naming the setting for one that cannot work (a port in use).
   */
  start(): Promise<string[]>;
  /**
   * Settles once the bridge holds its surface and shows questions (a polling bot: after its
   * first poll); absent when it does from the start. The service sweeps again then.
   */
  ready?: Promise<void>;
  /** Finishes the update in flight and lets go of the surface. */
  stop(): Promise<void>;
}

/** How `qbridge pair` speaks for a surface. */
export interface PairingTerms {
  /** The user id a setting fixes as the boxholder (no code can pair anybody else). */
  fixedOwner: string | undefined;
  /** "telegram user 1001" */
  userName(userId: string): string;
  /** How to use the code, one sentence: 'Send "/start CODE" to your bot in a private chat'. */
  howToSend(code: string): string;
  /** Notes for stderr about this process's settings (a token missing here, an owner fixed). */
  notes: string[];
  /**
   * Sends the code to an address `qbridge pair` was given (its `pairFlag`), where the surface
   * can (e-mail); `remember` keeps a value in the ledger that the serving bridge reads from its
   * `door.meta` under the same key. Resolves to the line `pair` prints.
   */
  deliver?(
    code: string,
    to: string,
    remember: (key: string, value: string) => void,
  ): Promise<string>;
}

/** A listed bridge with its settings validated: on or off, and what it needs from the service. */
export interface ConfiguredBridge {
  /** The surface's name: in the ledger (owners, presentations, audit rows), /healthz and logs. */
  surface: string;
  /** What it proves of whoever acts on it, with the owner its settings fix: what the judge reads. */
  declaration: SurfaceDeclaration;
  /** Off: the service runs without it and says `offLine` instead. */
  on: boolean;
  offLine: string;
  /** Setting values that are secrets: blanked out of every log line. */
  secrets: string[];
  create(deps: BridgeDeps): Promise<Bridge>;
  /** The doctor's look at the surface (reachable, set up as the settings say); none when off. */
  check(): Promise<DoctorCheck | undefined>;
  pairing: PairingTerms;
}

/** What `serve --help` and `doctor --help` say of a bridge, so neither lists surfaces by hand. */
export interface BridgeHelp {
  /** Its settings and what each does, one sentence: "Telegram: TELEGRAM_BOT_TOKEN turns it on, ...". */
  settings: string;
  /** What doctor checks while it is on, one phrase: "the bot (getMe) and its webhook". */
  doctor: string;
  /** A flag of `qbridge pair` naming where its code is sent (`--email ADDRESS`), when it has one. */
  pairFlag?: { flag: string; value: string; description: string };
}

/** A bridge as the bridge list holds it: its surface and how it reads its own settings. */
export interface BridgeDefinition {
  surface: string;
  help: BridgeHelp;
  /** Every problem with this bridge's settings (one sentence each naming its variable, never its value), or the bridge configured. */
  configure(env: Environment): { problems: string[] } | { bridge: ConfiguredBridge };
}

/** What a bridge folder writes to define itself; `S` is its validated settings. */
export interface BridgePlug<S> {
  surface: string;
  /**
   * What the surface proves of whoever acts on it (src/slot/judge/proof.ts): a chat with
   * accounts "paired-account", mail "paired-address". The judge decides trust from it and the
   * proof each attempt carries; the owner `pairing(settings).fixedOwner` names is the boxholder.
   */
  proves: Proves;
  help: BridgeHelp;
  /** Parses the whole environment into this bridge's settings; each issue's message names its variable. */
  schema: z.ZodType<S, z.ZodTypeDef, unknown>;
  on(settings: S): boolean;
  offLine: string;
  secrets(settings: S): (string | undefined)[];
  create(settings: S, deps: BridgeDeps): Promise<Bridge>;
  check(settings: S): Promise<DoctorCheck>;
  pairing(settings: S): PairingTerms;
}

export function defineBridge<S>(plug: BridgePlug<S>): BridgeDefinition {
  return {
    surface: plug.surface,
    help: plug.help,
    configure(env) {
      const parsed = plug.schema.safeParse(env);
      if (!parsed.success) return { problems: parsed.error.issues.map((issue) => issue.message) };
      const settings = parsed.data;
      const on = plug.on(settings);
      const pairing = plug.pairing(settings);
      return {
        bridge: {
          surface: plug.surface,
          declaration: declared(plug.surface, plug.proves, pairing.fixedOwner),
          on,
          offLine: plug.offLine,
          secrets: plug.secrets(settings).filter((s): s is string => Boolean(s)),
          create: (deps) => plug.create(settings, deps),
          check: async () => (on ? plug.check(settings) : undefined),
          pairing,
        },
      };
    },
  };
}

/** A surface's declaration: what it proves, and for a paired surface the owner a setting fixes. */
export function declared(
  name: string,
  proves: Proves,
  fixedOwner: string | undefined,
): SurfaceDeclaration {
  return proves === "paired-account" || proves === "paired-address"
    ? { name, proves, fixedOwner }
    : { name, proves };
}
