// `qbridge hook doctor`: are the hooks installed where each agent reads them, for which box,
// and is the service that brings their questions to the phone reachable? It only reads.

import { homedir } from "node:os";
import { AGENT_NAMES, type Agent } from "./agent-input.ts";
import { installedCommands } from "./install.ts";
import { readSettings, type Scope, settingsPath } from "./settings-file.ts";

export interface HookPlace {
  agent: Agent;
  scope: Scope;
  path: string;
  /** Event -> the qbridge commands installed for it. */
  installed: Record<string, string[]>;
  /** Set when the file could not be read as settings. */
  problem?: string | undefined;
}

export interface HookDoctorReport {
  places: HookPlace[];
  service: { url: string; reachable: boolean; ok: boolean; detail: string };
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
    };
  } catch (error) {
    const reason = (error as Error).name === "TimeoutError" ? "no answer in 2 s" : "not running";
    return { url, reachable: false, ok: false, detail: reason };
  }
}

export function doctorLines(report: HookDoctorReport): string[] {
  const lines = report.places.map((place) => {
    const where = `${AGENT_NAMES[place.agent]} (${place.scope}, ${place.path})`;
    if (place.problem) return `✗ ${where}: ${place.problem}`;
    const events = Object.keys(place.installed);
    if (events.length === 0) return `· ${where}: not installed`;
    const trust = place.agent === "codex" ? "; Codex runs it once you trust it in /hooks" : "";
    return `✓ ${where}: ${events.join(" and ")} hook installed${trust}`;
  });
  const { service } = report;
  lines.push(
    service.reachable
      ? `${service.ok ? "✓" : "✗"} the service at ${service.url}: ${service.detail}`
      : `✗ the service at ${service.url}: ${service.detail}; start it with "qbridge serve" so questions reach the phone`,
  );
  return lines;
}

/** Fine when some agent has the hooks and the service is up and healthy. */
export function doctorOk(report: HookDoctorReport): boolean {
  const installed = report.places.some((p) => Object.keys(p.installed).length > 0 && !p.problem);
  return installed && report.service.ok;
}
