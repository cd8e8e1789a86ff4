/**
 * Secrets out of messages: every error or notice that names an endpoint or
 * echoes what it answered goes through {@link redact} (text) or
 * {@link redactUrl} (a URL), so a key in a base URL, a query string or an
 * echoed `Authorization` header never reaches a terminal or a log.
 * Browser-safe (WHATWG `URL` only).
 */

/** What a redacted value is replaced by. */
export const REDACTED = "***";

// `Bearer <token>` (RFC 6750 §2.1 b64token characters), OpenAI-style `sk-…` keys,
// and `user:password@` in any URL-looking text.
const BEARER_RE = /\b(Bearer|Basic)\s+[A-Za-z0-9\-._~+/]+=*/gi;
const SK_RE = /\bsk-[A-Za-z0-9_\-]{6,}/g;
// (a scheme is at most 64 characters here: unbounded, every letter of a long run of scheme
// characters started a scan to the run's end, quadratic in an upstream error body)
const USERINFO_RE = /\b([a-z][a-z0-9+.\-]{0,63}:\/\/)[^\s/?#@]*@/gi;
// key=value pairs whose name says they hold a secret (query strings, form bodies, JSON echoes).
const SECRET_NAME = "(?:api[_-]?key|access[_-]?token|token|key|secret|password|auth)";
const SECRET_PARAM_RE = new RegExp(`\\b(${SECRET_NAME}=)[^\\s&"',}]+`, "gi");
const SECRET_JSON_RE = new RegExp(`("${SECRET_NAME}"\\s*:\\s*")[^"]*`, "gi");

/**
 * A URL fit to print: credentials dropped and every query value replaced by
 * `***` (the names kept, so a reader still sees which parameters were sent);
 * path and host as given. A string that is not a URL is passed through
 * {@link redact}.
 *
 * @param url an absolute URL (string or `URL`)
 * @returns e.g. `http://127.0.0.1:8080/v1/chat/completions?key=***`
 */
export function redactUrl(url: string | URL): string {
  let u: URL;
  try {
    u = new URL(String(url));
  } catch {
    return redact(String(url));
  }
  u.username = "";
  u.password = "";
  for (const name of new Set(u.searchParams.keys())) u.searchParams.set(name, REDACTED);
  // Some URL implementations percent-encode "*" in a query; keep the mark readable.
  return u.toString().replaceAll("%2A%2A%2A", REDACTED);
}

/**
 * Text fit to print: `Bearer`/`Basic` credentials, `sk-…` keys, `user:pass@`
 * in URLs, `key=`/`token=`-style values, and each of `secrets` (exact, when at
 * least 4 characters) replaced by `***`.
 *
 * @param text any message, e.g. the start of an error body an endpoint sent
 * @param secrets values known to be secret (the API key in use)
 */
export function redact(text: string, secrets: readonly (string | undefined)[] = []): string {
  let out = text;
  for (const s of secrets) if (s && s.length >= 4) out = out.split(s).join(REDACTED);
  return out
    .replace(USERINFO_RE, `$1${REDACTED}@`)
    .replace(BEARER_RE, `$1 ${REDACTED}`)
    .replace(SK_RE, `sk-${REDACTED}`)
    .replace(SECRET_PARAM_RE, `$1${REDACTED}`)
    .replace(SECRET_JSON_RE, `$1${REDACTED}`);
}
