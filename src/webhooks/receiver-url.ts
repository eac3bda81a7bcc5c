// A receiver's URL as delivery uses it: credentials moved into a header, the origin the log
// names, and a failure described without them. Nothing here sends anything.

/**
 * `https://user:pass@host/...` is how a receiver asks for Basic auth: the request goes to the
 * address without them, and they go in the Authorization header (never in an error's words).
 */
export function withoutCredentials(url: string): { address: string; authorization?: string } {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { address: url };
  }
  if (!parsed.username && !parsed.password) return { address: url };
  const user = decodeURIComponent(parsed.username);
  const password = decodeURIComponent(parsed.password);
  parsed.username = "";
  parsed.password = "";
  const basic = Buffer.from(`${user}:${password}`).toString("base64");
  return { address: parsed.href, authorization: `Basic ${basic}` };
}

/**
 * A receiver as the log names it: its origin. A webhook URL's path or query is often the
 * receiver's secret (a capability URL), and the JSON log travels further than the ledger.
 */
export function receiverOf(url: string): string {
  try {
    const origin = new URL(url).origin;
    return origin === "null" ? "a URL without an origin" : origin;
  } catch {
    return "an unreadable URL";
  }
}

/** Why a try failed, in words for the ledger and the log, without credentials. */
export function describeFailure(error: unknown, timeoutMs: number): string {
  const name = (error as Error).name;
  if (name === "TimeoutError" || name === "AbortError") {
    return `no answer within ${timeoutMs / 1000} s`;
  }
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  const code = (error as { code?: unknown }).code;
  const text =
    cause?.code ??
    cause?.message ??
    (typeof code === "string" ? code : undefined) ??
    (error as Error).message ??
    String(error);
  // An error may quote the URL; its user and password never reach the ledger or the log.
  return text.replace(/\/\/[^/\s@]*@/g, "//");
}
