/**
 * `run_sparql` and `POST /sparql/run`: check a plan, refuse it while an error or an open goal
 * remains, else run it on an endpoint the server was started with (`--endpoint NAME=URL`, with
 * `--endpoint-token-file` for a bearer token) or on a `--graph` in the embedded Oxigraph store.
 *
 * The endpoint is asked with the SPARQL 1.1 Protocol (ts/kernel/store.ts over ts/net/http.ts):
 * one attempt, the request's timeout (an AbortSignal; 504 `timeout` past it), a cap on the
 * answer's bytes, no redirects; the token travels in `Authorization` only and is redacted from
 * every message. The embedded store runs in the check's worker, bounded by the check's time budget.
 *
 * With a worker pool, a run on an endpoint is split: the check and the LIMIT rewrite (CPU) run
 * in a worker ({@link prepareRunSparql}), the wait for the endpoint (I/O) on the main thread
 * ({@link fetchRunAnswer}), the reading of its answer (up to 8 MiB of JSON) in a worker again
 * ({@link shapeRunSparql}): endpoints that are slow or never answer hold no worker, every other
 * check goes on, and no answer is parsed on the thread that routes.
 */
import type { Graph } from "../rdf/graph.js";
import { answerPreparedPlan, createKernel, createSparqlEndpointStore, parseSparqlJsonResults, prepareCheckedPlan, runCheckedPlan, type PreparedPlan, type RunPlanResult, type SparqlStore } from "../kernel/index.js";
import { createOxigraphStore } from "../kernel/node.js";
import { checkBound, workLimitError } from "../work-limits.js";
import { GroundwireError } from "../errors.js";
import { NotFoundError, schemaOf, type CheckContext } from "./checks.js";
import type { SparqlRunBody } from "./schemas.js";
import type { EndpointTarget } from "./endpoints.js";

/** Longest answer read from an endpoint, bytes (the rows past the limit are never asked for; this bounds wide rows). */
export const MAX_RUN_RESPONSE_BYTES = 8 * 1024 * 1024;

/** One embedded store per graph the server holds, loaded on first use (the graphs never change while serving). */
const embedded = new WeakMap<Graph, SparqlStore>();

/** Where a request runs: the endpoint or graph it names, else the only one the server holds. */
export function targetOf(ctx: CheckContext, body: { endpoint?: string; graph?: string }, timeoutMs: number, maxResponseBytes = MAX_RUN_RESPONSE_BYTES): { label: string; store: SparqlStore } {
  const endpoints = ctx.endpoints ?? new Map<string, EndpointTarget>();
  let endpoint = body.endpoint;
  let graph = body.graph;
  if (endpoint === undefined && graph === undefined) {
    const all = [...[...endpoints.keys()].map((n) => `endpoint ${n}`), ...[...ctx.graphs.keys()].map((n) => `graph ${n}`)];
    if (all.length !== 1) throw new GroundwireError(`name where to run the query: "endpoint" or "graph" (the server holds ${all.join(", ") || "none: start it with --endpoint NAME=URL or --graph NAME=FILE"})`, { code: "bad_request", status: 400 });
    if (endpoints.size) endpoint = [...endpoints.keys()][0];
    else graph = [...ctx.graphs.keys()][0];
  }
  if (endpoint !== undefined) {
    const target = endpoints.get(endpoint);
    if (!target) throw new NotFoundError(`endpoint: no endpoint named ${JSON.stringify(endpoint)} (the server holds ${[...endpoints.keys()].join(", ") || "none"})`);
    return { label: `endpoint ${endpoint}`, store: createSparqlEndpointStore(target.url, { headers: target.headers, timeoutMs, attempts: 1, maxResponseBytes }) };
  }
  const g = ctx.graphs.get(graph!);
  if (!g) throw new NotFoundError(`graph: no graph named ${JSON.stringify(graph)} (the server holds ${[...ctx.graphs.keys()].join(", ") || "none"})`);
  let store = embedded.get(g);
  if (!store) embedded.set(g, (store = createOxigraphStore(g)));
  return { label: `graph ${graph}`, store };
}

/** The endpoint a run goes to, when it goes to one (named, or the only place the server holds), else undefined (a graph, or a choice targetOf refuses). */
export function endpointOf(ctx: CheckContext, body: { endpoint?: string; graph?: string }): string | undefined {
  if (body.endpoint !== undefined) return body.endpoint;
  const endpoints = ctx.endpoints ?? new Map<string, EndpointTarget>();
  return body.graph === undefined && endpoints.size === 1 && ctx.graphs.size === 0 ? [...endpoints.keys()][0] : undefined;
}

function checkSize(ctx: CheckContext, body: SparqlRunBody): void {
  const maxQueryChars = checkBound(ctx.limits?.maxQueryChars, "runSparql", "maxQueryChars");
  const size = body.query !== undefined ? body.query.length : JSON.stringify(body.ops ?? []).length;
  if (size > maxQueryChars) throw workLimitError("maxQueryChars", maxQueryChars, `${body.query !== undefined ? "query" : "ops"}: ${size.toLocaleString("en-US")} characters`, "characters");
}

const runOptions = (ctx: CheckContext, body: SparqlRunBody) => ({ maxRows: body.limit ?? 100, dialect: ctx.sparql?.dialect, prefixes: ctx.sparql?.prefixes });

function answerOf(label: string, run: RunPlanResult) {
  return {
    target: label,
    sent: run.sent,
    results: run.results,
    count: run.count,
    truncated: run.truncated,
    table: run.table,
    warnings: run.check.warnings,
    context: run.check.context.map((c) => c.text),
  };
}

/**
 * Check the plan and, when it passes, run it (see the module comment).
 * @throws QueryRefusedError (422 `refused`, the plan state as message) when an error or an open goal remains
 * @throws NotFoundError (404) for an unknown endpoint, graph or schema; SparqlStoreError (502 `upstream`, 504 `timeout`) from the store
 */
export async function runSparql(ctx: CheckContext, body: SparqlRunBody) {
  checkSize(ctx, body);
  const kernel = createKernel(schemaOf(ctx, body.schema));
  const { label, store } = targetOf(ctx, body, body.timeoutMs ?? 10_000);
  return answerOf(label, await runCheckedPlan(kernel, (body.query ?? body.ops)!, body.goal, store, runOptions(ctx, body)));
}

/** The worker's half of a run on an endpoint: check, refuse, or rewrite the LIMIT (nothing is sent). */
export function prepareRunSparql(ctx: CheckContext, body: SparqlRunBody): PreparedPlan {
  checkSize(ctx, body);
  // the endpoint is named now, so an unknown one is refused before any work
  targetOf(ctx, body, body.timeoutMs ?? 10_000);
  return prepareCheckedPlan(createKernel(schemaOf(ctx, body.schema)), (body.query ?? body.ops)!, body.goal, runOptions(ctx, body));
}

/** The main thread's half: send a prepared plan to the endpoint and wait for its answer, unread (I/O only). */
export async function fetchRunAnswer(ctx: CheckContext, body: SparqlRunBody, prepared: PreparedPlan): Promise<string> {
  const { store } = targetOf(ctx, body, body.timeoutMs ?? 10_000);
  return store.queryText!(prepared.sent);
}

/** The worker's second half: read the endpoint's answer and shape it (the same answer as {@link runSparql}). */
export function shapeRunSparql(ctx: CheckContext, task: { body: SparqlRunBody; prepared: PreparedPlan; text: string }) {
  const { label, store } = targetOf(ctx, task.body, task.body.timeoutMs ?? 10_000);
  return answerOf(label, answerPreparedPlan(task.prepared, parseSparqlJsonResults(task.text, store.name), runOptions(ctx, task.body)));
}
