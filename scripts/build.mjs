// Compiles the package into dist/ (or the folder given as the first argument): the CLI and
// the library entries as ES modules, and type declarations for the library entries. Runs on
// `npm ci` (prepare), before `npm test`, and in the package test (into its own folder).
// Never needed at run time: the published package carries only the output.
//
// Pure-JavaScript libraries the CLI loads on every command (yaml, commander, simple-git,
// proper-lockfile) are bundled in: one file parses in a fraction of the time node takes to
// resolve and load their hundred small files. Native, worker-spawning and service-only
// packages stay external and are installed as dependencies.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const BUILD_ID_PREFIX = "// qbridge build ";
/** The CommonJS module wrapper (node's Module.wrap), around the bundle in its file. */
const MODULE_WRAPPER = ["(function (exports, require, module, __filename, __dirname) {", "});"];

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const requireHere = createRequire(import.meta.url);
const outdir = resolve(process.argv[2] ?? join(root, "dist"));
const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));

/** Library entries: export name -> source (package.json `exports`, tsconfig.declarations.json). */
const library = { client: "src/client/index.ts" };

rmSync(outdir, { recursive: true, force: true });
// Everything in `dependencies` stays external; the bundled libraries are devDependencies.
// Except zod: a dependency because the MCP SDK needs it installed (its peer), and bundled too,
// because every short command validates a card with it (run from the code cache, not loaded).
// And better-sqlite3's JavaScript (src/ledger/open.ts): its compiled part stays in node_modules.
const BUNDLED_DEPENDENCIES = ["zod", "better-sqlite3"];
const external = [
  ...Object.keys(pkg.dependencies ?? {}).filter((name) => !BUNDLED_DEPENDENCIES.includes(name)),
  "bindings",
].flatMap((name) => [name, `${name}/*`]);
const common = {
  absWorkingDir: root,
  bundle: true,
  platform: "node",
  target: "node20",
  external,
  sourcemap: "linked",
  legalComments: "linked",
  logLevel: "warning",
};

// The CLI: one CommonJS file, run by the launcher through V8's code cache (launch.ts). One
// file, not ES module chunks: node 20 caches compiled code only for scripts, and resolving
// and linking thirty chunks cost more than the code a command never runs. Commands still load
// lazily: a module reached only through import() runs when first imported.
/** A plugin giving the bundled package `importer` its own `contents` for module `name`. */
function substitute(name, importer, contents) {
  // One namespace per pair: esbuild gives a namespace's every module to its first onLoad.
  const namespace = `substitute-${importer}-${name}`;
  const filter = new RegExp(`^${name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`);
  const from = new RegExp(`[\\\\/]${importer}[\\\\/]`);
  return {
    name: namespace,
    setup(build) {
      build.onResolve({ filter }, (args) =>
        from.test(args.importer) ? { path: name, namespace } : undefined,
      );
      build.onLoad({ filter: /.*/, namespace }, () => ({
        contents,
        loader: "js",
        resolveDir: root,
      }));
    },
  };
}

/**
 * The project's own sources with every character beyond ASCII written as a \u escape. esbuild
 * escapes them in strings but keeps them as they are in regular expressions and in tagged
 * templates (html`…`), and an ASCII bundle is read by the launcher as latin1, which is a
 * copy, not a UTF-8 decoding (~1 ms of every command). Valid wherever such a character can be
 * (strings, templates whose tag reads the cooked text, as hono's html does, regular
 * expressions, comments); the build checks the bundle came out ASCII.
 */
const asciiSources = {
  name: "ascii-sources",
  setup(build) {
    build.onLoad({ filter: /[\\/](src|bridges)[\\/].*\.ts$/ }, (args) => {
      const text = readFileSync(args.path, "utf8");
      const contents = text.replace(
        /[^\0-\x7f]/g,
        (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
      );
      return { contents, loader: "ts" };
    });
  },
};

const substitutes = [
  // node-fetch (grammy's fetch on node) takes its URL class from node's url module and loads
  // whatwg-url only as a fallback for runtimes without one; loading it parsed tr46's 260 KB
  // table of Unicode mappings into 1.6 MB of heap that an idle service kept for good.
  substitute("whatwg-url", "node-fetch", 'module.exports = { URL: require("node:url").URL };'),
  // grammy's AbortController for node is the abort-controller package; node has its own. The
  // package's bundled class is renamed AbortSignal2 (the global's name is taken), and
  // node-fetch knows a signal by its constructor's name: every Bot API call was refused.
  substitute(
    "abort-controller",
    "grammy",
    "module.exports = { AbortController, AbortSignal, default: AbortController };",
  ),
  // commander spawns a process only for a subcommand that is a separate executable, which
  // qbridge has none of: it gets node:child_process on first use, not on every start-up.
  substitute(
    "node:child_process",
    "commander",
    'let loaded; module.exports = new Proxy({}, { get: (_, key) => (loaded ??= require("node:child_process"))[key] });',
  ),
  // proper-lockfile's only file operations are mkdir, stat, utimes and rmdir, which hold no
  // file descriptor: graceful-fs (a queue for opens that hit EMFILE, patching fs as it loads)
  // has nothing to do there, and loading it cost every command that takes a lock.
  substitute("graceful-fs", "proper-lockfile", 'module.exports = require("node:fs");'),
  // signal-exit (under proper-lockfile) loads node's assert, a tree of modules, for one check
  // of its argument's type.
  substitute(
    "assert",
    "signal-exit",
    "module.exports = { equal(actual, expected, message) { if (actual != expected) throw new TypeError(message); } };",
  ),
  // simple-git and grammy log through debug, which loads node's tty and net and opens
  // process.stderr as it loads, to print nothing unless DEBUG is set. Unset, they get loggers
  // that do nothing; set, the real debug, as before (DEBUG=simple-git* still shows every git
  // command, DEBUG=grammy* every Bot API call). grammy takes it as `debug.debug`.
  ...["simple-git", "@kwsites/file-exists", "grammy", "@grammyjs/auto-retry"].map((importer) =>
    substitute(
      "debug",
      importer,
      `if (process.env.DEBUG) module.exports = require("debug");
else {
  const quiet = (namespace) => Object.assign(() => {}, {
    namespace, enabled: false, log() {}, destroy() {},
    extend: (sub, delimiter = ":") => quiet(namespace + delimiter + sub),
  });
  module.exports = Object.assign(quiet, {
    debug: quiet, formatters: {}, enabled: () => false, enable() {}, disable: () => "",
  });
}`,
    ),
  ),
];

/**
 * zod 3 binds 24 of its methods to every schema object it makes, so that a method taken off a
 * schema (`const { parse } = schema`) still works: ~1.5 ms of `qbridge show`, spent building
 * the card's and the settings' schemas. The lean bundle's code never takes a method off a
 * schema, so there the methods stay on the prototype, called as methods. Not in the full CLI:
 * its MCP server hands schemas to the MCP SDK, whose use of them is not ours to decide. The
 * build stops if zod's constructor no longer reads as expected.
 */
const zodMethodsUnbound = {
  name: "zod-methods-unbound",
  setup(build) {
    build.onLoad({ filter: /[\\/]zod[\\/]v3[\\/]types\.js$/ }, (args) => {
      const text = readFileSync(args.path, "utf8");
      const binds = /^ +this\.(\w+) = this\.\1\.bind\(this\);\n/gm;
      const found = text.match(binds)?.length ?? 0;
      if (found !== 24) {
        throw new Error(`zod's ZodType constructor binds ${found} methods, not the 24 expected`);
      }
      return { contents: text.replace(binds, ""), loader: "js" };
    });
  },
};

const bundleOptions = {
  ...common,
  outdir,
  outExtension: { ".js": ".cjs" },
  format: "cjs",
  // import() of a dependency becomes require(): the launcher's script has no ES module loader.
  supported: { "dynamic-import": false },
  // A third smaller to read on every start; names are kept (errors and libraries use them).
  minifyWhitespace: true,
  minifySyntax: true,
  // The version commander prints, fixed at build time (no package.json read at start-up).
  define: {
    // Read only where a module needs its own URL, not on every start: the URL loads node:url.
    "import.meta.url": "__qbridgeModule.url",
    QBRIDGE_BUILT_VERSION: JSON.stringify(pkg.version),
  },
  // Strict, as the ES module sources were; the directive must come first to count.
  banner: {
    js: '"use strict";\nvar __qbridgeModule = { get url() { return require("node:url").pathToFileURL(__filename).href; } };',
  },
  write: false,
};
/**
 * Libraries the lean bundle loads from a file of their own (dist/NAME.cjs, bundled apart, run
 * without a code cache) on the rare paths that need them: simple-git only to finish or undo a
 * write a killed process left half done; yaml for that, and for a card the usual-front reader
 * (src/card/usual-front.ts) leaves to it, such as one edited by hand with a comment. Kept out,
 * they are text each short command would read.
 */
const OWN_FILES = ["simple-git", "yaml"];
const ownFiles = {
  name: "own-files",
  setup(build) {
    const filter = new RegExp(`^(${OWN_FILES.join("|")})$`);
    build.onResolve({ filter }, (args) => ({ path: `./${args.path}.cjs`, external: true }));
  },
};

/**
 * The code a bridge starts or checks itself with (`qbridge serve`, `qbridge doctor`), which no
 * short command runs, left out of the lean bundle: in its place a module that says so, should
 * it ever be imported there.
 */
const noBridgeRuns = {
  name: "no-bridge-runs",
  setup(build) {
    build.onResolve({ filter: /^\.\/(serve|health)\.ts$/ }, (args) =>
      /[\\/]bridges[\\/][^\\/]+[\\/]bridge\.ts$/.test(args.importer)
        ? { path: args.path, namespace: "no-bridge-runs" }
        : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: "no-bridge-runs" }, (args) => ({
      contents: `throw new Error("the lean bundle (dist/short.cjs) starts no bridge: ${args.path} is in dist/cli.cjs");`,
      loader: "js",
    }));
  },
};

// Two bundles: the full CLI, and the lean one of the short commands (src/cli/short.ts).
const outputFiles = [
  ...(
    await build({
      ...bundleOptions,
      plugins: [asciiSources, ...substitutes],
      entryPoints: { cli: "src/cli/main.ts" },
    })
  ).outputFiles,
  ...(
    await build({
      ...bundleOptions,
      plugins: [asciiSources, zodMethodsUnbound, ownFiles, noBridgeRuns, ...substitutes],
      entryPoints: { short: "src/cli/short.ts" },
      define: { ...bundleOptions.define, QBRIDGE_LEAN_BUNDLE: '"short"' },
    })
  ).outputFiles,
  // `ask` commits, so git's library is on its every run, and so is yaml's writer: the same
  // entry with both inside, read back from its code cache, not compiled from their own files.
  ...(
    await build({
      ...bundleOptions,
      plugins: [asciiSources, zodMethodsUnbound, noBridgeRuns, ...substitutes],
      entryPoints: { ask: "src/cli/short.ts" },
      define: { ...bundleOptions.define, QBRIDGE_LEAN_BUNDLE: '"ask"' },
    })
  ).outputFiles,
];
await build({
  ...common,
  plugins: substitutes,
  entryPoints: Object.fromEntries(OWN_FILES.map((name) => [name, requireHere.resolve(name)])),
  outdir,
  outExtension: { ".js": ".cjs" },
  format: "cjs",
  minifyWhitespace: true,
  minifySyntax: true,
});
// Each bundle's first line names its build: the launcher keys the user's code cache by it. The
// second opens the function node wraps a CommonJS module in, written here so the launcher
// compiles the file as read: wrapping it at run time made V8 copy the whole text once more
// into its young generation, a collection's worth of copying on every start. The source map
// gains two empty lines to match.
mkdirSync(outdir, { recursive: true });
for (const bundle of outputFiles.filter((file) => file.path.endsWith(".cjs"))) {
  const name = bundle.path.slice(outdir.length + 1);
  const beyondAscii = /[^\0-\x7f]/.exec(bundle.text);
  if (beyondAscii) {
    const before = bundle.text.slice(Math.max(0, beyondAscii.index - 60), beyondAscii.index);
    throw new Error(
      `dist/${name} must be ASCII (the launcher reads it as latin1), but has "${beyondAscii[0]}" after: ${before}`,
    );
  }
  const buildId = createHash("sha256").update(bundle.contents).digest("hex").slice(0, 16);
  const code = bundle.text;
  const mapComment = code.lastIndexOf("//# sourceMappingURL=");
  writeFileSync(
    bundle.path,
    `${BUILD_ID_PREFIX}${buildId}\n${MODULE_WRAPPER[0]}\n${code.slice(0, mapComment)}${MODULE_WRAPPER[1]}\n${code.slice(mapComment)}`,
  );
  const mapFile = outputFiles.find((file) => file.path === `${bundle.path}.map`);
  const map = JSON.parse(mapFile.text);
  writeFileSync(mapFile.path, JSON.stringify({ ...map, mappings: `;;${map.mappings}` }));
}
for (const file of outputFiles.filter((f) => !/\.cjs(\.map)?$/.test(f.path)))
  writeFileSync(file.path, file.contents);

await build({
  ...common,
  entryPoints: { qbridge: "src/cli/launch.ts" },
  outdir,
  outExtension: { ".js": ".cjs" },
  format: "cjs",
  // `qbridge --version`, answered by the launcher without loading a bundle.
  define: { QBRIDGE_BUILT_VERSION: JSON.stringify(pkg.version) },
});

recordCodeCache();

// The library entries: ES modules, as a consumer imports them.
await build({
  ...common,
  entryPoints: library,
  outdir,
  outExtension: { ".js": ".mjs" },
  format: "esm",
});

declarations();

/** Runs the commands agents run most, in a box of its own, each recording into one code cache
 * beside the bundle every function it and the runs before it compiled (launch.ts names the
 * file for the node and V8 flags it serves). */
function recordCodeCache() {
  const work = mkdtempSync(join(tmpdir(), "qbridge-build-"));
  const launcher = join(outdir, "qbridge.cjs");
  const card = JSON.stringify({
    id: "build-warm-up",
    prompt: "Keep the build's warm-up box?",
    memo: "The build runs a few commands to record a code cache.",
    input: { type: "confirm" },
    directive: "Nothing: the box is deleted.",
  });
  const box = ["--box", join(work, "box")];
  const runs = [
    ["--version"],
    ["init", ...box],
    ["ask", "--json", ...box],
    ["list", "--json", ...box],
    ["show", "build-warm-up", "--json", ...box],
    ["answer", "build-warm-up", "yes", ...box],
    ["wait", "build-warm-up", "--json", ...box],
    ["show", "build-warm-up", ...box],
  ];
  const record = `require(${JSON.stringify(launcher)}).launch({ args: JSON.parse(process.argv[1]), record: true })`;
  try {
    for (const args of runs)
      execFileSync(process.execPath, ["-e", record, JSON.stringify(args)], {
        cwd: work,
        input: args[0] === "ask" ? card : "",
        stdio: ["pipe", "ignore", "inherit"],
        // The warm-up's own settings only, never a developer's box or bot; the dependencies
        // from this clone, for a build into a folder of its own (the package test's).
        env: {
          ...Object.fromEntries(
            Object.entries(process.env).filter(([key]) => !/^(QBRIDGE|TELEGRAM)_/.test(key)),
          ),
          NODE_PATH: join(root, "node_modules"),
        },
      });
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** Type declarations for the library entries (tsconfig.declarations.json lists them), with
 * their imports as a consumer resolves them. */
function declarations() {
  const types = join(outdir, "types");
  const tsc = join(root, "node_modules", "typescript", "bin", "tsc");
  const config = join(root, "tsconfig.declarations.json");
  execFileSync(process.execPath, [tsc, "-p", config, "--outDir", types], { stdio: "inherit" });
  // The sources import each other as `./x.ts`; the declarations sit next to each other as
  // `x.d.ts`, which a consumer's TypeScript finds from `./x.js`.
  const rewrite = (folder) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) rewrite(path);
      else if (entry.name.endsWith(".d.ts")) {
        const text = readFileSync(path, "utf8");
        writeFileSync(
          path,
          text.replace(/((?:from\s+|import\()["']\.{1,2}\/[^"']*)\.ts(["'])/g, "$1.js$2"),
        );
      }
    }
  };
  rewrite(types);
}
