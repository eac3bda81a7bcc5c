// Preloaded with `node --import` by the start-up test: records every module a process
// resolves, one URL or path a line, in the file named by QBRIDGE_TEST_MODULE_LOG (a test seam
// that lives in the test tree only; the product never reads that variable). ES modules are
// seen through a resolve hook; CommonJS ones (a native module loaded with require) through
// the CommonJS resolver. node's own modules are written at exit as `node:NAME`, each one the
// process loaded after this preload ran.
import { appendFileSync } from "node:fs";
import Module, { register } from "node:module";

const log = process.env.QBRIDGE_TEST_MODULE_LOG ?? "";

register(
  `data:text/javascript,${encodeURIComponent(`
import { appendFileSync } from "node:fs";
const log = ${JSON.stringify(log)};
export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  if (log) appendFileSync(log, result.url + "\\n");
  return result;
}`)}`,
);

const resolveFilename = Module._resolveFilename;
Module._resolveFilename = function recorded(...args) {
  const path = resolveFilename.apply(this, args);
  if (log) appendFileSync(log, `${path}\n`);
  return path;
};

const builtinsBefore = new Set(process.moduleLoadList);
process.on("exit", () => {
  if (!log) return;
  const loaded = process.moduleLoadList.filter(
    (entry) => entry.startsWith("NativeModule ") && !builtinsBefore.has(entry),
  );
  appendFileSync(
    log,
    loaded.map((entry) => `node:${entry.slice("NativeModule ".length)}\n`).join(""),
  );
});
