// Bundles the CLI into dist/qbridge.mjs so that start-up does not pay for compiling
// TypeScript. Runs on `npm ci` (prepare). Dependencies stay external, loaded from node_modules.
import { build } from "esbuild";

await build({
  entryPoints: ["src/cli/main.ts"],
  outfile: "dist/qbridge.mjs",
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  packages: "external",
  sourcemap: "linked",
  logLevel: "warning",
});
