// `--service-env FILE`: the settings of a service's env file (systemd EnvironmentFile, docker
// --env-file), laid over this process's environment, so a command such as `doctor` sees what
// the service sees. The result goes to loadConfig, still the one reader of settings.
// Never named `--env-file`: node reads a file given so anywhere on its command line, even
// after the script, before qbridge runs (it would take /dev/stdin's text itself).

import { readFileSync } from "node:fs";
import { parseEnv } from "node:util";
import { InvalidInput } from "../errors.ts";

export function environmentWith(
  envFile: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
): NodeJS.ProcessEnv {
  if (envFile === undefined) return env;
  let text: string;
  try {
    text = readFileSync(envFile, "utf8");
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? String(error);
    throw new InvalidInput(
      `cannot read the env file ${envFile} (${reason}): check the path, or pipe it in with --service-env /dev/stdin`,
    );
  }
  return { ...env, ...parseEnv(text) };
}
