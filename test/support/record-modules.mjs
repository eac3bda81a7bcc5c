// Preloaded with `node --import` by the start-up test: records every module a process
// resolves, one URL a line, in the file named by QBRIDGE_TEST_MODULE_LOG (a test seam that
// lives in the test tree only; the product never reads that variable).
import { register } from "node:module";

register(
  `data:text/javascript,${encodeURIComponent(`
import { appendFileSync } from "node:fs";
const log = ${JSON.stringify(process.env.QBRIDGE_TEST_MODULE_LOG ?? "")};
export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  if (log) appendFileSync(log, result.url + "\\n");
  return result;
}`)}`,
);
