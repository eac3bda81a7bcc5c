// Bundles the CLI into dist/qbridge.mjs so that start-up does not pay for compiling
// TypeScript. Runs on `npm ci` (prepare). Dependencies stay external, loaded from node_modules.
import { build } from "esbuild";

await build({
  entryPoints: { qbridge: "src/cli/main.ts" },
  outdir: "dist",
  // Commands load the bot, the web server and the logger on demand, as separate chunks.
  splitting: true,
  outExtension: { ".js": ".mjs" },
  chunkNames: "chunks/[name]-[hash]",
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  packages: "external",
  sourcemap: "linked",
  logLevel: "warning",
});
