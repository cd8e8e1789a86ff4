/**
 * The one way groundwire POSTs to a remote service (a model endpoint, a
 * SPARQL endpoint, a retrieval worker): `ky` over the platform's fetch, so it
 * runs in Node and browsers. Every call has
 *  - bounded attempts, retrying only the statuses a model server or a reverse
 *    proxy answers while briefly down or busy (HTTP 429, 500, 502, 503, 504,
 *    {@link RETRIED_STATUSES}), after the server's
 *    `Retry-After` (seconds or an HTTP date, RFC 9110 §10.2.3) when it sends
 *    one, else after an exponential backoff; a `Retry-After` longer than the
 *    caller allows fails at once, naming the wait asked for;
 *  - a per-attempt timeout, reported as a timeout (not as "unreachable");
 *  - no redirect following: a POST carries the prompt or the query, and a 3xx
 *    to another host would hand it over silently (the error names the target);
 *  - a cap on the response body read, in bytes;
 *  - errors that name the peer, its URL (redacted: no credentials, no query
 *    values) and the cause (`ECONNREFUSED`, `ENOTFOUND`, …).
 */
import type { HTTPError as KyHTTPError } from "ky";
import { redact, redactAndCut, redactUrl } from "./redact.js";
import { GroundwireError, ArgumentError } from "../errors.js";
import { quoteValue } from "../quote-value.js";

type Ky = typeof import("ky");
let kyModule: Promise<Ky> | null = null;
/**
 * ky, loaded on the first request: importing it touches `globalThis.Request`,
 * which in Node loads undici (and compiles its WASM parser), a cost no program
 * that never talks HTTP should pay at import.
 */
function loadKy(): Promise<Ky> {
  kyModule ??= import("ky");
  return kyModule;
}

/** What went wrong talking to an endpoint. */
export type EndpointFailure = "unreachable" | "timeout" | "status" | "redirect" | "too-large" | "encoding";

/** The HTTP statuses retried (honouring `Retry-After`): busy (429), and a server or the proxy before it briefly down (500, 502, 503, 504). */
export const RETRIED_STATUSES: readonly number[] = [429, 500, 502, 503, 504];

/** Default number of attempts per request (the first one and two retries). */
export const DEFAULT_ATTEMPTS = 3;
/** Default longest `Retry-After` honoured, in milliseconds. */
export const DEFAULT_MAX_RETRY_AFTER_MS = 60_000;
/** Default cap on a response body, in bytes (16 MiB). */
export const DEFAULT_MAX_RESPONSE_BYTES = 16 * 1024 * 1024;
/** Bytes of an error response read to quote the server's message. */
const ERROR_BODY_BYTES = 64 * 1024;
/** Characters of the server's message quoted in an error. */
const QUOTED_CHARS = 200;

/** A request to an endpoint failed; the message names the peer, its redacted URL and the cause. */
export class EndpointError extends GroundwireError {
  constructor(
    message: string,
    /** What failed: no connection, a timeout, an HTTP status, a redirect, an oversized or undecodable body. */
    readonly failure: EndpointFailure,
    /** The endpoint's URL, redacted. */
    readonly url: string,
    /** The endpoint's last HTTP status, when there was a response (`status` is the one groundwire answers with: 504 for a timeout, else 502). */
    readonly upstreamStatus?: number,
    options?: { cause?: unknown },
  ) {
    super(message, { ...upstreamFault(failure), cause: options?.cause });
    this.name = "EndpointError";
  }
}

/** What groundwire answers when a peer failed: 504 `timeout` when it was too slow, else 502 `upstream`. */
export function upstreamFault(failure: string | undefined): { code: "timeout" | "upstream"; status: 502 | 504 } {
  return failure === "timeout" ? { code: "timeout", status: 504 } : { code: "upstream", status: 502 };
}

/** Settings of {@link postToEndpoint}. */
export interface EndpointRequest {
  /** How messages name the peer, e.g. `"the model endpoint"`. */
  what: string;
  /** The full URL posted to. */
  url: URL | string;
  body: string;
  /** The method (default POST; PUT for the Graph Store Protocol, an idempotent replace). */
  method?: "post" | "put";
  headers?: Record<string, string>;
  /** Per-attempt timeout in milliseconds (covers the wait for the answer and the reading of its body). */
  timeoutMs: number;
  /** Attempts in all, at least 1 (default {@link DEFAULT_ATTEMPTS}). */
  attempts?: number;
  /** Longest `Retry-After` honoured, ms (default {@link DEFAULT_MAX_RETRY_AFTER_MS}). */
  maxRetryAfterMs?: number;
  /** First backoff when the server sends no `Retry-After`, ms (default 500; doubles per retry, at most 10 s). */
  retryDelayMs?: number;
  /** Cap on the response body, bytes (default {@link DEFAULT_MAX_RESPONSE_BYTES}). */
  maxResponseBytes?: number;
  /** The fetch to use (default the global one). */
  fetch?: typeof fetch;
  /** Values to redact from every message (the API key in use). */
  secrets?: readonly (string | undefined)[];
}

/** A 2xx answer: its status, its body decoded as UTF-8, and the attempts it took. */
export interface EndpointReply {
  status: number;
  text: string;
  attempts: number;
}

/**
 * POST `body` to `url` and read the 2xx answer as text (see the module
 * comment for retries, redirects, timeouts and caps).
 *
 * @throws EndpointError when there is no connection (`unreachable`, with the
 *   system's code), an attempt times out (`timeout`), the last answer is not
 *   2xx (`status`, quoting the server's own message, redacted, ≤200 chars),
 *   the answer is a redirect (`redirect`, naming its target), the body is over
 *   the cap (`too-large`) or not UTF-8 (`encoding`)
 * @throws RangeError when `attempts` or `timeoutMs` is not a positive integer
 */
export async function postToEndpoint(request: EndpointRequest): Promise<EndpointReply> {
  const attempts = request.attempts ?? DEFAULT_ATTEMPTS;
  if (!Number.isInteger(attempts) || attempts < 1) throw new RangeError(`attempts must be a positive integer, got ${attempts}`);
  if (!Number.isInteger(request.timeoutMs) || request.timeoutMs < 1) throw new RangeError(`timeoutMs must be a positive integer, got ${request.timeoutMs}`);
  const maxRetryAfter = request.maxRetryAfterMs ?? DEFAULT_MAX_RETRY_AFTER_MS;
  const firstDelay = request.retryDelayMs ?? 500;
  const shown = redactUrl(request.url);
  const name = `${request.what} ${shown}`;

  // Credentials in the URL: fetch refuses them, and they must never be printed. Sent as Basic auth
  // (RFC 9110 §11.6) unless the caller already authenticates.
  const target = new URL(String(request.url));
  const headers: Record<string, string> = { ...request.headers };
  const secrets = [...(request.secrets ?? [])];
  // a secret given as a whole header value (`Bearer <token>`, `Basic <base64>`): its credential
  // alone is secret too (an error body that echoes the bare token must not show it), and a Basic
  // credential's user:password once decoded
  for (const value of request.secrets ?? []) {
    const scheme = /^\s*(Bearer|Basic|Token|Digest|ApiKey)\s+(\S+)\s*$/i.exec(value ?? "");
    if (!scheme) continue;
    secrets.push(scheme[2]);
    if (scheme[1]!.toLowerCase() !== "basic") continue;
    try {
      const pair = new TextDecoder("utf-8", { fatal: true }).decode(Uint8Array.from(atob(scheme[2]!), (c) => c.charCodeAt(0)));
      const colon = pair.indexOf(":");
      secrets.push(pair, ...(colon >= 0 ? [pair.slice(colon + 1)] : []));
    } catch {
      // not base64 of UTF-8: the credential as given is redacted already
    }
  }
  if (target.username || target.password) {
    const user = decodeURIComponent(target.username);
    const password = decodeURIComponent(target.password);
    secrets.push(user, password, target.username, target.password);
    if (!Object.keys(headers).some((h) => h.toLowerCase() === "authorization")) {
      headers.authorization = `Basic ${btoa(String.fromCodePoint(...new TextEncoder().encode(`${user}:${password}`)))}`;
    }
    target.username = "";
    target.password = "";
  }
  const clean = (text: string) => redact(text, secrets);
  let sent = 0;
  // A Retry-After longer than allowed: remembered so the error can say so.
  let refusedWait: number | null = null;
  const { default: ky, HTTPError, TimeoutError } = await loadKy();
  let response: Response;
  try {
    response = await ky(target, {
      method: request.method ?? "post",
      body: request.body,
      headers,
      timeout: request.timeoutMs,
      redirect: "manual",
      fetch: request.fetch,
      retry: {
        limit: attempts - 1,
        methods: [request.method ?? "post"],
        statusCodes: [...RETRIED_STATUSES],
        afterStatusCodes: [...RETRIED_STATUSES],
        maxRetryAfter: maxRetryAfter,
        backoffLimit: 10_000,
        delay: (n) => firstDelay * 2 ** (n - 1),
        shouldRetry: ({ error }) => {
          // Only one of RETRIED_STATUSES is worth another attempt: a refused connection or a
          // timeout will not heal in a second, and a POST must not be repeated blindly.
          if (!(error instanceof HTTPError)) return false;
          const wait = retryAfterMs(error.response.headers.get("retry-after"));
          if (wait !== null && wait > maxRetryAfter) {
            refusedWait = wait;
            return false;
          }
          return undefined;
        },
      },
      hooks: {
        beforeRequest: [
          () => {
            sent++;
          },
        ],
      },
    });
  } catch (error) {
    throw await describeFailure(error, { name, shown, clean, secrets, timeoutMs: request.timeoutMs, sent, refusedWait, maxRetryAfter, HTTPError, TimeoutError });
  }
  const text = await readBody(response, request.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES, request.timeoutMs, name, shown, false);
  return { status: response.status, text, attempts: sent };
}

/**
 * An endpoint URL, checked: absolute, http or https (WHATWG URL).
 * @throws TypeError when it is not (the message shows it redacted, at most 80 characters)
 */
export function parseEndpointUrl(url: string, fn = "endpoint", argument = "url"): URL {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    // not a URL, so its credentials cannot be found by its parts: with an "@" it is not shown at all
    const shown = url.includes("@") ? `a string of ${url.length} characters with an "@" (not shown: it may hold credentials)` : quoteValue(redact(url));
    throw new ArgumentError(fn, argument, "an http(s) URL", url, shown);
  }
  if (u.protocol !== "http:" && u.protocol !== "https:") throw new ArgumentError(fn, argument, "an http(s) URL", url, quoteValue(redactUrl(u)));
  return u;
}

/**
 * `base` with `path` appended to its path, query and fragment kept (WHATWG URL):
 * `http://h/v1?key=k` + `chat/completions` → `http://h/v1/chat/completions?key=k`.
 * @throws TypeError when `base` is not an absolute http(s) URL
 */
export function joinEndpointPath(base: string, path: string, fn?: string, argument?: string): URL {
  const u = parseEndpointUrl(base, fn, argument);
  u.pathname = `${u.pathname.replace(/\/+$/, "")}/${path.replace(/^\/+/, "")}`;
  return u;
}

/** Milliseconds a `Retry-After` value asks for (delay-seconds or HTTP-date), or null when absent or unreadable. */
export function retryAfterMs(value: string | null): number | null {
  if (value === null || value.trim() === "") return null;
  if (/^\s*\d+\s*$/.test(value)) return Number(value) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, at - Date.now());
}

const CAUSES: Record<string, string> = {
  ECONNREFUSED: "connection refused",
  ECONNRESET: "connection reset",
  ENOTFOUND: "host not found",
  EAI_AGAIN: "host lookup failed",
  EHOSTUNREACH: "host unreachable",
  ENETUNREACH: "network unreachable",
  ETIMEDOUT: "connection timed out",
  UND_ERR_SOCKET: "connection closed",
  CERT_HAS_EXPIRED: "certificate expired",
  DEPTH_ZERO_SELF_SIGNED_CERT: "self-signed certificate",
};

/** The system-level reason under a fetch failure: `connection refused (ECONNREFUSED)`, or the innermost message. */
function causeOf(error: unknown): string {
  let e = error as { cause?: unknown; code?: string; message?: string; errors?: unknown[] } | undefined;
  for (let depth = 0; e && depth < 5; depth++) {
    const code = e.code ?? (e.errors?.[0] as { code?: string } | undefined)?.code;
    if (code) return CAUSES[code] ? `${CAUSES[code]} (${code})` : code;
    if (!e.cause) return e.message ?? String(e);
    e = e.cause as typeof e;
  }
  return String(error);
}

async function describeFailure(
  error: unknown,
  ctx: {
    name: string;
    shown: string;
    clean: (s: string) => string;
    secrets: readonly (string | undefined)[];
    timeoutMs: number;
    sent: number;
    refusedWait: number | null;
    maxRetryAfter: number;
    HTTPError: Ky["HTTPError"];
    TimeoutError: Ky["TimeoutError"];
  },
): Promise<EndpointError> {
  const { name, shown, clean, HTTPError, TimeoutError } = ctx;
  const tries = ctx.sent > 1 ? ` after ${ctx.sent} attempts` : "";
  if (error instanceof TimeoutError) {
    return new EndpointError(`timed out: ${name} did not answer within ${seconds(ctx.timeoutMs)}${tries}`, "timeout", shown, undefined, { cause: error });
  }
  if (error instanceof HTTPError) {
    const r = (error as KyHTTPError).response;
    if ((r.status >= 300 && r.status < 400) || r.type === "opaqueredirect") return redirectError(r, name, shown);
    let said = "";
    try {
      said = serverMessage(await readBody(r, ERROR_BODY_BYTES, ctx.timeoutMs, name, shown, true), ctx.secrets);
    } catch {
      said = "";
    }
    const wait = ctx.refusedWait !== null ? ` (it asked to retry after ${seconds(ctx.refusedWait)}, longer than the ${seconds(ctx.maxRetryAfter)} allowed)` : "";
    const status = `HTTP ${r.status}${r.statusText ? ` ${r.statusText}` : ""}`;
    return new EndpointError(`${name} answered ${status}${tries}${wait}${said ? `: ${said}` : ""}`, "status", shown, r.status, { cause: error });
  }
  if (error instanceof EndpointError) return error;
  return new EndpointError(`cannot reach ${name}: ${clean(causeOf(error))}`, "unreachable", shown, undefined, { cause: error });
}

function redirectError(r: Response, name: string, shown: string): EndpointError {
  const location = r.headers.get("location");
  const target = location ? redactUrl(new URL(location, r.url || shown)) : "an address the platform hides";
  return new EndpointError(
    `${name} answered HTTP ${r.status || "3xx"} redirecting to ${target}; redirects are not followed for a POST (it would resend the request there): use the final URL`,
    "redirect",
    shown,
    r.status || undefined,
  );
}

const seconds = (ms: number) => `${Number((ms / 1000).toFixed(3))} s`;

/**
 * A response body as UTF-8 text, reading at most `maxBytes` and for at most
 * `timeoutMs`. Past the cap: `truncate` keeps what was read, else throws.
 */
async function readBody(r: Response, maxBytes: number, timeoutMs: number, name: string, shown: string, truncate: boolean): Promise<string> {
  const tooLarge = () =>
    new EndpointError(`${name} sent a body over ${maxBytes.toLocaleString("en-US")} bytes; stopped reading`, "too-large", shown, r.status);
  const declared = Number(r.headers.get("content-length") ?? NaN);
  if (!truncate && declared > maxBytes) {
    await r.body?.cancel().catch(() => undefined);
    throw tooLarge();
  }
  if (!r.body) return "";
  const reader = r.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new EndpointError(`timed out: ${name} did not finish its answer within ${seconds(timeoutMs)}`, "timeout", shown, r.status)),
      timeoutMs,
    );
  });
  try {
    for (;;) {
      const { done, value } = await Promise.race([reader.read(), deadline]);
      if (done) break;
      if (total + value.byteLength > maxBytes) {
        await reader.cancel().catch(() => undefined);
        if (!truncate) throw tooLarge();
        chunks.push(value.subarray(0, maxBytes - total));
        total = maxBytes;
        break;
      }
      chunks.push(value);
      total += value.byteLength;
    }
  } catch (error) {
    await reader.cancel().catch(() => undefined);
    if (error instanceof EndpointError) throw error;
    // the peer closed or reset the connection in the middle of its answer (undici: TypeError "terminated")
    throw new EndpointError(`${name} broke off its answer after ${total.toLocaleString("en-US")} bytes (HTTP ${r.status}): ${causeOf(error)}`, "unreachable", shown, r.status, { cause: error });
  } finally {
    clearTimeout(timer);
  }
  const bytes = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    bytes.set(c, at);
    at += c.byteLength;
  }
  try {
    return new TextDecoder("utf-8", { fatal: !truncate }).decode(bytes);
  } catch {
    throw new EndpointError(`${name} answered with a body that is not UTF-8`, "encoding", shown, r.status);
  }
}

/**
 * The server's own words from an error body: `error.message`, `error` (a
 * string), `message` or `detail` of a JSON body, else the text itself;
 * redacted whole (every spelling of `secrets`, see ts/net/redact.ts), then
 * whitespace collapsed and cut to 200 characters (an ellipsis marks the cut).
 */
export function serverMessage(body: string, secrets: readonly (string | undefined)[] = []): string {
  let said = body;
  try {
    const doc = JSON.parse(body) as { error?: unknown; message?: unknown; detail?: unknown };
    const e = doc?.error as { message?: unknown } | string | undefined;
    const picked = (typeof e === "string" ? e : typeof e?.message === "string" ? e.message : undefined) ?? doc?.message ?? doc?.detail;
    if (typeof picked === "string") said = picked;
  } catch {
    // Not JSON: the text itself.
  }
  return redactAndCut(said, secrets, QUOTED_CHARS);
}
