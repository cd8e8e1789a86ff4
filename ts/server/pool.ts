/**
 * Where the checks run: {@link runCheck} is the one function the HTTP routes (app.ts) and the
 * MCP tools (mcp.ts) call. With a pool in the context (`ctx.runner`, made by
 * {@link createCheckPool} for `serve` and `mcp`), the check runs in a worker thread
 * (piscina), so the event loop only routes and `/health` and moot turns answer while a
 * hostile check runs; each check has a time budget (the task is aborted: piscina terminates
 * the thread and starts another) and a memory budget (the worker's heap limit), and the
 * checks running or queued are capped (past the cap, 503 `overloaded` with Retry-After). Without
 * a pool, the check runs in this thread (a library user calling `createServerApp` directly).
 *
 * Either way the answer is JSON text, bounded by `limits.maxOutputChars`.
 */
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { GroundwireError } from "../errors.js";
import { checkBound, workLimitError } from "../work-limits.js";
import {
  checkSparql,
  critiqueGraph,
  fragmentDocumentBody,
  indexGraph,
  renderGraph,
  resolveCitations,
  searchBook,
  verifyBookText,
  verifyQuotes,
  type BookTextBody,
  type CheckContext,
  type CheckLimits,
} from "./checks.js";
import { UnknownBookError, type Book } from "../moot/index.js";
import type { CheckName, CheckRunner } from "./check-runner.js";
import { endpointOf, fetchRunAnswer, prepareRunSparql, runSparql, shapeRunSparql } from "./run-sparql.js";
import type { PreparedPlan } from "../kernel/index.js";
import type { SparqlRunBody } from "./schemas.js";
import { addEndpointExamples, describeSchemaTerm, examplesFromEndpoint, exploreSchema } from "./explore-schema.js";
import type { ExploreSchemaInput } from "./schemas.js";
import type { TermDescription } from "../kernel/index.js";
import { locateBookText, locateQuote, markQuotes } from "./page-checks.js";
import type { EndpointSpec, SparqlSettings } from "./endpoints.js";

/** The checks a pool runs, by name (the name crosses to the worker; the function cannot). */
export const CHECKS = { verifyQuotes, verifyBookText, checkSparql, indexGraph, critiqueGraph, renderGraph, fragmentDocumentBody, resolveCitations, searchBook, runSparql, prepareRunSparql, shapeRunSparql, exploreSchema, describeSchemaTerm, markQuotes, locateQuote, locateBookText } as const satisfies Record<CheckName, unknown>;
type CheckFunction = (typeof CHECKS)[CheckName];
export type { CheckName, CheckRunner };

/** Too many checks running or queued (503 `overloaded`, Retry-After 1): the client should retry shortly. */
export class ChecksBusyError extends GroundwireError {
  constructor(readonly limit: number) {
    super(`the server is running ${limit} checks already (--max-checks); retry in a second`, { code: "overloaded", status: 503, retryAfter: 1 });
  }
}

/** An error a check threw in a worker, as the worker described it (status, code, message). */
class RemoteCheckError extends GroundwireError {}

/** The answer of a check as JSON text, refused past `maxOutputChars`. */
export function answerText(result: unknown, limits: CheckLimits | undefined): string {
  const text = JSON.stringify(result);
  const max = checkBound(limits?.maxOutputChars, "runCheck", "maxOutputChars");
  if (text.length > max) throw workLimitError("maxOutputChars", max, `the answer: ${text.length.toLocaleString("en-US")} characters`, "characters");
  return text;
}

function nameOf(check: CheckName | CheckFunction): CheckName {
  if (typeof check === "string") return check;
  const name = (Object.keys(CHECKS) as CheckName[]).find((k) => CHECKS[k] === check);
  if (!name) throw new TypeError("runCheck: not one of the checks of pool.ts");
  return name;
}

/**
 * Run one check for a request: in `ctx.runner` (the worker pool) when there is one, else in
 * this thread. Resolves to the answer's JSON text.
 *
 * @param check the check, by name or as the function of checks.ts
 * @param body the request body, validated by the check's schema
 * @throws the check's own errors (a GroundwireError with its status), WorkLimitError (422
 *   `limit`) past a work bound or the time budget, ChecksBusyError (503 `overloaded`) past the cap
 */
export async function runCheck(ctx: CheckContext, check: CheckName | CheckFunction, body: unknown): Promise<string> {
  const name = nameOf(check);
  // a --store library lives in the database the workers do not open: the book is read here and sent with the check
  const book = (body as { book?: unknown }).book;
  if (name === "verifyQuotes" && ctx.libraryInStore && typeof book === "string") {
    const key = ctx.corpus.resolve(book);
    const found = await ctx.libraryInStore.loadBookVersion(key);
    // removed since the catalogue was read
    if (!found) throw new UnknownBookError(key, [], ctx.corpus.keys().filter((k) => k !== key));
    const task: BookTextBody = { reply: (body as { reply: string }).reply, book: { key, version: found.version, passages: found.book.passages.map((p) => p.content) } };
    if (ctx.runner) return ctx.runner.run("verifyBookText", task);
    return answerText(verifyBookText(ctx, task), ctx.limits);
  }
  // a run on an endpoint: the check in a worker, the wait for the endpoint here (it holds no worker)
  if (name === "runSparql" && ctx.runner && endpointOf(ctx, body as SparqlRunBody) !== undefined) {
    if (endpointWaits >= MAX_ENDPOINT_WAITS) throw endpointsBusy();
    endpointWaits++;
    try {
      const prepared = JSON.parse(await ctx.runner.run("prepareRunSparql", body)) as PreparedPlan;
      const text = await fetchRunAnswer(ctx, body as SparqlRunBody, prepared);
      return await ctx.runner.run("shapeRunSparql", { body, prepared, text });
    } finally {
      endpointWaits--;
    }
  }
  // a term's examples from an endpoint: described in a worker, the examples asked here
  if (name === "exploreSchema" && ctx.runner && examplesFromEndpoint(ctx, body as ExploreSchemaInput)) {
    if (endpointWaits >= MAX_ENDPOINT_WAITS) throw endpointsBusy();
    endpointWaits++;
    try {
      const described = JSON.parse(await ctx.runner.run("describeSchemaTerm", body)) as { term: TermDescription };
      return answerText(await addEndpointExamples(ctx, body as ExploreSchemaInput, described), ctx.limits);
    } finally {
      endpointWaits--;
    }
  }
  // searchBook stays here: it is an index lookup (cheap), and its corpus is the server's own
  // (a --store library lives in the database the workers do not open)
  if (ctx.runner && name !== "searchBook") return ctx.runner.run(name, body);
  return answerText(await (CHECKS[name] as (c: CheckContext, b: never) => unknown)(ctx, body as never), ctx.limits);
}

/** Requests waiting on an endpoint at once (run_sparql, explore_schema's examples: on the main thread, holding no worker); past it 503 `overloaded`. */
export const MAX_ENDPOINT_WAITS = 16;
let endpointWaits = 0;
const endpointsBusy = () => new GroundwireError(`${MAX_ENDPOINT_WAITS} requests are waiting on SPARQL endpoints already; retry in a second`, { code: "overloaded", status: 503, retryAfter: 1 });

/** What each worker loads at start: the same context as the server's, from its flags. */
export interface WorkerContextOptions {
  /** The corpus folders (`--corpus`, or the bundled data/books, then each `--books DIR`). */
  corpusDir: string | readonly string[];
  /**
   * The books as the server read them from `corpusDir`: each worker builds its corpus from
   * these (copied to it at start) instead of reading the folders again, so a book is read and
   * cut once, and every worker holds the books the server holds, even if a file changes after
   * the server read it.
   */
  books?: readonly Book[];
  /** `--graph NAME=FILE` pairs. */
  graphPairs: readonly string[];
  /** `--schema NAME=FILE` pairs. */
  schemaPairs: readonly string[];
  limits: CheckLimits;
  /** `--endpoint` specs (each worker reads the token files itself). */
  endpoints?: readonly EndpointSpec[];
  /** `--dialect` and `--prefixes`. */
  sparql?: SparqlSettings;
}

/** Settings of {@link createCheckPool}. */
export interface CheckPoolOptions extends WorkerContextOptions {
  /** Worker threads (default: defaults.ts defaultCheckWorkers). */
  workers: number;
  /** Checks running or queued at once; past it ChecksBusyError (503). */
  maxInFlight: number;
  /** Time budget of one check, in ms; past it the worker is stopped and the check answers 422 `limit`. */
  timeoutMs: number;
  /** Heap limit of each worker, in MB; past it the worker dies and the check answers 422 `limit`. */
  memoryMb: number;
  /** The worker module (default: check-worker.js beside this module's build output). */
  filename?: string;
  /** Where faults of ours (500) are logged with their stack. */
  log?: (message: string) => void;
}

/** What a worker answers for one task. */
export type WorkerAnswer = { ok: true; text: string } | { ok: false; status: number; code: string; message: string; retryAfter?: number; stack?: string };

/** dist/check-worker.js: beside the running module, or one folder up when this module sits in dist/chunks/. */
function workerFile(): string {
  for (const rel of ["./check-worker.js", "../check-worker.js"]) {
    const path = fileURLToPath(new URL(rel, import.meta.url));
    if (existsSync(path)) return path;
  }
  throw new Error("check-worker.js is missing beside the server's modules (rebuild with npm run build)");
}

/**
 * A pool of worker threads running the checks, each worker loading the context (corpus,
 * graphs, schemas) once at start. Await {@link CheckRunner.close} on shutdown.
 */
export async function createCheckPool(options: CheckPoolOptions): Promise<CheckRunner> {
  const { Piscina } = await import("piscina");
  const pool = new Piscina<{ name: CheckName; body: unknown }, WorkerAnswer>({
    filename: options.filename ?? workerFile(),
    minThreads: options.workers,
    maxThreads: options.workers,
    idleTimeout: Number.MAX_SAFE_INTEGER,
    workerData: { corpusDir: options.corpusDir, books: options.books, graphPairs: options.graphPairs, schemaPairs: options.schemaPairs, limits: options.limits, endpoints: options.endpoints, sparql: options.sparql } satisfies WorkerContextOptions,
    resourceLimits: { maxOldGenerationSizeMb: options.memoryMb },
  });
  let inFlight = 0;
  return {
    get inFlight() {
      return inFlight;
    },
    async run(name, body) {
      if (inFlight >= options.maxInFlight) throw new ChecksBusyError(options.maxInFlight);
      inFlight++;
      const abort = new AbortController();
      let timedOut = false;
      // the budget runs from the request's arrival: a check that waited in the queue has less left
      const timer = setTimeout(() => {
        timedOut = true;
        abort.abort();
      }, options.timeoutMs);
      try {
        const answer = await pool.run({ name, body }, { signal: abort.signal });
        if (answer.ok) return answer.text;
        if (answer.status >= 500 && answer.stack) options.log?.(`internal error in check ${name}: ${answer.stack}`);
        throw new RemoteCheckError(answer.message, { status: answer.status as never, code: answer.code, retryAfter: answer.retryAfter });
      } catch (error) {
        // a query the embedded store was still running when the budget ran out is a timeout, as an endpoint's is
        if (timedOut && name === "runSparql") throw new GroundwireError(`runSparql: the query ran over the check's time budget of ${options.timeoutMs} ms (--check-timeout)`, { code: "timeout", status: 504 });
        if (timedOut) throw workLimitError("checkTimeoutMs", options.timeoutMs, `${name}: the check ran over its time budget`, "ms");
        if ((error as NodeJS.ErrnoException).code === "ERR_WORKER_OUT_OF_MEMORY") {
          throw workLimitError("checkMemoryMb", options.memoryMb, `${name}: the check ran out of its memory budget`, "MB");
        }
        throw error;
      } finally {
        clearTimeout(timer);
        inFlight--;
      }
    },
    async close() {
      await pool.destroy();
    },
  };
}
