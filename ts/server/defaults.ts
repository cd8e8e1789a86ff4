/** Defaults of the limits of `groundwire serve` (each a flag), in a module of their own so `serve --help` shows them without loading the server. */
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

