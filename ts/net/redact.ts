/**
 * Secrets out of messages: every error or notice that names an endpoint or
 * echoes what it answered goes through {@link redact} (text) or
 * {@link redactUrl} (a URL), so a key in a base URL, a query string or an
 * echoed `Authorization` header never reaches a terminal or a log.
 * Browser-safe (WHATWG `URL` only).
 */

import { cutText } from "../errors.js";

/** What a redacted value is replaced by. */
export const REDACTED = "***";

// `Bearer <token>` (RFC 6750 §2.1 b64token characters), OpenAI-style `sk-…` keys,
// and `user:password@` in any URL-looking text. Each is linear in the text: a scheme is at
// most 32 characters, so a long run of `a.a.a…` is not re-scanned from every letter.
const BEARER_RE = /\b(Bearer|Basic)\s+[A-Za-z0-9\-._~+/]+=*/gi;
const SK_RE = /\bsk-[A-Za-z0-9_\-]{6,}/g;
// (a scheme is at most 64 characters here: unbounded, every letter of a long run of scheme
// characters started a scan to the run's end, quadratic in an upstream error body)
const USERINFO_RE = /\b([a-z][a-z0-9+.\-]{0,63}:\/\/)[^\s/?#@]*@/gi;
// key=value pairs whose name says they hold a secret (query strings, form bodies, JSON echoes).
const SECRET_NAME = "(?:api[_-]?key|access[_-]?token|token|key|secret|password|auth)";
const SECRET_PARAM_RE = new RegExp(`\\b(${SECRET_NAME}=)[^\\s&"',}]+`, "gi");
const SECRET_JSON_RE = new RegExp(`("${SECRET_NAME}"\\s*:\\s*")[^"]*`, "gi");
// A run of characters a URL printed in text may hold (up to white space, a quote or <>).
const URL_TOKEN_RE = /[^\s"'<>]+/g;

/** Shortest derived spelling (a piece of a base64 text) that is redacted: shorter ones would hit ordinary words. */
const MIN_DERIVED = 6;
/** Shortest start of a secret's spelling redacted where a text ends (a text cut in the middle of a key). */
const MIN_TAIL = 4;

/**
 * A URL fit to print: credentials dropped, every query value replaced by `***` (the names
 * kept, so a reader still sees which parameters were sent) and the fragment replaced by `***`
 * (`#access_token=…` is how OAuth's implicit flow hands a token over); path and host as
 * given. A string that is not a URL is passed through {@link redact}.
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
  if (u.hash) u.hash = REDACTED;
  // Some URL implementations percent-encode "*" in a query; keep the mark readable.
  return u.toString().replaceAll("%2A%2A%2A", REDACTED);
}

function base64(bytes: Uint8Array): string {
  let binary = "";
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary);
}

const base64url = (b64: string) => b64.replaceAll("+", "-").replaceAll("/", "_").replace(/={1,2}$/, "");

/**
 * The spellings under which a secret may come back in a message, longest first:
 * - as given; percent-encoded (`encodeURIComponent`, upper- and lower-case hex) and
 *   form-encoded (`URLSearchParams`: a space as `+`); JSON-escaped (`JSON.stringify`
 *   without its quotes);
 * - base64 and base64url of its UTF-8 bytes, whole (with and without `=` padding), and,
 *   for the three alignments its bytes can have inside a longer base64 text (offset 0, 1 or
 *   2 modulo 3: `Basic base64(user:key)`, a JSON config echoed in base64), the run of base64
 *   characters that depends on its bytes alone. Any base64 text of bytes that hold the
 *   secret holds one of these runs, whatever comes before or after it.
 */
export function secretSpellings(secret: string): string[] {
  const forms = new Set<string>([secret]);
  const uri = encodeURIComponent(secret);
  forms.add(uri);
  forms.add(uri.replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase()));
  forms.add(new URLSearchParams({ s: secret }).toString().slice(2));
  forms.add(JSON.stringify(secret).slice(1, -1));
  const bytes = new TextEncoder().encode(secret);
  const whole = base64(bytes);
  forms.add(whole);
  forms.add(whole.replace(/={1,2}$/, ""));
  forms.add(base64url(whole));
  for (let k = 0; k < 3; k++) {
    const shifted = new Uint8Array(k + bytes.length);
    shifted.set(bytes, k);
    // base64 character i holds bits 6i..6i+5; the secret's bits are 8k..8(k+n)-1
    const core = base64(shifted).slice(Math.ceil((8 * k) / 6), Math.floor((8 * (k + bytes.length)) / 6));
    if (core.length >= MIN_DERIVED) {
      forms.add(core);
      forms.add(base64url(core));
    }
  }
  return [...forms].sort((a, b) => b.length - a.length);
}

/** `text` with the fragment of every URL in it replaced by `***`: `https://h/cb#access_token=…` → `https://h/cb#***`. */
function redactFragments(text: string): string {
  if (!text.includes("#")) return text;
  return text.replace(URL_TOKEN_RE, (token) => {
    const scheme = token.indexOf("://");
    if (scheme < 1) return token;
    const hash = token.indexOf("#", scheme + 3);
    return hash < 0 ? token : `${token.slice(0, hash)}#${REDACTED}`;
  });
}

/**
 * Text fit to print: `Bearer`/`Basic` credentials, `sk-…` keys, `user:pass@` and
 * `#fragments` in URLs, `key=`/`token=`-style values, and each of `secrets` (at least 4
 * characters) under every spelling {@link secretSpellings} lists, replaced by `***`; a text
 * that ends in the first characters (4 or more) of a secret's spelling, as a text cut in the
 * middle of a key does, has them replaced too. Redact a whole text before cutting it
 * ({@link redactAndCut}): a key across the cut would keep its first half.
 *
 * @param text any message, e.g. an error body an endpoint sent
 * @param secrets values known to be secret (the API key in use)
 */
export function redact(text: string, secrets: readonly (string | undefined)[] = []): string {
  let out = text;
  const spellings = secrets.filter((s): s is string => typeof s === "string" && s.length >= 4).flatMap(secretSpellings).sort((a, b) => b.length - a.length);
  for (const s of spellings) out = out.split(s).join(REDACTED);
  out = redactTail(out, spellings);
  return redactFragments(out)
    .replace(USERINFO_RE, `$1${REDACTED}@`)
    .replace(BEARER_RE, `$1 ${REDACTED}`)
    .replace(SK_RE, `sk-${REDACTED}`)
    .replace(SECRET_PARAM_RE, `$1${REDACTED}`)
    .replace(SECRET_JSON_RE, `$1${REDACTED}`);
}

/** `text` without a secret's spelling cut short at its end (the longest such start, at least {@link MIN_TAIL} characters). */
function redactTail(text: string, spellings: readonly string[]): string {
  let cut = 0;
  for (const s of spellings) {
    for (let n = Math.min(s.length - 1, text.length); n > cut && n >= MIN_TAIL; n--) {
      if (text.endsWith(s.slice(0, n))) {
        cut = n;
        break;
      }
    }
  }
  return cut ? `${text.slice(0, text.length - cut)}${REDACTED}` : text;
}

/**
 * A text quoted in a message: redacted whole ({@link redact}), white space collapsed, then
 * cut to `max` characters (an ellipsis marks the cut). In this order a secret across the cut
 * is gone before the cut is made, not half printed.
 */
export function redactAndCut(text: string, secrets: readonly (string | undefined)[] = [], max = 200): string {
  const said = redact(redact(text, secrets).replace(/\s+/g, " ").trim(), secrets);
  return said.length > max ? `${cutText(said, max)}…` : said;
}
