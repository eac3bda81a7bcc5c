// Credentials in a callback URL: what asking refuses (they would be committed in the card), and
// how a URL is shown wherever it is shown (the CLI's JSON, the API, doctor) so that the ones a
// card already holds are not: a user and password become `***`, and so does a query value
// whose name says it is a credential or that looks like one (long, letters and digits). The URL
// that is sent is never masked: only what is shown.

const CREDENTIAL_NAME =
  /^(.*[-_])?(token|secret|passw(or)?d|pwd|pass|api[-_]?key|apikey|access[-_]?key|key|auth|authorization|credentials?|sig|signature)$/i;

/** A value that looks like a key: 16 or more URL-safe characters with letters and digits. */
function looksSecret(value: string): boolean {
  return (
    value.length >= 16 && /^[\w.~+/=%-]+$/.test(value) && /\d/.test(value) && /[a-z]/i.test(value)
  );
}

function parsed(url: string): URL | undefined {
  try {
    return new URL(url);
  } catch {
    return undefined;
  }
}

/** The query's parameter names that say they are credentials. */
function credentialNames(url: URL): string[] {
  return [...new Set([...url.searchParams.keys()].filter((name) => CREDENTIAL_NAME.test(name)))];
}

/**
 * What credentials a callback URL carries, in words without their values, or undefined: a user
 * or password, or a query parameter named as a credential.
 */
export function callbackCredentials(url: string): string | undefined {
  const target = parsed(url);
  if (target === undefined) return undefined;
  if (target.username || target.password) return "a user and password";
  const names = credentialNames(target);
  return names.length > 0 ? `a credential (${names.join(", ")})` : undefined;
}

/** Why asking refuses a callback with credentials, and what to do instead. */
export function credentialsRefusal(what: string): string {
  return `the callback is refused: it carries ${what}; a callback is committed in the card, so it may hold no secret. Leave it out of the URL: every delivery is signed (X-Qbridge-Signature, an HMAC keyed with QBRIDGE_WEBHOOK_SECRET) for the receiver to verify, and a receiver that needs credentials of its own can be the box-wide QBRIDGE_WEBHOOK_URL, set where qbridge serve runs and never committed`;
}

/** `url` as it may be shown: its user and password and its secret-looking query values `***`. */
export function maskUrl(url: string): string {
  const target = parsed(url);
  if (target === undefined) return url;
  const userinfo = target.username || target.password ? "***@" : "";
  const query = target.search
    .slice(1)
    .split("&")
    .map((pair) => {
      const equals = pair.indexOf("=");
      if (equals < 0) return pair;
      const name = decodeURIComponent(pair.slice(0, equals).replace(/\+/g, " "));
      const value = pair.slice(equals + 1);
      return CREDENTIAL_NAME.test(name) || looksSecret(value)
        ? `${pair.slice(0, equals)}=***`
        : pair;
    })
    .join("&");
  const search = target.search ? `?${query}` : "";
  return `${target.protocol}//${userinfo}${target.host}${target.pathname}${search}${target.hash}`;
}

/** A JSON.stringify replacer that shows every `callback` string, at any depth, masked. */
export function maskingCallbacks(key: string, value: unknown): unknown {
  return key === "callback" && typeof value === "string" ? maskUrl(value) : value;
}
