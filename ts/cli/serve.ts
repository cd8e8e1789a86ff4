/**
 * `groundwire serve`: the HTTP worker (ts/server/app.ts) on @hono/node-server. Prints one
 * line `groundwire serve: listening on http://HOST:PORT` on stdout when ready (with
 * `--port 0`, the port the system chose); notices go to stderr. Stops on SIGINT/SIGTERM.
 */
import { decodeUtf8, InputFileError, readRegularFile } from "../files.js";
import { SERVE_DEFAULTS } from "../server/defaults.js";
import { CliError, echo, escapeMessage, integerOption, parseCommandArgs, type Command } from "./common.js";
import { corpusDir } from "./corpus-dir.js";
import { packageVersion } from "./package-root.js";
import { createModelSynthesizer, MODEL_HELP, MODEL_OPTIONS, readModelConfig } from "./model-config.js";
import { oneLibrary, openCliCorpus } from "./store-option.js";

const HELP = `usage: groundwire serve [options]

An HTTP worker: retrieval (POST /query, GET /books), live moots saved after every
turn (POST /moots, POST /moots/ID/turns, GET|DELETE /moots/ID), the checks
(POST /quotes/verify, /sparql/check, /graph/index, /graph/critique, /graph/render,
/fragments, /citations/resolve) and the MCP tools at /mcp. JSON in and out.

  --host H            interface to bind (default ${SERVE_DEFAULTS.host})
  --port P            port, 0 for any free one (default ${SERVE_DEFAULTS.port})
  --data DIR          save live moots here, resume them on start (default: memory only)
  --corpus DIR        folder of <genre>__<book>.txt files (default: the bundled data/books)
  --store URL         a PostgreSQL database (postgres://…, or GROUNDWIRE_STORE): the library (groundwire corpus load)
                      and the live moots, shared by every replica on it; replaces --corpus and --data
  --graph NAME=FILE   a graph requests may name (repeatable; NAME defaults to the file's base name)
  --schema NAME=FILE  a schema requests may name (repeatable)
  --token-file FILE   require Authorization: Bearer <the file's first line> on every route
                      but /health (or set GROUNDWIRE_TOKEN)
  --max-body BYTES    request body cap (default ${SERVE_DEFAULTS.maxBodyBytes}); larger answers 413
  --turn-timeout MS   longest a moot turn request waits (default ${SERVE_DEFAULTS.turnTimeoutMs}); then 504
  --max-turns N       moot turns running at once over all moots (default ${SERVE_DEFAULTS.maxConcurrentTurns}); more answer 429
  --max-moots N       moots held, in memory and under --data (default ${SERVE_DEFAULTS.maxMoots}); past it POST /moots answers 429
  --moot-idle MS      drop a moot untouched this long from memory (default ${SERVE_DEFAULTS.mootIdleMs}, 30 min); a saved one
                      reloads from --data on its next request, one in memory only is gone

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

const command: Command = {
  async run(args) {
    const { values, positionals } = parseCommandArgs("serve", args, {
      host: { type: "string" },
      port: { type: "string" },
      data: { type: "string" },
      corpus: { type: "string" },
      store: { type: "string" },
      graph: { type: "string", multiple: true },
      schema: { type: "string", multiple: true },
      "token-file": { type: "string" },
      "max-body": { type: "string" },
      "turn-timeout": { type: "string" },
      "max-turns": { type: "string" },
      "max-moots": { type: "string" },
      "moot-idle": { type: "string" },
      ...MODEL_OPTIONS,
    }, HELP);
    if (positionals.length) throw new CliError(`serve: takes no positional arguments, got ${echo(positionals[0])}`, 2);
    const port = whole("port", values.port, SERVE_DEFAULTS.port, 0);
    if (port > 65535) throw new CliError(`serve: --port must be at most 65535, got ${echo(values.port!)}`, 2);
    const host = values.host ?? SERVE_DEFAULTS.host;
    const maxBodyBytes = whole("max-body", values["max-body"], SERVE_DEFAULTS.maxBodyBytes, 1);
    const turnTimeoutMs = whole("turn-timeout", values["turn-timeout"], SERVE_DEFAULTS.turnTimeoutMs, 1);
    const maxConcurrentTurns = whole("max-turns", values["max-turns"], SERVE_DEFAULTS.maxConcurrentTurns, 1);
    const maxMoots = whole("max-moots", values["max-moots"], SERVE_DEFAULTS.maxMoots, 1);
    const idleMs = whole("moot-idle", values["moot-idle"], SERVE_DEFAULTS.mootIdleMs, 1);
    // one model configuration for every command that talks to a model (checked URL, timeout, key file)
    const config = readModelConfig("serve", values);

    // the server's modules load only now, so --help and usage errors stay fast
    const [{ serve }, { loadCorpus }, { createExtractiveSynthesizer }, { createServerApp }, { loadServerContext }, { createMootStore }] = await Promise.all([
      import("@hono/node-server"),
      import("../moot/corpus-node.js"),
      import("../moot/synth.js"),
      import("../server/app.js"),
      import("../server/checks.js"),
      import("../server/moot-store.js"),
    ]);
    let token: string | null = process.env.GROUNDWIRE_TOKEN || null;
    if (values["token-file"] !== undefined) {
      try {
        // a regular file of at most 64 KiB: /dev/zero or a FIFO was read (or waited on) forever
        token = decodeUtf8(readRegularFile(values["token-file"], { maxBytes: 64 * 1024, label: `--token-file ${values["token-file"]}` }), `--token-file ${values["token-file"]}`).split(/\r?\n/, 1)[0]!.trim();
      } catch (error) {
        if (error instanceof InputFileError) throw new CliError(`serve: ${error.message}`, 2);
        throw error;
      }
      if (!token) throw new CliError(`serve: --token-file ${values["token-file"]} is empty`, 2);
    }

    oneLibrary("serve", values.corpus, values.store);
    if (values.data !== undefined && (values.store !== undefined || (values.corpus === undefined && process.env.GROUNDWIRE_STORE))) {
      throw new CliError("serve: give --data or --store, not both: with a store the live moots are kept in the database", 2);
    }
    // turns hold a connection each, besides the queries: a pool a little larger than --max-turns
    const stored = values.corpus === undefined ? await openCliCorpus("serve", values.store, maxConcurrentTurns + 8) : null;
    let ctx;
    try {
      ctx = loadServerContext(stored ? stored.corpus : loadCorpus(corpusDir(values.corpus)), values.graph ?? [], values.schema ?? []);
    } catch (error) {
      throw new CliError(`serve: ${(error as Error).message}`);
    }

    const synth = config.baseUrl ? createModelSynthesizer(config) : createExtractiveSynthesizer();
    if (!config.baseUrl) process.stderr.write("groundwire serve: no model configured (--base-url / GROUNDWIRE_BASE_URL); moots use the offline extractive synthesizer\n");
    if (!values.data && !stored) process.stderr.write("groundwire serve: no --data folder; live moots are kept in memory only and lost on exit or after --moot-idle\n");
    if (!token && host !== "127.0.0.1" && host !== "localhost" && host !== "::1") {
      process.stderr.write(`groundwire serve: listening on ${escapeMessage(host)} without a token; anyone who can reach it can use it (set GROUNDWIRE_TOKEN or --token-file)\n`);
    }

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
    const app = createServerApp({
      ...ctx,
      moots,
      token,
      maxBodyBytes,
      turnTimeoutMs,
      version: packageVersion(),
      log: (m) => process.stderr.write(`groundwire serve: ${escapeMessage(m)}\n`),
    });

    await new Promise<void>((resolve, reject) => {
      const server = serve({ fetch: app.fetch, port, hostname: host }, (info) => {
        const shown = info.family === "IPv6" ? `[${info.address}]` : info.address;
        process.stdout.write(`groundwire serve: listening on http://${shown}:${info.port}\n`);
      });
      server.on("error", (error: NodeJS.ErrnoException) => reject(new CliError(`serve: cannot listen on ${host}:${port} (${error.code ?? error.message})`)));
      const stop = () => server.close(() => resolve());
      process.once("SIGINT", stop);
      process.once("SIGTERM", stop);
    });
    return 0;
  },
};
export default command;
