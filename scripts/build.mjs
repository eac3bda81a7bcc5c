// Compiles the package into dist/ (or the folder given as the first argument): the CLI as ES
// modules split at each command (dist/cli.mjs and its chunks, run by bin/qbridge.cjs), the
// library entries as ES modules, type declarations for the library entries, and the licences of
// every third-party package bundled into any of them (dist/THIRD-PARTY-LICENSES.md,
// scripts/licences.mjs). Runs on `npm ci` (prepare), before `npm test`, and in the package test
// (into its own folder).
// Never needed at run time: the published package carries only the output, and nothing in it
// needs TypeScript tooling. Libraries are bundled as they are published: the build never swaps
// a module inside one.
//
// Everything in `dependencies` stays external and is installed with the package (native,
// worker-spawning, service-only packages, and those whose own dependencies must load from
// node_modules); the devDependencies the CLI imports (commander, yaml, simple-git,
// proper-lockfile) are bundled in, and their licences with them.
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { licencesOf } from "./licences.mjs";

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
  format: "esm",
  outExtension: { ".js": ".mjs" },
  external,
  outdir,
  sourcemap: "linked",
  legalComments: "linked",
  metafile: true,
  logLevel: "warning",
};

// The CLI: ES modules, split where the command table (src/cli/commands.ts) imports each
// command's module, so a command loads its own code and what it shares with others, nothing
// else. Chunks sit beside cli.mjs, so a module's own URL (import.meta.url) is one folder below
// the package wherever it lands. Whitespace and syntax minified; every function and class keeps
// its own name (keepNames), where bundling renames it to avoid a clash: libraries read names.
// Bundled CommonJS packages call `require` for node's own modules, which an ES module has
// not: each output file makes one for them (node:module's createRequire).
const cli = await build({
  ...common,
  entryPoints: { cli: "src/cli/main.ts" },
  splitting: true,
  chunkNames: "[name]-[hash]",
  minifyWhitespace: true,
  minifySyntax: true,
  keepNames: true,
  banner: {
    js: 'import { createRequire as __createRequire } from "node:module"; const require = __createRequire(import.meta.url);',
  },
});

// The library entries: ES modules, as a consumer imports them.
const lib = await build({ ...common, entryPoints: library });

writeFileSync(
  join(outdir, "THIRD-PARTY-LICENSES.md"),
  licencesOf([cli.metafile, lib.metafile], root),
);
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
