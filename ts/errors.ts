/**
 * The one root of every error groundwire throws on purpose. Browser-safe (no Node imports).
 *
 * Each class below it carries a stable machine `code` (snake_case, listed in docs/serving.md,
 * "Error codes") and an HTTP `status`: 4xx for what the caller sent or asked (bad input, a
 * bound exceeded, something not found or busy), 5xx for what failed on our side or upstream
 * (a full disk, an unreachable model). The server, the MCP tools and the CLI map an error by
 * these two fields, never by a list of classes: a new error class is answered right the day
 * it is written. Anything that is not a GroundwireError is a fault of ours: a 500 with a
 * request id, the stack in the server's log only.
 */

/** Statuses an error may carry (the ones a JSON answer can have). */
export type ErrorStatus = 400 | 401 | 403 | 404 | 405 | 409 | 413 | 415 | 422 | 429 | 500 | 502 | 503 | 504 | 507;

/** Settings of a {@link GroundwireError}. */
export interface GroundwireErrorOptions {
  /** Stable machine code, e.g. `"bad_request"`, `"too_large"`, `"not_found"`. */
  code?: string;
  /** HTTP status the server answers with. */
  status?: ErrorStatus;
  /** Seconds a client should wait before retrying (sent as `Retry-After` with 429/503). */
  retryAfter?: number;
  cause?: unknown;
}

/**
 * Base of every deliberate groundwire error. `code` and `status` default to
 * `"bad_request"`/400: most errors the library throws name something wrong in its input.
 */
export class GroundwireError extends Error {
  /** Stable machine code (see docs/serving.md, "Error codes"). */
  readonly code: string;
  /** HTTP status the server and the MCP tools map this error to. */
  readonly status: ErrorStatus;
  /** Seconds to wait before retrying, when the fault is temporary. */
  readonly retryAfter?: number;

  constructor(message: string, options: GroundwireErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = options.code ?? "bad_request";
    this.status = options.status ?? 400;
    if (options.retryAfter !== undefined) this.retryAfter = options.retryAfter;
  }

  /** True when the fault lies in what the client sent or asked (4xx): no stack is logged. */
  get isClientError(): boolean {
    return this.status < 500;
  }
}

/** Narrow an unknown thrown value. */
export function isGroundwireError(error: unknown): error is GroundwireError {
  return error instanceof GroundwireError;
}

/** How a wrong argument is shown in a message: its type, or `null`. */
function describeValue(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "number") return String(value);
  // a string with an "@" may be a URL with credentials (one with a lone surrogate is no URL, so it cannot be redacted by its parts): not shown
  if (typeof value === "string") return value.includes("@") ? `a string of ${value.length} characters with an "@" (not shown: it may hold credentials)` : value.length > 40 ? `a string of ${value.length} characters` : JSON.stringify(value);
  return typeof value;
}

/**
 * An argument of an exported function is missing, of the wrong type or out of range: the message
 * names the function, the argument and what it must be (`renderNeighborhood: neighborhood must
 * be {nodes, edges}, got null`). 400 `bad_request`.
 */
export class ArgumentError extends GroundwireError {
  constructor(
    readonly fn: string,
    readonly argument: string,
    expected: string,
    value: unknown,
    /** how to show the value instead (a URL redacted of its credentials) */
    shown?: string,
  ) {
    super(`${fn}: ${argument} must be ${expected}, got ${shown ?? describeValue(value)}`, { code: "bad_request", status: 400 });
    this.name = "ArgumentError";
  }
}

/**
 * The first `max` UTF-16 code units of `text`, one fewer when the cut would fall between the
 * two halves of a surrogate pair (an emoji, a CJK extension character): a message or a
 * listing cut for length must not end in half a character, which JSON writes as a lone
 * `\ud83d` (refused by strict UTF-8 readers) and a terminal shows as an escape. Internal (not
 * exported by the package).
 */
export function cutText(text: string, max: number): string {
  if (text.length <= max) return text;
  const last = text.charCodeAt(max - 1);
  return text.slice(0, last >= 0xd800 && last <= 0xdbff ? max - 1 : max);
}
