// `qbridge hook doctor`: are the hooks installed where each agent reads them, does each
// installed command run (doctor-probe.ts runs it with a probe: nothing is filed), is the service
// that brings their questions to the phone reachable, and do the hooks ask in the box that
// service serves, where somebody can be reached? It files nothing and writes nothing.

import { homedir } from "node:os";
import { BOX_HEADER } from "../box/identity.ts";
import { AGENT_NAMES, type Agent } from "./agent-input.ts";
import { type ProbeResult, probeCommand } from "./doctor-probe.ts";
import { installedCommands } from "./install.ts";
import { readSettings, type Scope, settingsPath } from "./settings-file.ts";

export interface HookProbe {
  event: string;
  command: string;
  result: ProbeResult;
}

export interface HookPlace {
  agent: Agent;
  scope: Scope;
  path: string;
  /** Event -> the qbridge commands installed for it. */
  installed: Record<string, string[]>;
  /** Set when the file could not be read as settings. */
  problem?: string | undefined;
  /** What each installed command did with the probe. */
  probes?: HookProbe[];
}

export interface HookDoctorReport {
  places: HookPlace[];
  service: {
    url: string;
    reachable: boolean;
    ok: boolean;
    detail: string;
    /** The identity of the box it serves, when it says (src/box/identity.ts). */
    box?: string | undefined;
  };
}

export function hookPlaces(cwd: string, home = homedir()): HookPlace[] {
  const places: HookPlace[] = [];
  for (const agent of ["claude", "codex"] as const) {
    for (const scope of ["user", "project"] as const) {
      const path = settingsPath(agent, scope, home, cwd);
      try {
        const { settings } = readSettings(path);
        places.push({
          agent,
          scope,
          path,
          installed: Object.fromEntries(installedCommands(settings)),
        });
      } catch (error) {
        places.push({ agent, scope, path, installed: {}, problem: (error as Error).message });
      }
    }
  }
  return places;
}

/** Runs every installed command with the probe, all at once. */
export async function probePlaces(places: HookPlace[]): Promise<HookPlace[]> {
  return Promise.all(
    places.map(async (place) => {
      const runs = Object.entries(place.installed).flatMap(([event, commands]) =>
        commands.map(async (command) => ({ event, command, result: await probeCommand(command) })),
      );
      return { ...place, probes: await Promise.all(runs) };
    }),
  );
}

/** GET /healthz of the service; a service that does not answer within 2 s is unreachable. */
export async function serviceHealth(url: string): Promise<HookDoctorReport["service"]> {
  try {
    const response = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(2_000) });
    const body = (await response.json().catch(() => ({}))) as { ok?: boolean };
    return {
      url,
      reachable: true,
      ok: response.ok && body.ok === true,
      detail: response.ok ? "healthy" : `answered ${response.status}: see qbridge doctor`,
      box: response.headers.get(BOX_HEADER) ?? undefined,
    };
  } catch (error) {
    const reason = (error as Error).name === "TimeoutError" ? "no answer in 2 s" : "not running";
    return { url, reachable: false, ok: false, detail: reason };
  }
}

/** What is wrong with one probed command, in words; undefined when it is fine. */
function probeProblem(probe: HookProbe, service: HookDoctorReport["service"]): string | undefined {
  const { result } = probe;
  if (!result.ran) return `${result.why}: run "qbridge hook install" again`;
  const { answer } = result;
  if (service.box === undefined) return undefined;
  if (answer.boxId !== service.box) {
    return `it asks in the box ${answer.box}, not in the box the service at ${service.url} serves: install the hooks again for that box ("qbridge hook install --box DIR")`;
  }
  if (answer.reachable.length === 0) {
    return `nobody can be reached from the box ${answer.box} (no bridge delivers: pair one with "qbridge pair"), so the hook decides nothing and the agent asks at its own prompt`;
  }
  return undefined;
}

function probeLine(probe: HookProbe, service: HookDoctorReport["service"]): string {
  const problem = probeProblem(probe, service);
  if (problem) return `  ✗ ${probe.event}: ${problem}`;
  if (!probe.result.ran) return `  ✗ ${probe.event}`;
  const { box, reachable } = probe.result.answer;
  const reach = reachable.length ? `; reaches the boxholder on ${reachable.join(", ")}` : "";
  return `  ✓ ${probe.event}: runs and asks in ${box}${reach}`;
}

export function doctorLines(report: HookDoctorReport): string[] {
  const { service } = report;
  const lines = report.places.flatMap((place) => {
    const where = `${AGENT_NAMES[place.agent]} (${place.scope}, ${place.path})`;
    if (place.problem) return [`✗ ${where}: ${place.problem}`];
    const events = Object.keys(place.installed);
    if (events.length === 0) return [`· ${where}: not installed`];
    const trust = place.agent === "codex" ? "; Codex runs it once you trust it in /hooks" : "";
    const probes = (place.probes ?? []).map((probe) => probeLine(probe, service));
    return [`✓ ${where}: ${events.join(" and ")} hook installed${trust}`, ...probes];
  });
  lines.push(
    service.reachable
      ? `${service.ok ? "✓" : "✗"} the service at ${service.url}: ${service.detail}`
      : `✗ the service at ${service.url}: ${service.detail}; start it with "qbridge serve" so questions reach the phone`,
  );
  return lines;
}

/** Fine when some agent has the hooks, each installed command works, and the service is up. */
export function doctorOk(report: HookDoctorReport): boolean {
  const installed = report.places.some((p) => Object.keys(p.installed).length > 0 && !p.problem);
  const probes = report.places.flatMap((place) => place.probes ?? []);
  const working = probes.every((probe) => probeProblem(probe, report.service) === undefined);
  return installed && working && report.service.ok;
}
