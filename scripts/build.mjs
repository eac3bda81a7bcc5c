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
await build({
  absWorkingDir: root,
  entryPoints: { qbridge: "src/cli/main.ts", ...library },
  outdir,
  // Commands load what they need on demand, as separate chunks.
  splitting: true,
  outExtension: { ".js": ".mjs" },
  chunkNames: "chunks/[name]-[hash]",
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  // Everything in `dependencies` stays external; the bundled libraries are devDependencies.
  external: Object.keys(pkg.dependencies ?? {}).flatMap((name) => [name, `${name}/*`]),
  // Bundled CommonJS calls require() for node's own modules; give the ES module one.
  banner: {
    js: 'import { createRequire as __qbridgeRequire } from "node:module"; const require = __qbridgeRequire(import.meta.url);',
  },
  sourcemap: "linked",
  legalComments: "linked",
  logLevel: "warning",
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
