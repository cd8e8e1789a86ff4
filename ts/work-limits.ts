/**
 * Work bounds: how much one call may produce (triples parsed, fragments made, bytes of an
 * answer, characters of a query). A size cap on the input does not bound the work — 2 MB of
 * Turtle list (`( 1 1 1 … )`) is 2 million triples, 3.4 GB of memory and a 92 MB listing — so
 * each bound is counted where the work happens and the call stops the moment it is crossed,
 * with a {@link WorkLimitError} naming the bound and how to raise it. Browser-safe.
 *
 * The library functions take these as options and default to no bound (a caller that holds its
 * input decides); `groundwire serve` and `groundwire mcp` pass the defaults of
 * ts/server/defaults.ts, each raised by a flag of the same name (`maxTriples` → `--max-triples`).
 */
import { GroundwireError, ArgumentError } from "./errors.js";

/** The work bounds a check may be given; absent or `Infinity` = no bound. */
export interface WorkLimits {
  /** Triples (quads) a parse may produce, counted as the parser emits them (an RDF list item is two). */
  maxTriples?: number;
  /** Fragments a document may be cut into. */
  maxFragments?: number;
  /** UTF-16 code units of a check's answer (its JSON text in the server). */
  maxOutputChars?: number;
  /** Characters of a SPARQL query (or of an op-list plan's JSON) a check parses. */
  maxQueryChars?: number;
}

/** A call crossed one of its work bounds (422, code `limit`): names the bound, its value and how to raise it. */
export class WorkLimitError extends GroundwireError {
  constructor(
    /** The bound's option name (`maxTriples`, `checkTimeoutMs`, …). */
    readonly bound: string,
    /** The bound's value. */
    readonly limit: number,
    message: string,
  ) {
    super(message, { code: "limit", status: 422 });
  }
}

/** `maxTriples` → `--max-triples`: the serve/mcp flag that sets a bound. */
export function boundFlag(bound: string): string {
  return `--${bound.replace(/Ms$/, "").replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
}

/**
 * The error for `what` going over `bound` = `limit` `unit`. The message says what crossed the
 * bound and how to raise it: the library option and the server flag.
 */
export function workLimitError(bound: keyof WorkLimits | "checkTimeoutMs" | "checkMemoryMb", limit: number, what: string, unit: string): WorkLimitError {
  return new WorkLimitError(bound, limit, `${what}: over the limit of ${limit.toLocaleString("en-US")} ${unit} (raise it with the option ${bound}, or ${boundFlag(bound)} of groundwire serve and mcp)`);
}

/** A bound as given (undefined, a whole number ≥ 1, or Infinity), checked. @throws ArgumentError naming the function and option */
export function checkBound(value: number | undefined, fn: string, name: string): number {
  if (value === undefined || value === Infinity) return Infinity;
  if (!Number.isSafeInteger(value) || value < 1) throw new ArgumentError(fn, `options.${name}`, "a whole number ≥ 1 (or Infinity)", value);
  return value;
}
