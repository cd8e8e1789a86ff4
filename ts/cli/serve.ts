/**
 * `groundwire serve`: the HTTP worker (ts/server/app.ts) on @hono/node-server. Prints one
 * line `groundwire serve: listening on http://HOST:PORT` on stdout when ready (with
 * `--port 0`, the port the system chose); notices go to stderr. Stops on SIGINT/SIGTERM.
 */
import type { AddressInfo } from "node:net";
import { SERVE_DEFAULTS } from "../server/defaults.js";
import { allowedHostsFor, isLoopbackHost, normalizeAllowedHost, normalizeCorsOrigin } from "../server/hosts.js";
import { settleToken, TokenConfigError } from "../server/token.js";
import { CHECK_HELP, CHECK_OPTIONS, readCheckOptions, startCheckPool } from "./check-options.js";
import { resolveSchemaPairs } from "./schema-sources.js";
import { endpointHelp, ENDPOINT_OPTIONS, readDialectOptions, readEndpointOptions } from "./endpoint-options.js";
import { CliError, echo, escapeMessage, integerOption, parseCommandArgs, type Command } from "./common.js";
import { requirePackages, SERVER_PACKAGES } from "./optional-packages.js";
import { durationOption, sizeOption } from "./units.js";
import { corpusHelp, CORPUS_OPTIONS, corpusDirs, localCorpus } from "./corpus-dir.js";
import { packageRoot, packageVersion } from "./package-root.js";
import { join } from "node:path";
import { createModelSynthesizer, MODEL_HELP, MODEL_OPTIONS, readModelConfig } from "./model-config.js";
import { oneLibrary, openCliCorpus } from "./store-option.js";
import type { Book } from "../moot/index.js";

const HELP = `usage: groundwire serve [options]

An HTTP worker: retrieval (POST /query, GET /books), live moots saved after every
turn (POST /moots, POST /moots/ID/turns, GET|DELETE /moots/ID), the checks
(POST /quotes/verify, /sparql/check, /graph/index, /graph/critique, /graph/render,
/fragments, /citations/resolve), the MCP tools at /mcp, GET /health and the API
description GET /openapi.json. JSON in and out.

Every route but /health and /openapi.json needs Authorization: Bearer <token>. The
token is the first line of --token-file, else GROUNDWIRE_TOKEN, else one made at start:
saved in <--data>/token (mode 0600, reused on the next start) or, without --data,
printed once on stderr. Every request must name an allowed host in Host (the bound
address, localhost, --allowed-host) and, when it sends Origin, an allowed origin (the
server's own, --cors); others answer 403.

  --host H            interface to bind (default ${SERVE_DEFAULTS.host}; env HOST)
  --port P            port, 0 for any free one (default ${SERVE_DEFAULTS.port}; env PORT)
  --data DIR          save live moots here, resume them on start (default: memory only)
${corpusHelp(22)}
  --store URL         a PostgreSQL database (postgres://…, or GROUNDWIRE_STORE): the library (groundwire corpus load)
                      and the live moots, shared by every replica on it; replaces --corpus and --data
  --graph NAME=FILE   a graph requests may name (repeatable; NAME defaults to the file's base name)
  --schema NAME=FILE  a schema requests may name (repeatable); NAME=sparql:URL reads it from a live
                      SPARQL endpoint (classes, properties, domains, ranges, labels; cached 24 h)
  --history DIR       a document's versions (the folder's .md/.txt files by name) the page at / shows (repeatable)
${endpointHelp(22)}
  --token-file FILE   the token is the file's first line (or set GROUNDWIRE_TOKEN)
  --no-auth           no token at all: loopback addresses only, with a warning
  --allowed-host NAME
                      a host name (or address) Host may name besides the bound address
                      and localhost, e.g. behind a proxy (repeatable)
  --cors ORIGIN       let pages of ORIGIN (scheme://host[:port]) call the server: CORS
                      answered for exactly the origins named (repeatable; default none)
  --quiet             no request log (default: one JSON line per request on stderr)
  --max-body SIZE     request body cap, bytes or with a unit (8MiB, 500kB; default ${SERVE_DEFAULTS.maxBodyBytes}); larger answers 413
  --turn-timeout T    longest a moot turn request waits, ms or with a unit (120s, 2m; default ${SERVE_DEFAULTS.turnTimeoutMs}); then 504
  --max-turns N       moot turns running at once over all moots (default ${SERVE_DEFAULTS.maxConcurrentTurns}); more answer 429
  --max-moots N       moots held, in memory and under --data (default ${SERVE_DEFAULTS.maxMoots}); past it POST /moots answers 429
  --moot-idle T       drop a moot untouched this long (ms, or 30m, 1h) from memory (default ${SERVE_DEFAULTS.mootIdleMs}, 30 min); a saved one
                      reloads from --data on its next request, one in memory only is gone

The checks run in a pool of worker threads, each bounded (past a bound: 422 limit):
${CHECK_HELP}

The model for moots (default: the offline extractive synthesizer), as for moot and prove:
${MODEL_HELP}`;

/**
 * Upper bounds of serve's numeric options: a port is 16 bits; a request body over 1 GiB, a
 * turn waited on for over a day, over 100,000 turns at once or over 10 million moots is a
 * typo (and a timeout or idle time past 2^31 - 1 ms would fire at once: Node's timers are 32-bit).
 */
const SERVE_MAX = { port: 65_535, "max-body": 2 ** 30, "turn-timeout": 86_400_000, "max-turns": 100_000, "max-moots": 10_000_000, "moot-idle": 2 ** 31 - 1 } as const;

function whole(name: keyof typeof SERVE_MAX, raw: string | undefined, fallback: number, min: number): number {
  return integerOption("serve", name, raw, { fallback, min, max: SERVE_MAX[name] });
}

/** `PORT` from the environment: a whole number 0–65535, or undefined when unset. */
function envPort(raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  if (!/^\d{1,5}$/.test(raw) || Number(raw) > SERVE_MAX.port) throw new CliError(`serve: the environment variable PORT must be a port number 0-65535, got ${echo(raw)}`, 2);
  return Number(raw);
}

/** A bind address as typed: an IP address (IPv6 with or without brackets) or a host name. */
function checkHost(raw: string, what: string): string {
  const normal = normalizeAllowedHost(raw);
  if (normal === null) throw new CliError(`serve: ${what} must be an IP address or a host name, got ${echo(raw)}`, 2);
  return raw.startsWith("[") && raw.endsWith("]") ? raw.slice(1, -1) : raw;
}

const command: Command = {
  async run(args) {
    const { values, positionals } = parseCommandArgs("serve", args, {
      host: { type: "string" },
      port: { type: "string" },
      data: { type: "string" },
      ...CORPUS_OPTIONS,
      store: { type: "string" },
      graph: { type: "string", multiple: true },
      schema: { type: "string", multiple: true },
      history: { type: "string", multiple: true },
      "token-file": { type: "string" },
      "no-auth": { type: "boolean" },
      "allowed-host": { type: "string", multiple: true },
      cors: { type: "string", multiple: true },
      quiet: { type: "boolean" },
      "max-body": { type: "string" },
      "turn-timeout": { type: "string" },
      "max-turns": { type: "string" },
      "max-moots": { type: "string" },
      "moot-idle": { type: "string" },
      ...CHECK_OPTIONS,
      ...ENDPOINT_OPTIONS,
      ...MODEL_OPTIONS,
    }, HELP);
    if (positionals.length) throw new CliError(`serve: takes no positional arguments, got ${echo(positionals[0])}`, 2);
    // flags win over PORT and HOST (set by PaaS platforms), which win over the defaults
    const port = values.port !== undefined ? whole("port", values.port, SERVE_DEFAULTS.port, 0) : envPort(process.env.PORT) ?? SERVE_DEFAULTS.port;
    const host = values.host !== undefined ? checkHost(values.host, "--host") : process.env.HOST !== undefined ? checkHost(process.env.HOST, "the environment variable HOST") : SERVE_DEFAULTS.host;
    if (values["no-auth"] && !isLoopbackHost(host)) {
      throw new CliError(`serve: --no-auth serves loopback addresses only (127.0.0.1, ::1, localhost), got host ${echo(host)}; drop --no-auth to serve it with a token`, 2);
    }
    const allowedExtra: string[] = [];
    for (const name of values["allowed-host"] ?? []) {
      const normal = normalizeAllowedHost(name);
      if (normal === null) throw new CliError(`serve: --allowed-host must be a host name or an IP address (no scheme, port or path), got ${echo(name)}`, 2);
      allowedExtra.push(normal);
    }
    const corsOrigins: string[] = [];
    for (const origin of values.cors ?? []) {
      const normal = normalizeCorsOrigin(origin);
      if (normal === null) throw new CliError(`serve: --cors must be an origin scheme://host[:port] (http or https, no path), got ${echo(origin)}`, 2);
      corsOrigins.push(normal);
    }
    let settled;
    try {
      settled = settleToken({ tokenFile: values["token-file"], env: process.env.GROUNDWIRE_TOKEN, dataDir: values.data, noAuth: values["no-auth"] });
    } catch (error) {
      if (error instanceof TokenConfigError) throw new CliError(`serve: ${error.message}`, 2);
      throw error;
    }
    const token = settled.token;
    const maxBodyBytes = sizeOption("serve", "max-body", values["max-body"], { fallback: SERVE_DEFAULTS.maxBodyBytes, unitBytes: 1, max: SERVE_MAX["max-body"] });
    const turnTimeoutMs = durationOption("serve", "--turn-timeout", values["turn-timeout"], { fallbackMs: SERVE_DEFAULTS.turnTimeoutMs, bareUnit: "ms", maxMs: SERVE_MAX["turn-timeout"] });
    const maxConcurrentTurns = whole("max-turns", values["max-turns"], SERVE_DEFAULTS.maxConcurrentTurns, 1);
    const maxMoots = whole("max-moots", values["max-moots"], SERVE_DEFAULTS.maxMoots, 1);
    const idleMs = durationOption("serve", "--moot-idle", values["moot-idle"], { fallbackMs: SERVE_DEFAULTS.mootIdleMs, bareUnit: "ms", maxMs: SERVE_MAX["moot-idle"] });
    const checks = readCheckOptions("serve", values);
    const endpoints = readEndpointOptions("serve", values);
    const sparql = readDialectOptions("serve", values);
    // NAME=sparql:URL: the endpoint's schema, read (or cached) and written as a file the workers load
    const schemaPairs = await resolveSchemaPairs("serve", values.schema ?? []);
    // one model configuration for every command that talks to a model (checked URL, timeout, key file)
    const config = readModelConfig("serve", values);

    // the server's modules load only now, so --help and usage errors stay fast; the HTTP and
    // MCP packages are optional peers of a library install
    requirePackages("serve", "groundwire serve", SERVER_PACKAGES);
    const [{ loadHistories, loadPageFiles }, { createHttpServer }, { loadBooks }, { createEmbeddedCorpus, createExtractiveSynthesizer }, { createServerApp }, { loadServerContext }, { createMootStore }, { createRequestLogger }] = await Promise.all([
      import("../server/page.js"),
      import("../server/listen.js"),
      import("../moot/corpus-node.js"),
      import("../moot/index.js"),
      import("../server/app.js"),
      import("../server/checks.js"),
      import("../server/moot-store.js"),
      import("../server/log.js"),
    ]);

    let histories;
    try {
      histories = loadHistories(values.history ?? []);
    } catch (error) {
      throw new CliError(`serve: ${(error as Error).message}`, 2);
    }
    oneLibrary("serve", values.corpus, values.store, values.books);
    if (values.data !== undefined && (values.store !== undefined || (!localCorpus(values) && process.env.GROUNDWIRE_STORE))) {
      throw new CliError("serve: give --data or --store, not both: with a store the live moots are kept in the database", 2);
    }
    // turns hold a connection each, besides the queries: a pool a little larger than --max-turns
    const stored = !localCorpus(values) ? await openCliCorpus("serve", values.store, maxConcurrentTurns + 8) : null;
    let ctx;
    const corpus = corpusDirs("serve", values.corpus, values.books);
    // read and cut once: the check workers get these books
    let books: Book[] | undefined;
    try {
      if (!stored) books = loadBooks(corpus);
      ctx = loadServerContext(stored ? stored.corpus : createEmbeddedCorpus(books!), values.graph ?? [], schemaPairs, endpoints, sparql);
    } catch (error) {
      throw new CliError(`serve: ${(error as Error).message}`);
    }
    // the checks' worker pool, each worker loading the same context (the files were read once
    // above, so a bad flag fails here and not in a worker)
    const runner = await startCheckPool(checks, { corpusDir: corpus, books, graphPairs: values.graph ?? [], schemaPairs, endpoints, sparql }, (m) => process.stderr.write(`groundwire serve: ${escapeMessage(m)}\n`));

    const synth = config.baseUrl ? createModelSynthesizer(config) : createExtractiveSynthesizer();
    if (!config.baseUrl) process.stderr.write("groundwire serve: no model configured (--base-url / GROUNDWIRE_BASE_URL); moots use the offline extractive synthesizer\n");
    if (!values.data && !stored) process.stderr.write("groundwire serve: no --data folder; live moots are kept in memory only and lost on exit or after --moot-idle\n");
    process.stderr.write(`groundwire serve: ${escapeMessage(settled.notice)}\n`);

    const { createPgMootStore } = stored ? await import("../server/pg-moot-store.js") : { createPgMootStore: null };
    const moots = stored && createPgMootStore ? createPgMootStore({ store: stored.store, client: ctx.corpus, synth, modelName: config.baseUrl ? (config.model ?? "") : "extractive", maxConcurrentTurns, maxMoots }) : createMootStore({
      dataDir: values.data ?? null,
      client: ctx.corpus,
      synth,
      modelName: config.baseUrl ? (config.model ?? "") : "extractive",
      maxConcurrentTurns,
      maxMoots,
      idleMs,
      onSkipped: (file, reason) => process.stderr.write(`groundwire serve: skipped ${escapeMessage(`${file}: ${reason}`)}\n`),
    });
    const page = { files: loadPageFiles(join(packageRoot(), "dist", "web")), histories };
    let boundPort: number | undefined;
    // ends the moots' event streams at shutdown, so server.close() is not held by them
    const shutdown = new AbortController();
    const app = createServerApp({
      ...ctx,
      limits: checks.limits,
      runner,
      libraryInStore: stored?.corpus,
      moots,
      token,
      guard: { allowedHosts: allowedHostsFor(host, allowedExtra), corsOrigins, port: () => boundPort },
      requestLogger: values.quiet ? null : createRequestLogger(),
      maxBodyBytes,
      turnTimeoutMs,
      version: packageVersion(),
      log: (m) => process.stderr.write(`groundwire serve: ${escapeMessage(m)}\n`),
      page,
      streams: { shutdown: shutdown.signal },
    });

    await new Promise<void>((resolve, reject) => {
      const server = createHttpServer(app.fetch);
      server.listen(port, host, () => {
        const info = server.address() as AddressInfo;
        boundPort = info.port;
        const shown = info.family === "IPv6" ? `[${info.address}]` : info.address;
        process.stdout.write(`groundwire serve: listening on http://${shown}:${info.port}\n`);
      });
      server.on("error", (error: NodeJS.ErrnoException) => reject(new CliError(`serve: cannot listen on ${host}:${port} (${error.code ?? error.message})`)));
      const stop = () => {
        // the event streams end, and their connections, idle then, are closed as they become so
        shutdown.abort();
        const idle = setInterval(() => server.closeIdleConnections(), 50);
        server.close(() => (clearInterval(idle), stored?.corpus.close(), void runner?.close().finally(resolve)));
      };
      process.once("SIGINT", stop);
      process.once("SIGTERM", stop);
    });
    return 0;
  },
};
export default command;
