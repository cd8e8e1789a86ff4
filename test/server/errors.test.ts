// One error hierarchy (issue 30, item 4): every error class the package exports, and the
// server's own, is a GroundwireError with a stable snake_case code and an HTTP status, every
// code is in the docs' table; the server, the MCP tools and the CLI map errors by it. Real
// server (dist/cli.js serve) and real MCP client over stdio for the answers.
// npm test sends the block over MAX_MICROMARK_LENGTH as one long line; npm run test:deep
// (test/depth.ts) also as 250,000 short lines (the same size, and seconds of the check's time).
import { readFileSync, existsSync } from "node:fs";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as pkg from "../../ts/node.js";
import { GroundwireError } from "../../ts/errors.js";
import * as serverErrors from "../../ts/server/errors.js";
import * as checks from "../../ts/server/checks.js";
import * as mootStore from "../../ts/server/moot-store.js";
import * as pool from "../../ts/server/pool.js";
import * as mootEvents from "../../ts/server/moot-events.js";
import * as pgStore from "../../ts/store/pg.js";
import * as cliCommon from "../../ts/cli/common.js";
import { errorLogLine, errorResponse, toolErrorText } from "../../ts/server/errors.js";
import { call, CLI, ROOT, startServer, type RunningServer } from "./serve-process.js";
import { spread } from "../depth.js";

const DOCS = readFileSync(new URL("../../docs/serving.md", import.meta.url), "utf8");

/** The `### Error codes` table of docs/serving.md: code → {status, classes}. */
function docsTable(): Map<string, { status: number; classes: string }> {
  const section = DOCS.slice(DOCS.indexOf("### Error codes"));
  const rows = new Map<string, { status: number; classes: string }>();
  for (const line of section.split("\n").slice(1)) {
    if (line.startsWith("#")) break;
    const m = /^\| `([a-z_]+)` \| (\d{3}) \| ([^|]*) \|/.exec(line);
    if (m) rows.set(m[1]!, { status: Number(m[2]), classes: m[3]! });
  }
  return rows;
}

/** One instance of each error class, built as the library builds it (the constructors take different fields). */
const SAMPLES: Record<string, () => Error> = {
  GroundwireError: () => new GroundwireError("x"),
  CanonicalizationLimitError: () => new pkg.CanonicalizationLimitError(2, "x"),
  CanonicalizationInputError: () => new pkg.CanonicalizationInputError("x"),
  ArgumentError: () => new pkg.ArgumentError("f", "x", "a string", null),
  CitationFormatError: () => new pkg.CitationFormatError("v", "x"),
  CorpusError: () => new pkg.CorpusError("x"),
  CritiqueFormatError: () => new pkg.CritiqueFormatError("x"),
  DocumentTooLargeError: () => new pkg.DocumentTooLargeError("f", 10, 5),
  EmptyReplyError: () => new pkg.EmptyReplyError("t"),
  EndpointError: () => new pkg.EndpointError("x", "status", "http://h/", 500),
  EntriesIndexError: () => new pkg.EntriesIndexError("x"),
  GoalError: () => new pkg.GoalError("x"),
  HandleError: () => new pkg.HandleError("n9", "node", ["n1"]),
  InputFileError: () => new pkg.InputFileError("f", "no such file", "ENOENT"),
  MarkdownNestingError: () => new pkg.MarkdownNestingError(3),
  MarkdownSizeError: () => new pkg.MarkdownSizeError(1, 10),
  MemDSLParseError: () => new pkg.MemDSLParseError(1, 1, "x"),
  MootError: () => new pkg.MootError("x"),
  OutputFileError: () => new pkg.OutputFileError("f", "it is a directory"),
  PlanError: () => new pkg.PlanError("x"),
  QuoteSearchTimeoutError: () => new pkg.QuoteSearchTimeoutError(10, 11, 1, 2, "words", 0.8, 0.5, 5),
  QuoteTooLongError: () => new pkg.QuoteTooLongError(300, 1000, "MAX_QUOTE_WORDS", 200, "locate"),
  RdfParseError: () => new pkg.RdfParseError("g.ttl", 1, 2, "x"),
  SameBookError: () => new pkg.SameBookError("a/b"),
  SparqlIriError: () => new pkg.SparqlIriError("http://x y"),
  SparqlTermError: () => new pkg.SparqlTermError("variable name", "x }"),
  SparqlNestingError: () => new pkg.SparqlNestingError(1, 1, 48),
  QueryRefusedError: () => new pkg.QueryRefusedError({ context: [], errors: [], warnings: [], openGoals: ["answer ?c is not bound"], sparql: "" }),
  SparqlStoreError: () => new pkg.SparqlStoreError("x", "s"),
  GraphStoreError: () => new pkg.GraphStoreError("x", { status: 502 }),
  SparqlSyntaxError: () => new pkg.SparqlSyntaxError(1, 1, "x"),
  SynthesizerError: () => new pkg.SynthesizerError("x", "http://h/"),
  TranscriptFormatError: () => new pkg.TranscriptFormatError("x"),
  TripleIndexDriftError: () => new pkg.TripleIndexDriftError("a", "b"),
  UnknownBookError: () => new pkg.UnknownBookError("a/b", []),
  UnknownFocusError: () => new pkg.UnknownFocusError("f", "g"),
  UnsupportedFormatError: () => new pkg.UnsupportedFormatError("application/pdf"),
  WorkerError: () => new pkg.WorkerError("x", "http://h/"),
  // the server's and the CLI's own
  HttpError: () => new serverErrors.HttpError(415, "unsupported_media_type", "x"),
  TurnTimeoutError: () => new serverErrors.TurnTimeoutError(10),
  NotFoundError: () => new checks.NotFoundError("x"),
  DriftError: () => new checks.DriftError("a", "b"),
  BusyError: () => new mootStore.BusyError("x"),
  MootConflictError: () => new mootStore.MootConflictError("x"),
  WorkLimitError: () => new pkg.WorkLimitError("maxTriples", 10, "x"),
  StoreError: () => new pgStore.StoreError("x"),
  StoreSchemaError: () => new pgStore.StoreSchemaError("x"),
  StoreUrlError: () => new pgStore.StoreUrlError("x"),
  ChecksBusyError: () => new pool.ChecksBusyError(4),
  TooManyMootsError: () => new mootStore.TooManyMootsError(3),
  TooManyStreamsError: () => new mootEvents.TooManyStreamsError(64),
  MootStorageError: () => new mootStore.MootStorageError("save", Object.assign(new Error("x"), { code: "ENOSPC" })),
  CliError: () => new cliCommon.CliError("x", 2),
  HelpShown: () => new cliCommon.HelpShown(),
};

/** Every class a module exports whose instances are Errors. */
function errorClasses(module: Record<string, unknown>): Array<[string, Function]> {
  return Object.entries(module).filter(([, v]) => typeof v === "function" && (v === Error || (v as Function).prototype instanceof Error)) as Array<[string, Function]>;
}

describe("one error hierarchy", () => {
  const exported = [pkg, serverErrors, checks, mootStore, mootEvents, pool, pgStore, cliCommon].flatMap((m) => errorClasses(m as Record<string, unknown>));

  it("every error class the package (and the server, the CLI) exports is a GroundwireError with a snake_case code and a status", () => {
    expect(exported.length).toBeGreaterThan(35);
    for (const [name, cls] of exported) {
      expect(cls === GroundwireError || cls.prototype instanceof GroundwireError, `${name} extends GroundwireError`).toBe(true);
      expect(SAMPLES[name], `a sample of ${name} in this test`).toBeDefined();
      const error = SAMPLES[name]!() as GroundwireError;
      expect(error).toBeInstanceOf(cls);
      expect(error.name).toBe(name);
      expect(error.code, name).toMatch(/^[a-z_]+$/);
      expect(error.status, name).toBeGreaterThanOrEqual(400);
      expect(error.status, name).toBeLessThan(600);
    }
  });

  it("every code is in the docs' table, with its status, and names each class that carries it", () => {
    const table = docsTable();
    expect(table.size).toBeGreaterThan(8);
    for (const [name] of exported) {
      const error = SAMPLES[name]!() as GroundwireError;
      const row = table.get(error.code);
      expect(row, `\`${error.code}\` (${name}) in docs/serving.md ### Error codes`).toBeDefined();
      if (name !== "GroundwireError" && name !== "HelpShown") expect(row!.classes, `${name} under \`${error.code}\``).toContain(`\`${name}\``);
    }
    for (const [, row] of table) expect([400, 401, 403, 404, 405, 409, 413, 415, 422, 429, 500, 502, 503, 504, 507]).toContain(row.status);
  });

  it("the docs name no error class the package does not export", () => {
    const named = new Set([...DOCS.matchAll(/`([A-Z][A-Za-z]+Error)`/g)].map((m) => m[1]!));
    const known = new Set(exported.map(([name]) => name));
    for (const name of named) expect(known.has(name), `${name} named in docs/serving.md`).toBe(true);
    for (const name of ["InputFileError", "OutputFileError", "EndpointError", "GroundwireError"]) expect(Object.hasOwn(pkg, name), name).toBe(true);
  });

  it("the statuses of the former RangeErrors and the upstream failures", () => {
    expect(SAMPLES.QuoteTooLongError!()).toMatchObject({ status: 413, code: "too_large" });
    expect(SAMPLES.QuoteTooLongError!()).not.toBeInstanceOf(RangeError);
    expect(SAMPLES.DocumentTooLargeError!()).toMatchObject({ status: 413, code: "too_large" });
    expect(new pkg.EndpointError("x", "timeout", "http://h/")).toMatchObject({ status: 504, code: "timeout" });
    expect(new pkg.SynthesizerError("x", "http://h/", 503, "status")).toMatchObject({ status: 502, code: "upstream", upstreamStatus: 503 });
    expect(new pkg.InputFileError("f", "is 9 bytes, over the limit of 1 bytes", "TOOLARGE")).toMatchObject({ status: 413, code: "too_large", kind: "TOOLARGE" });
    expect(new pkg.OutputFileError("f", "no space left on the device", "ENOSPC")).toMatchObject({ status: 507, code: "no_space" });
  });

  it("errorResponse: a GroundwireError by its own status; anything else a 500 naming only the request id, logged with its stack", () => {
    const bad = errorResponse(new pkg.MarkdownNestingError(1001), "req-1");
    expect(bad).toEqual({ status: 422, code: "limit", message: "nesting deeper than 1,000 at line 1001", requestId: "req-1", serverFault: false });
    expect(errorLogLine(new pkg.MarkdownNestingError(1001), bad, "POST /fragments")).toBeNull();
    const bug = new TypeError("cannot read properties of undefined (reading 'x') at /srv/secret/path");
    const internal = errorResponse(bug, "req-2");
    expect(internal).toEqual({ status: 500, code: "internal", message: "internal error (request id req-2)", requestId: "req-2", serverFault: true });
    const line = errorLogLine(bug, internal, "POST /fragments")!;
    expect(line).toContain("internal error on POST /fragments (request id req-2): TypeError: cannot read properties");
    expect(line).toContain("\n    at ");
    // a 500 GroundwireError (an I/O fault) may name a server path: answered like any other 500
    expect(errorResponse(new pkg.OutputFileError("/srv/data/x.json", "EIO", "EIO"), "req-3").message).toBe("internal error (request id req-3)");
    // MCP tools: `code: message` for a 4xx, `internal: …` for the rest, the stack logged
    const logged: string[] = [];
    expect(toolErrorText(new pkg.MarkdownNestingError(1001), "fragment_markdown", (l) => logged.push(l))).toBe("limit: nesting deeper than 1,000 at line 1001");
    expect(logged).toEqual([]);
    expect(toolErrorText(bug, "fragment_markdown", (l) => logged.push(l))).toMatch(/^internal: internal error \(request id [0-9a-f-]{36}\)$/);
    expect(logged[0]).toMatch(/^internal error on tool fragment_markdown \(request id [0-9a-f-]{36}\): TypeError/);
  });
});

describe.skipIf(!existsSync(CLI))("the server answers bad input by class (dist/cli.js; run `npm run build` first)", () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer(["--max-body", "3000000", "--check-timeout", "120000"]);
  }, 60_000);
  afterAll(async () => server?.stop());

  it('"> " × 1001 to POST /fragments is a 422 naming the nesting limit, not a 500, and nothing is logged', async () => {
    const r = await call(server.url, "POST", "/fragments", { text: "> ".repeat(1001) });
    expect(r.status).toBe(422);
    expect(r.json.error).toEqual({ code: "limit", message: "nesting deeper than 1,000 at line 1", requestId: r.headers.get("x-request-id") });
    expect(r.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    // the same as a list nested 1001 deep
    const list = await call(server.url, "POST", "/fragments", { text: Array.from({ length: 1001 }, (_, i) => `${"  ".repeat(i)}- x`).join("\n") });
    expect(list.status).toBe(422);
    expect(list.json.error.code).toBe("limit");
    expect(server.stderr()).not.toMatch(/\n\s+at |internal error/);
  });

  it("a block only micromark reads, over its limit, is a 413 naming MAX_MICROMARK_LENGTH; an unparsable graph a 400", async () => {
    // an unclosed fence in a list item, 1,000,006 code units: one long line, and 250,000 short ones
    // (npm test: the line; npm run test:deep (test/depth.ts): both)
    for (const text of spread(["- ```\n  " + "x".repeat(999_997) + "\n", "- ```\n" + "  x\n".repeat(250_000)], 1)) {
      const r = await call(server.url, "POST", "/fragments", { text });
      expect(r.status).toBe(413);
      expect(r.json.error.code).toBe("too_large");
      expect(r.json.error.message).toMatch(/^a block of 1,000,006 UTF-16 code units at line 1 .*MAX_MICROMARK_LENGTH/);
    }
    const graph = await call(server.url, "POST", "/graph/index", { graph: { text: "<urn:s> <urn:p> ." } });
    expect(graph.status).toBe(400);
    expect(graph.json.error.code).toBe("bad_request");
    // SPARQL nested past MAX_SPARQL_NESTING (48): a 422 at the first bracket past it
    const schema = { text: "@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> . <urn:C> a rdfs:Class ." };
    const sparql = await call(server.url, "POST", "/sparql/check", { query: `SELECT * WHERE ${"{".repeat(100)}${"}".repeat(100)}`, schema });
    expect(sparql.status).toBe(422);
    expect(sparql.json.error).toMatchObject({ code: "limit", message: "SPARQL syntax error at line 1, column 64: nesting deeper than 48 at line 1" });
    expect(server.stderr()).not.toMatch(/\n\s+at |internal error/);
  });

  it("every answer carries X-Request-Id: a well-formed one the client sent, else a new UUID", async () => {
    const health = await fetch(`${server.url}/health`);
    expect(health.headers.get("x-request-id")).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const mine = await call(server.url, "POST", "/fragments", { text: "> ".repeat(1001) }, { "x-request-id": "client.req_42-A" });
    expect(mine.headers.get("x-request-id")).toBe("client.req_42-A");
    expect(mine.json.error.requestId).toBe("client.req_42-A");
    for (const hostile of ["a b", "x".repeat(65), "id;rm", "a%0Ab", "{}"]) {
      const r = await call(server.url, "GET", "/nowhere", undefined, { "x-request-id": hostile });
      expect(r.status).toBe(404);
      expect(r.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
      expect(r.json.error.requestId).toBe(r.headers.get("x-request-id"));
    }
    const mcp = await fetch(`${server.url}/mcp`, { method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream" }, body: '{"jsonrpc":"2.0","id":1,"method":"ping"}' });
    expect(mcp.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe.skipIf(!existsSync(CLI))("MCP tools answer bad input by class (groundwire mcp over stdio)", () => {
  const client = new Client({ name: "groundwire-test", version: "1.0.0" });
  let stderr = "";
  beforeAll(async () => {
    const transport = new StdioClientTransport({ command: process.execPath, args: [CLI, "mcp"], cwd: ROOT, stderr: "pipe" });
    transport.stderr!.on("data", (chunk) => (stderr += chunk));
    await client.connect(transport);
  }, 60_000);
  afterAll(async () => client.close());

  it('fragment_markdown with "> " × 1001 is `limit: …`, not `internal: internal error`, and logs nothing', async () => {
    const r = (await client.callTool({ name: "fragment_markdown", arguments: { text: "> ".repeat(1001) } })) as { isError?: boolean; content: Array<{ text?: string }> };
    expect(r.isError).toBe(true);
    expect(r.content[0]!.text).toBe("limit: nesting deeper than 1,000 at line 1");
    const book = (await client.callTool({ name: "search_book", arguments: { text: "x", book: "novel/nope" } })) as { isError?: boolean; content: Array<{ text?: string }> };
    expect(book.content[0]!.text).toMatch(/^not_found: unknown book "novel\/nope"/);
    expect(stderr).not.toMatch(/\n\s+at |internal error/);
  });
});
