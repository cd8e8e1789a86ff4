/**
 * `groundwire serve` as a Hono app: JSON in and out, every body checked by its zod schema
 * (schemas.ts), every check the same function the MCP tools call (checks.ts), every error
 * mapped to a status in one place (errors.ts, through `app.onError`).
 *
 * Routes (all but `GET /health` need `Authorization: Bearer <token>` when a token is set):
 *   GET  /health                       {ok, moots, loaded, running}
 *   POST /query {text, corpus, k}      {hits}, exactly as WorkerClient.query returns them
 *   GET  /books                        {books: [{key, title, author, genre, passages}]}
 *   POST /moots {keys, topic, turns, k, model?}   {id, trees}
 *   POST /moots/:id/turns              the next utterance (grounding, snaps)
 *   GET  /moots/:id                    the transcript (Transcript.toDict) and {id, done}
 *   DELETE /moots/:id                  {deleted: id}, at once even while a turn runs (that turn then answers 404)
 *   POST /quotes/verify  /sparql/check  /graph/index  /graph/critique  /graph/render
 *        /fragments  /citations/resolve
 *   POST|GET|DELETE /mcp               the MCP tools over Streamable HTTP (stateless)
 */
import { Hono, type Context } from "hono";
import { bodyLimit } from "hono/body-limit";
import { bearerAuth } from "hono/bearer-auth";
import { validator } from "hono/validator";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import type { z } from "zod";
import {
  checkSparql,
  critiqueGraph,
  fragmentDocumentBody,
  indexGraph,
  renderGraph,
  resolveCitations,
  searchBook,
  verifyQuotes,
  type CheckContext,
} from "./checks.js";
import { escapeMessage } from "../cli/common.js";
import { GroundwireError } from "../errors.js";
import { badRequest, errorResponse, HttpError, TurnTimeoutError } from "./errors.js";
import { createMcpServer, guardMessageDepth } from "./mcp.js";
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
  verifyQuotesBodySchema,
} from "./schemas.js";

import { SERVE_DEFAULTS } from "./defaults.js";
import { formatLimit, MAX_JSON_DEPTH, valueTooDeep } from "../json-depth.js";

export { SERVE_DEFAULTS };

/** Settings of {@link createServerApp}. */
export interface ServerAppOptions extends CheckContext {
  moots: MootStore;
  /** Bearer token every route but /health requires; null leaves the server open. */
  token: string | null;
  maxBodyBytes?: number;
  turnTimeoutMs?: number;
  /** Server version reported by /health and the MCP handshake. */
  version: string;
  /** Where unexpected errors (500) are reported with their stack; never sent to the client. */
  log?: (message: string) => void;
}

/** The media types Hono's JSON validator parses (`application/json`, `application/*+json`, parameters allowed). */
const JSON_CONTENT_TYPE_RE = /^application\/([a-z0-9.+-]+\+)?json\s*(;|$)/i;

/**
 * Validate a JSON body with `schema`; a failure is a 400 naming the field. A body
 * sent with another Content-Type is a 415: Hono's validator would otherwise hand the
 * schema `{}` and the client would read a misleading "keys: … received undefined".
 */
const json = <S extends z.ZodType>(schema: S) =>
  validator("json", (value, c): z.infer<S> => {
    const type = c.req.header("content-type") ?? "";
    if (!JSON_CONTENT_TYPE_RE.test(type)) {
      throw new HttpError(415, "unsupported_media_type", `the request body must be Content-Type: application/json, got ${type ? JSON.stringify(type.slice(0, 100)) : "none"}`);
    }
    // zod's walk recurses: a body nested ~10,000 deep would overflow the stack and answer
    // "Maximum call stack size exceeded", naming nothing. Refuse it first, naming the field.
    if (valueTooDeep(value)) {
      const field = value !== null && typeof value === "object" && !Array.isArray(value) ? Object.keys(value).find((k) => valueTooDeep((value as Record<string, unknown>)[k], MAX_JSON_DEPTH - 1)) : undefined;
      throw new HttpError(400, "bad_request", `${field ?? "body"}: nested deeper than ${formatLimit(MAX_JSON_DEPTH)} levels of arrays and objects`);
    }
    const parsed = schema.safeParse(value);
    if (!parsed.success) throw badRequest("body", parsed.error);
    return parsed.data;
  });

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
  const ctx: CheckContext = { corpus: options.corpus, graphs: options.graphs, schemas: options.schemas };
  const maxBody = options.maxBodyBytes ?? SERVE_DEFAULTS.maxBodyBytes;
  const turnTimeout = options.turnTimeoutMs ?? SERVE_DEFAULTS.turnTimeoutMs;

  app.onError((error, c) => {
    const { status, code, message } = errorResponse(error);
    if (status === 500) options.log?.(`internal error on ${c.req.method} ${c.req.path}: ${(error as Error).stack ?? error}`);
    if (status === 401) c.header("WWW-Authenticate", 'Bearer realm="groundwire"');
    if (error instanceof GroundwireError && error.retryAfter !== undefined) c.header("Retry-After", String(error.retryAfter));
    else if (status === 429 && code !== "too_many_moots") c.header("Retry-After", "1");
    // The rest of an oversize body is never read: the connection cannot carry another request,
    // so say so (a keep-alive client would otherwise send its next request into a closing socket).
    if (status === 413) c.header("Connection", "close");
    return c.json({ error: { code, message } }, status);
  });
  app.notFound((c) => c.json({ error: { code: "not_found", message: escapeMessage(`no route ${c.req.method} ${c.req.path}`) } }, 404));

  app.get("/health", async (c) => c.json({ ok: true, version: options.version, moots: (await options.moots.ids()).length, loaded: options.moots.loaded, running: options.moots.running }));

  if (options.token) app.use("*", bearerAuth({ token: options.token }));
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
  app.post("/query", json(queryBodySchema), async (c) => c.json(await searchBook(ctx, c.req.valid("json"))));
  app.get("/books", (c) => c.json({ books: options.corpus.books() }));

  // live moots
  app.post("/moots", json(mootCreateBodySchema), async (c) => {
    const body = c.req.valid("json");
    for (const key of body.keys) options.corpus.resolve(key);
    const { id, moot } = await options.moots.create({ keys: body.keys, topic: body.topic ?? null, turns: body.turns, k: body.k, model: body.model });
    return c.json({ id, trees: moot.transcript!.trees, turns: moot.turns }, 201);
  });
  app.post("/moots/:id/turns", async (c) => {
    const id = c.req.param("id");
    await options.moots.get(id);
    return c.json(await withTimeout(options.moots.turn(id), turnTimeout));
  });
  app.get("/moots/:id", async (c) => {
    const id = c.req.param("id");
    const moot = await options.moots.get(id);
    return c.json({ id, done: moot.done, ...moot.transcript!.toDict() });
  });
  app.delete("/moots/:id", async (c) => {
    const id = c.req.param("id");
    await options.moots.delete(id);
    return c.json({ deleted: id });
  });

  // the checks, one route per part
  app.post("/quotes/verify", json(verifyQuotesBodySchema), (c) => c.json(verifyQuotes(ctx, c.req.valid("json"))));
  app.post("/sparql/check", json(sparqlCheckBodySchema), (c) => c.json(checkSparql(ctx, c.req.valid("json"))));
  app.post("/graph/index", json(graphIndexBodySchema), (c) => c.json(indexGraph(ctx, c.req.valid("json"))));
  app.post("/graph/critique", json(graphCritiqueBodySchema), (c) => c.json(critiqueGraph(ctx, c.req.valid("json"))));
  app.post("/graph/render", json(graphRenderBodySchema), (c) => c.json(renderGraph(ctx, c.req.valid("json"))));
  app.post("/fragments", json(fragmentsBodySchema), (c) => c.json(fragmentDocumentBody(ctx, c.req.valid("json"))));
  app.post("/citations/resolve", json(citationsResolveBodySchema), (c) => c.json(resolveCitations(ctx, c.req.valid("json"))));

  // MCP over Streamable HTTP, stateless: one server and transport per request
  const mcp = async (c: Context) => {
    const server = createMcpServer(ctx, options.version);
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    await server.connect(transport);
    guardMessageDepth(transport);
    try {
      return await transport.handleRequest(c.req.raw);
    } finally {
      void server.close();
    }
  };
  app.on(["GET", "POST", "DELETE"], "/mcp", mcp);
  return app;
}
