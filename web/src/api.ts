/**
 * The page's only way to the server: the documented HTTP API, same origin, the bearer token
 * kept in sessionStorage and sent as the Authorization header (never in a URL).
 */
import { EventSourceParserStream } from "eventsource-parser/stream";

const KEY = "groundwire.token";

/** RFC 6750 b64token, as the server checks its own token (ts/server/token.ts): the only tokens a header can carry and the server can hold. */
const BEARER_TOKEN_RE = /^[A-Za-z0-9\-._~+/]+=*$/;
const MAX_TOKEN_LENGTH = 4096;

/**
 * Why a typed token cannot be the server's, in words, or null. A pasted token often carries a
 * curly quote or an invisible space; `fetch` cannot send those in a header and would fail as if
 * the server were down. Never quotes the token itself.
 */
export function tokenProblem(t: string): string | null {
  if (t.length > MAX_TOKEN_LENGTH) return `the token is longer than ${MAX_TOKEN_LENGTH} characters; paste the first line of the server's token file`;
  if (t && !BEARER_TOKEN_RE.test(t)) {
    const bad = [...t].find((ch) => !/[A-Za-z0-9\-._~+/=]/.test(ch))!;
    const code = `U+${bad.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}`;
    return `the token holds a character a bearer token cannot (${code}${/\s/.test(bad) || bad.codePointAt(0)! < 0x20 || /[\u200b-\u200f\u2060\ufeff]/.test(bad) ? ", a space or an invisible character" : ""}); tokens hold letters, digits and - . _ ~ + / =, so paste it again`;
  }
  return null;
}

export const token = {
  get: (): string => sessionStorage.getItem(KEY) ?? "",
  set: (t: string) => (t ? sessionStorage.setItem(KEY, t) : sessionStorage.removeItem(KEY)),
};

/** An error answer of the API, in its own words. */
export class ApiError extends Error {
  constructor(message: string, readonly code: string, readonly status: number) {
    super(message);
  }
}

/** Listeners told of a 401 (the page shows the token form). */
export const onUnauthorized: Array<(e: ApiError) => void> = [];

const headersOf = (accept: string): Record<string, string> => {
  const t = token.get();
  return t ? { accept, authorization: `Bearer ${t}` } : { accept };
};

/** The API's error answer, in its own words (a 401 also tells the listeners). */
function failure(response: Response, text: string): ApiError {
  let json: any = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    return new ApiError(`the server answered HTTP ${response.status} with something other than JSON`, "bad_answer", response.status);
  }
  const e = new ApiError(json?.error?.message ?? `HTTP ${response.status}`, json?.error?.code ?? "error", response.status);
  if (response.status === 401) for (const f of onUnauthorized) f(e);
  return e;
}

export async function api<T = any>(method: "GET" | "POST" | "DELETE", path: string, body?: unknown): Promise<T> {
  const headers = headersOf("application/json");
  if (body !== undefined) headers["content-type"] = "application/json";
  let response: Response;
  try {
    response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), credentials: "omit", cache: "no-store" });
  } catch (e) {
    throw new ApiError(`the server did not answer (${(e as Error).message})`, "network", 0);
  }
  const text = await response.text();
  if (!response.ok) throw failure(response, text);
  try {
    return (text ? JSON.parse(text) : null) as T;
  } catch {
    throw new ApiError(`the server answered HTTP ${response.status} with something other than JSON`, "bad_answer", response.status);
  }
}

/**
 * Read a server-sent event stream of the API with `fetch`, so the token goes in the
 * Authorization header (EventSource cannot send one; a token never goes in a URL). Calls
 * `onEvent` with each event's name and JSON data; resolves when the server ends the stream or
 * `signal` aborts it.
 */
export async function streamEvents(path: string, onEvent: (event: string, data: any) => void, signal: AbortSignal): Promise<void> {
  let response: Response;
  try {
    response = await fetch(path, { headers: headersOf("text/event-stream"), credentials: "omit", cache: "no-store", signal });
  } catch (e) {
    if (signal.aborted) return;
    throw new ApiError(`the server did not answer (${(e as Error).message})`, "network", 0);
  }
  if (!response.ok || !response.body) throw failure(response, await response.text());
  const reader = response.body.pipeThrough(new TextDecoderStream()).pipeThrough(new EventSourceParserStream()).getReader();
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      onEvent(value.event ?? "message", JSON.parse(value.data));
    }
  } catch (e) {
    if (signal.aborted) return;
    throw new ApiError(`the event stream broke (${(e as Error).message})`, "network", 0);
  }
}

export const q = (params: Record<string, string | number | undefined>) =>
  new URLSearchParams(Object.entries(params).filter(([, v]) => v !== undefined && v !== "").map(([k, v]) => [k, String(v)])).toString();
