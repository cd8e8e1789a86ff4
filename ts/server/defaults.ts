/** Defaults of the limits of `groundwire serve` (each a flag), in a module of their own so `serve --help` shows them without loading the server. */
import { availableParallelism } from "node:os";

export const SERVE_DEFAULTS = {
  host: "127.0.0.1",
  port: 8787,
  /** Request body cap in bytes. */
  maxBodyBytes: 2 * 1024 * 1024,
  /** Longest a moot turn may take before the request answers 504, in ms. */
  turnTimeoutMs: 120_000,
  /** Most moot turns running at once over all moots; more answer 429. */
  maxConcurrentTurns: 4,
  /** Most moots the server holds (in memory and saved under --data); past it POST /moots answers 429. */
  maxMoots: 1000,
  /** A live moot untouched this long (ms) is dropped from memory; a saved one reloads from --data on demand. */
  mootIdleMs: 30 * 60 * 1000,
  /** Timeouts of the Node HTTP server, in ms (ts/server/listen.ts). */
  http: {
    /** An idle keep-alive connection is closed after this (Node advertises it as `Keep-Alive: timeout=5`). */
    keepAliveTimeout: 5_000,
    /** The request line and headers must arrive within this (slow-header clients are cut off). */
    headersTimeout: 20_000,
    /** The whole request, body included, must arrive within this (the answer may take longer). */
    requestTimeout: 120_000,
  },
} as const;

/**
 * Work bounds of every check (serve and mcp; docs/serving.md, "Work bounds and the worker
 * pool"), each a flag of the same name in kebab case. Measured on the 2-core machine: a
 * 100,000-triple list graph is indexed in ≈ 2.3 s into a 4 MB answer; 20,000 fragments
 * make a ≈ 12 MB answer.
 */
export const CHECK_DEFAULTS = {
  /** Triples one request's graph (or schema, or scope) may hold (--max-triples). */
  maxTriples: 100_000,
  /** Fragments one document may be cut into (--max-fragments). */
  maxFragments: 20_000,
  /** UTF-16 code units of one check's JSON answer (--max-output-chars). */
  maxOutputChars: 16_000_000,
  /** Characters of a SPARQL query, or of an op-list plan's JSON (--max-query-chars). */
  maxQueryChars: 50_000,
  /** Quotes of 3+ words checked per reply; later ones are reported unchecked (--max-quotes). */
  maxQuotes: 32,
  /** Longest one check may run in its worker before it is stopped, in ms (--check-timeout). */
  checkTimeoutMs: 10_000,
  /** Heap one check worker may use, in MB (--check-memory); past it the worker is replaced. */
  checkMemoryMb: 1024,
} as const;

/**
 * Worker threads running the checks (--check-workers): one per core but one, and at least
 * two, so one long check never queues every other (the main thread only routes).
 */
export function defaultCheckWorkers(): number {
  return Math.max(2, availableParallelism() - 1);
}

/** Checks running or queued at once (--max-checks); past it 503 with Retry-After. Twice the workers. */
export function defaultMaxChecks(workers: number): number {
  return 2 * workers;
}
