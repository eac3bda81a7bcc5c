// What the receiving server said of a reply's sender: the Authentication-Results header it
// added (RFC 8601). A reply whose sender's domain failed (dmarc=fail, or spf=fail with no
// method passing) is refused. Only the topmost header is read: the receiving server prepends
// its own, and any below it came with the message, written by whoever sent it.

/** The results of one Authentication-Results header: method -> result (spf -> pass). */
export function resultsOf(header: string): Map<string, string> {
  const results = new Map<string, string>();
  // "authserv-id; method=result (comment) prop=value; method=result ...": drop comments first.
  const text = header.replace(/\([^()]*\)/g, " ");
  for (const part of text.split(";").slice(1)) {
    const match = /^\s*([a-z0-9-]+)\s*=\s*([a-z]+)/i.exec(part);
    if (match) {
      const method = (match[1] as string).toLowerCase();
      // A method may appear more than once (two DKIM signatures): one pass is enough.
      if (results.get(method) !== "pass") results.set(method, (match[2] as string).toLowerCase());
    }
  }
  return results;
}

/**
 * Why the sender's domain failed authentication at the receiving server, or undefined when it
 * did not fail (or the server checked nothing: a mailbox on the same host as the sender).
 */
export function authenticationFailure(headers: readonly string[]): string | undefined {
  const top = headers[0];
  if (top === undefined) return undefined;
  const results = resultsOf(top);
  if (results.get("dmarc") === "fail") return "dmarc=fail";
  const passed = [...results.values()].includes("pass");
  if (results.get("spf") === "fail" && !passed) return "spf=fail";
  return undefined;
}
