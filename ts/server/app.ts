/**
 * `groundwire serve` as a Hono app: JSON in and out, every body checked by its zod schema
 * (schemas.ts), every check the same function the MCP tools call (checks.ts), every error
 * mapped to a status in one place (errors.ts, through `app.onError`).
 *
 * Every request first passes the Host/Origin checks (guard.ts); then every route but
 * `GET /health` and `GET /openapi.json` needs `Authorization: Bearer <token>` when a token is set:
 *   GET  /health                       {ok, moots, loaded, running}
 *   GET  /openapi.json                 the API as OpenAPI 3.1 (openapi.ts)
 *   POST /query {text, corpus, k}      {hits}, exactly as WorkerClient.query returns them
 *   GET  /books                        {books: [{key, title, author, genre, passages}]}
 *   POST /moots {keys, topic, turns, k, model?}   {id, trees}
 *   POST /moots/:id/turns              the next utterance (grounding, snaps)
 *   GET  /moots/:id                    the transcript (Transcript.toDict) and {id, done}
 *   GET  /moots/:id/events             the moot's turns as they are spoken, server-sent events (moot-events.ts)
 *   DELETE /moots/:id                  {deleted: id}, at once even while a turn runs (that turn then answers 404)
 *   GET  /schema/NAME?search=T|term=T  a schema's classes and properties: a search, or one term described (explore-schema.ts)
 *   POST /sparql/run                   check a query, then run it on an --endpoint or --graph (run-sparql.ts)
 *   POST /quotes/verify  /sparql/check  /graph/index  /graph/critique  /graph/render
 *        /fragments  /citations/resolve
 *   GET  /  /assets/F  /moots  /books/passages  /histories…   POST /passages/show  /locate   the page (page.ts)
 *   POST /mcp                          the MCP tools over Streamable HTTP (stateless; GET, DELETE and the rest: 405)
 */
import { Hono, type Context } from "hono";
import { bodyLimit } from "hono/body-limit";
import type { CheckContext } from "./checks.js";
import { runCheck } from "./pool.js";
import { GroundwireError } from "../errors.js";
import { escapeMessage } from "../cli/common.js";
import { badRequest, errorLogLine, errorResponse, HttpError, TurnTimeoutError } from "./errors.js";
import { json } from "./json-body.js";
import { bearerTokenAuth, corsFor, hostOriginGuard, type GuardOptions } from "./guard.js";
import { allowedHostsFor } from "./hosts.js";
import { requestLog } from "./log.js";
import { openApiDocument } from "./openapi.js";
import { requestId } from "./request-id.js";
import { registerPage, registerPageApi, type History, type PageFiles } from "./page.js";
import { createMootEvents, type MootStreamOptions } from "./moot-events.js";
import type { Logger } from "pino";
import type { MootStore } from "./moot-store.js";
import {
  citationsResolveBodySchema,
  fragmentsBodySchema,
  graphCritiqueBodySchema,
  graphIndexBodySchema,
  graphRenderBodySchema,
  mootCreateBodySchema,
  queryBodySchema,
  sparqlCheckBodySchema,
  sparqlRunBodySchema,
  exploreSchemaInputSchema,
  verifyQuotesBodySchema,
} from "./schemas.js";

import { SERVE_DEFAULTS } from "./defaults.js";

export { SERVE_DEFAULTS };

/** Settings of {@link createServerApp}. */
export interface ServerAppOptions extends CheckContext {
  moots: MootStore;
  /** Bearer token every route but /health and /openapi.json requires; null leaves the server open. */
  token: string | null;
  /** Host/Origin checks and CORS (guard.ts); default: the loopback host names, no CORS origin. */
  guard?: GuardOptions;
  /** The request log (log.ts): one line per request; absent or null: none. */
  requestLogger?: Logger | null;
  maxBodyBytes?: number;
  turnTimeoutMs?: number;
  /** Server version reported by /health and the MCP handshake. */
  version: string;
  /** Where unexpected errors (500) are reported with their stack; never sent to the client. */
  log?: (message: string) => void;
  /** The web page's files (page.ts loadPageFiles) served at `/`, and the `--history` folders it shows. */
  page?: { files: PageFiles | null; histories: readonly History[] };
  /** Bounds of `GET /moots/:id/events` (moot-events.ts), and the signal that ends every stream at shutdown. */
  streams?: MootStreamOptions & { shutdown?: AbortSignal };
}

/** Race a moot turn against the per-request time; the turn itself goes on and is saved (and shown) when it lands. */
function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new TurnTimeoutError(ms)), ms);
  });
  work.catch(() => {});
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/**
 * The Hono app of `groundwire serve` (serve it with `@hono/node-server`, or call
 * `app.fetch(request)` directly).
 */
export function createServerApp(options: ServerAppOptions): Hono {
  const app = new Hono();
  const ctx: CheckContext = { corpus: options.corpus, graphs: options.graphs, schemas: options.schemas, limits: options.limits, runner: options.runner, libraryInStore: options.libraryInStore, endpoints: options.endpoints };
  // a check's answer is JSON text already (made and bounded where the check ran: pool.ts)
  const jsonText = (c: Context, text: string) => c.body(text, 200, { "content-type": "application/json" });
  const maxBody = options.maxBodyBytes ?? SERVE_DEFAULTS.maxBodyBytes;
  const turnTimeout = options.turnTimeoutMs ?? SERVE_DEFAULTS.turnTimeoutMs;

  app.use("*", requestId());
  app.onError((error, c) => {
    const answer = errorResponse(error, c.get("requestId"));
    const line = errorLogLine(error, answer, `${c.req.method} ${c.req.path}`);
    if (line !== null) options.log?.(line);
    const { status, code, message } = answer;
    if (status === 401) c.header("WWW-Authenticate", 'Bearer realm="groundwire"');
    if (error instanceof GroundwireError && error.retryAfter !== undefined) c.header("Retry-After", String(error.retryAfter));
    else if ((status === 429 && code !== "too_many_moots") || status === 503) c.header("Retry-After", "1");
    // The rest of an oversize body is never read: the connection cannot carry another request,
    // so say so (a keep-alive client would otherwise send its next request into a closing socket).
    if (status === 413) c.header("Connection", "close");
    return c.json({ error: { code, message, requestId: answer.requestId } }, status);
  });
  app.notFound((c) => c.json({ error: { code: "not_found", message: escapeMessage(`no route ${c.req.method} ${c.req.path}`), requestId: c.get("requestId") } }, 404));

  // before every route (after the request id, registered first): the request log, the Host/Origin checks, CORS
  const guard = options.guard ?? { allowedHosts: allowedHostsFor("127.0.0.1", []), corsOrigins: [] };
  if (options.requestLogger) app.use("*", requestLog(options.requestLogger));
  app.use("*", hostOriginGuard(guard));
  const cors = corsFor(guard.corsOrigins);
  if (cors) app.use("*", cors);

  // open without a token (load balancers probe /health; the document holds no secret), Host-checked all the same
  app.get("/health", async (c) => c.json({ ok: true, version: options.version, moots: (await options.moots.ids()).length, loaded: options.moots.loaded, running: options.moots.running }));
  // built on first request: the zod → JSON Schema conversion is ~0.1 s of a server's start
  let openApi: string | undefined;
  app.get("/openapi.json", (c) => {
    openApi ??= JSON.stringify(openApiDocument({ version: options.version, auth: Boolean(options.token) }));
    return c.body(openApi, 200, { "content-type": "application/json" });
  });
  if (options.page) registerPage(app, options.page.files);

  if (options.token) app.use("*", bearerTokenAuth(options.token));
  app.use(
    "*",
    bodyLimit({
      maxSize: maxBody,
      onError: () => {
        throw new HttpError(413, "too_large", `the request body is larger than ${maxBody} bytes (--max-body)`);
      },
    }),
  );

  // retrieval: the seed's worker API
  app.post("/query", json(queryBodySchema), async (c) => jsonText(c, await runCheck(ctx, "searchBook", c.req.valid("json"))));
  app.get("/books", (c) => c.json({ books: options.corpus.books() }));

  // live moots
  app.post("/moots", json(mootCreateBodySchema), async (c) => {
    const body = c.req.valid("json");
    for (const key of body.keys) options.corpus.resolve(key);
    const { id, moot } = await options.moots.create({ keys: body.keys, topic: body.topic ?? null, turns: body.turns, k: body.k, model: body.model });
    return c.json({ id, trees: moot.transcript!.trees, turns: moot.turns }, 201);
  });
  // turns are spoken through the event streams' hub, which tells GET /moots/:id/events (moot-events.ts)
  const events = createMootEvents(options.moots, options.streams, options.streams?.shutdown);
  app.post("/moots/:id/turns", async (c) => c.json(await withTimeout(events.turn(c.req.param("id")), turnTimeout)));
  app.get("/moots/:id", async (c) => {
    const id = c.req.param("id");
    const moot = await options.moots.get(id);
    return c.json({ id, done: moot.done, ...moot.transcript!.toDict() });
  });
  app.delete("/moots/:id", async (c) => {
    const id = c.req.param("id");
    await options.moots.delete(id);
    events.deleted(id);
    return c.json({ deleted: id });
  });

  // the checks, one route per part, each run off the event loop when the server has a pool (pool.ts)
  app.post("/quotes/verify", json(verifyQuotesBodySchema), async (c) => jsonText(c, await runCheck(ctx, "verifyQuotes", c.req.valid("json"))));
  app.post("/sparql/check", json(sparqlCheckBodySchema), async (c) => jsonText(c, await runCheck(ctx, "checkSparql", c.req.valid("json"))));
  app.post("/sparql/run", json(sparqlRunBodySchema), async (c) => jsonText(c, await runCheck(ctx, "runSparql", c.req.valid("json"))));
  app.get("/schema/:name", async (c) => {
    const parsed = exploreSchemaInputSchema.safeParse({ ...c.req.query(), schema: c.req.param("name") });
    if (!parsed.success) throw badRequest("query", parsed.error);
    return jsonText(c, await runCheck(ctx, "exploreSchema", parsed.data));
  });
  app.post("/graph/index", json(graphIndexBodySchema), async (c) => jsonText(c, await runCheck(ctx, "indexGraph", c.req.valid("json"))));
  app.post("/graph/critique", json(graphCritiqueBodySchema), async (c) => jsonText(c, await runCheck(ctx, "critiqueGraph", c.req.valid("json"))));
  app.post("/graph/render", json(graphRenderBodySchema), async (c) => jsonText(c, await runCheck(ctx, "renderGraph", c.req.valid("json"))));
  app.post("/fragments", json(fragmentsBodySchema), async (c) => jsonText(c, await runCheck(ctx, "fragmentDocumentBody", c.req.valid("json"))));
  app.post("/citations/resolve", json(citationsResolveBodySchema), async (c) => jsonText(c, await runCheck(ctx, "resolveCitations", c.req.valid("json"))));

  registerPageApi(app, ctx, options.page?.histories ?? [], options.moots);
  events.register(app);

  // MCP over Streamable HTTP, stateless: one server and transport per request (mcp-http.ts). The
  // MCP SDK (and the JSON Schema validator it brings) loads at the first request to /mcp, not at
  // every start of a server that may never be asked.
  let mcpHttp: Promise<typeof import("./mcp-http.js")> | undefined;
  app.all("/mcp", async (c) => {
    mcpHttp ??= import("./mcp-http.js");
    const { handleMcpRequest } = await mcpHttp;
    return handleMcpRequest(c.req.raw, { ctx, version: options.version, log: options.log });
  });
  return app;
}
