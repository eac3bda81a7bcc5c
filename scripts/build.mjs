// Compiles the package into dist/ (or the folder given as the first argument): the CLI as one
// CommonJS file (dist/cli.cjs, run by bin/qbridge.cjs), the library entries as ES modules, and
// type declarations for the library entries. Runs on `npm ci` (prepare), before `npm test`, and
// in the package test (into its own folder).
// Never needed at run time: the published package carries only the output, and nothing in it
// needs TypeScript tooling. Libraries are bundled as they are published: the build never swaps
// a module inside one.
//
// Everything in `dependencies` stays external and is installed with the package (native,
// worker-spawning and service-only packages); the devDependencies the CLI imports (commander,
// yaml, simple-git, proper-lockfile, grammy) are bundled in.
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const outdir = resolve(process.argv[2] ?? join(root, "dist"));
const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));

/** Library entries: export name -> source (package.json `exports`, tsconfig.declarations.json). */
const library = { client: "src/client/index.ts" };

rmSync(outdir, { recursive: true, force: true });
const external = Object.keys(pkg.dependencies ?? {}).flatMap((name) => [name, `${name}/*`]);
const common = {
  absWorkingDir: root,
  bundle: true,
  platform: "node",
  target: "node20",
  external,
  outdir,
  sourcemap: "linked",
  legalComments: "linked",
  logLevel: "warning",
};

// The CLI: one CommonJS file, its whitespace and syntax minified. Every function and class
// keeps its own name (keepNames), where bundling renames it to avoid a clash: libraries read
// names (node-fetch takes a signal for an AbortSignal by its constructor's name, and grammy's
// is renamed beside the global one). The sources are ES modules; a module's own URL
// (import.meta.url) is the bundle's, as node gives a CommonJS file its name.
await build({
  ...common,
  entryPoints: { cli: "src/cli/main.ts" },
  outExtension: { ".js": ".cjs" },
  format: "cjs",
  minifyWhitespace: true,
  minifySyntax: true,
  keepNames: true,
  define: { "import.meta.url": "__bundleUrl" },
  banner: { js: 'const __bundleUrl = require("node:url").pathToFileURL(__filename).href;' },
});

// The library entries: ES modules, as a consumer imports them.
await build({
  ...common,
  entryPoints: library,
  outExtension: { ".js": ".mjs" },
  format: "esm",
});

declarations();

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
