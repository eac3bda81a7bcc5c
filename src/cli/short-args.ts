// The command lines the lean bundle (dist/short.cjs) runs: the ones agents run as processes
// many times a day, in the plain forms they write them. `qbridge --version`, `show ID`,
// `wait ID` and `list`, with --json, --box and wait's --timeout; and `ask` with --json, --box
// and --unless-open, its card one JSON object on standard input. Any other form (help, another
// flag, a flag twice, an option before the command, an empty value) goes to the full command
// line, whose parser (commander) has the last word on what it means and how it is refused.
// The launcher reads this before it loads either bundle, so it loads nothing itself.

export interface ShortOptions {
  box?: string;
  json?: boolean;
  /** `wait --timeout`, as given: the command checks it. */
  timeout?: string;
  /** `ask --unless-open`. */
  unlessOpen?: boolean;
}

export type ShortCommand =
  | { name: "version" }
  | { name: "show" | "wait"; id: string; options: ShortOptions }
  | { name: "list"; options: ShortOptions }
  | { name: "ask"; options: ShortOptions };

/** The flags each short command takes: the flag, and whether a value follows it. */
const FLAGS = {
  show: { "--box": true, "--json": false },
  wait: { "--box": true, "--json": false, "--timeout": true },
  list: { "--box": true, "--json": false },
  ask: { "--box": true, "--json": false, "--unless-open": false },
} as const satisfies Record<string, Record<string, boolean>>;

const OPTION_OF = {
  "--box": "box",
  "--json": "json",
  "--timeout": "timeout",
  "--unless-open": "unlessOpen",
} as const;

function isShortName(name: string | undefined): name is keyof typeof FLAGS {
  return name === "show" || name === "wait" || name === "list" || name === "ask";
}

/** The short command `args` is, or undefined for a command line the full CLI reads. */
export function shortCommand(args: readonly string[]): ShortCommand | undefined {
  if (args.length > 0 && args.every((arg) => arg === "--version" || arg === "-V")) {
    return { name: "version" };
  }
  const [name, ...rest] = args;
  if (!isShortName(name)) return undefined;
  const flags: Readonly<Record<string, boolean>> = FLAGS[name];
  const options: ShortOptions = {};
  const positional: string[] = [];
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i] as string;
    if (arg === "") return undefined;
    if (!arg.startsWith("-")) {
      positional.push(arg);
      continue;
    }
    const equals = arg.indexOf("=");
    const flag = equals > 0 ? arg.slice(0, equals) : arg;
    const takesValue = flags[flag];
    if (takesValue === undefined) return undefined;
    const key = OPTION_OF[flag as keyof typeof OPTION_OF];
    if (options[key] !== undefined) return undefined;
    if (!takesValue) {
      if (equals > 0) return undefined;
      options[key as "json" | "unlessOpen"] = true;
      continue;
    }
    const value = equals > 0 ? arg.slice(equals + 1) : rest[++i];
    if (value === undefined || value === "" || value.startsWith("-")) return undefined;
    options[key as "box" | "timeout"] = value;
  }
  if (name === "list" || name === "ask") {
    return positional.length === 0 ? { name, options } : undefined;
  }
  const [id] = positional;
  return positional.length === 1 && id !== undefined ? { name, id, options } : undefined;
}
