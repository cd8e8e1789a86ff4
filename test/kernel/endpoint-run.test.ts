// run_sparql and POST /sparql/run through the real server (dist/cli.js serve) and the real MCP
// server (dist/cli.js mcp, the SDK's client), on the embedded Oxigraph store over the olympics
// graph and, when the global setup started one (test/kernel/virtuoso-setup.ts), on a real
// Virtuoso holding the same graph: good, ill-typed, open-goal, too-large, timing-out queries,
// an endpoint that is down, and a token that never reaches a message.
import { existsSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, CLI, ROOT, startServer, type RunningServer } from "../server/serve-process.js";
import { freePort } from "../free-port.js";
import { virtuosoReady } from "./virtuoso-ready.js";

const OLYMPICS = fileURLToPath(new URL("../../data/kernel/olympics.ttl", import.meta.url));
// the global setup starts Virtuoso without waiting for it: wait here, before reading its URL
await virtuosoReady();
const VIRTUOSO = process.env.GROUNDWIRE_TEST_SPARQL_URL;
const SECRET = "endpoint-secret-7f3a9c";
const tokenDir = mkdtempSync(join(tmpdir(), "groundwire-endpoint-token-"));
const TOKEN_FILE = join(tokenDir, "token");
writeFileSync(TOKEN_FILE, `${SECRET}\n`);

const PREFIX = "PREFIX ex: <http://example.org/olympics/>\n";
const WINTER_1952 = `${PREFIX}SELECT ?c WHERE { ?c ex:hosted ?g . ?g ex:year 1952 ; ex:season "Winter" }`;
const GOAL = { answer: ["?c"], kind: "entity", type: "ex:City" };


if (!VIRTUOSO) console.log("note: no test Virtuoso (GROUNDWIRE_TEST_SPARQL_URL): the endpoint suite runs on the embedded Oxigraph store only");

/** Where each suite runs: the embedded store always, Virtuoso when the global setup started one. */
const targets: { label: string; where: Record<string, string> }[] = [{ label: "embedded Oxigraph (--graph)", where: { graph: "olympics" } }];
if (VIRTUOSO) targets.push({ label: "Virtuoso (--endpoint)", where: { endpoint: "virtuoso" } });

describe.skipIf(!existsSync(CLI))("POST /sparql/run (dist/cli.js serve)", () => {
  let server: RunningServer;
  let closedPort = 0;
  beforeAll(async () => {
    closedPort = await freePort();
    const endpoints = VIRTUOSO ? ["--endpoint", `virtuoso=${VIRTUOSO}`] : [];
    server = await startServer(["--graph", `olympics=${OLYMPICS}`, "--schema", `olympics=${OLYMPICS}`, ...endpoints, "--endpoint", `down=http://127.0.0.1:${closedPort}/sparql`, "--endpoint-token-file", TOKEN_FILE, "--check-timeout", "8000", "--quiet"]);
  }, 60_000);
  afterAll(async () => server?.stop());
  const run = (body: Record<string, unknown>) => call(server.url, "POST", "/sparql/run", { schema: { name: "olympics" }, ...body });

  describe.each(targets)("on $label", ({ where }) => {
    it("runs a query that passes: the rows as SPARQL JSON, a table, the count", async () => {
      const r = await run({ ...where, query: WINTER_1952, goal: GOAL });
      expect(r.status).toBe(200);
      expect(r.json.results.head.vars).toEqual(["c"]);
      expect(r.json.results.results.bindings).toEqual([{ c: { type: "uri", value: "http://example.org/olympics/Oslo" } }]);
      expect(r.json.count).toBe(1);
      expect(r.json.truncated).toBe(false);
      expect(r.json.table).toBe("?c\n-------\nex:Oslo\n1 row\n");
      expect(r.json.context).toEqual(["?c : ex:City", "?g : ex:OlympicGames"]);
      // the limit is written into the parsed query, one row over the limit asked
      expect(r.json.sent).toMatch(/\nLIMIT 101\n$/);
    });

    it("refuses an ill-typed query with its diagnostics and runs nothing", async () => {
      const r = await run({ ...where, query: `${PREFIX}SELECT ?c WHERE { ?c ex:hosts ?g . ?g ex:year 1952 }`, goal: GOAL });
      expect(r.status).toBe(422);
      expect(r.json.error.code).toBe("refused");
      expect(r.json.error.message).toContain("the plan has 1 error and 1 open goal; nothing was run");
      expect(r.json.error.message).toContain("unknown property ex:hosts (did you mean ex:hosted?) (line 2, column 22)");
    });

    it("refuses a query with an open goal", async () => {
      const r = await run({ ...where, query: `${PREFIX}SELECT ?g WHERE { ?c ex:hosted ?g }`, goal: GOAL });
      expect(r.status).toBe(422);
      expect(r.json.error.message).toContain("0 errors and 2 open goals");
      expect(r.json.error.message).toContain("answer ?c is not projected");
    });

    it("cuts a large answer at the limit and says so; a plan's own smaller LIMIT is kept", async () => {
      const all = await run({ ...where, query: `${PREFIX}SELECT ?g ?y WHERE { ?g ex:year ?y } ORDER BY ?y`, limit: 5 });
      expect(all.status).toBe(200);
      expect(all.json.count).toBe(5);
      expect(all.json.truncated).toBe(true);
      expect(all.json.sent).toContain("LIMIT 6");
      expect(all.json.results.results.bindings.map((b: any) => Number(b.y.value))).toEqual([1900, 1924, 1924, 1952, 1964]);
      expect(all.json.table).toContain("5 rows (cut at the limit: the store has more)");
      const own = await run({ ...where, query: `${PREFIX}SELECT ?g WHERE { ?g ex:year ?y } LIMIT 3`, limit: 5 });
      expect(own.json.count).toBe(3);
      expect(own.json.truncated).toBe(false);
      expect(own.json.sent).toContain("LIMIT 3");
    });

    it("answers an ASK with its boolean", async () => {
      const r = await run({ ...where, query: `${PREFIX}ASK { ex:Oslo ex:hosted ?g . ?g ex:season "Winter" }` });
      expect(r.status).toBe(200);
      expect(r.json.results.boolean).toBe(true);
      expect(r.json.table).toBe("true\n");
    });

    it("GET /schema/NAME describes a term with example triples from the store, and searches", async () => {
      const r = await call(server.url, "GET", `/schema/olympics?${new URLSearchParams({ term: "ex:hosted", ...where, limit: "5" })}`);
      expect(r.status).toBe(200);
      expect(r.json.term).toMatchObject({ kind: "property", domains: ["ex:City"], ranges: ["ex:OlympicGames"] });
      expect(r.json.term.examples).toHaveLength(5);
      expect(r.json.text).toMatch(/^property ex:hosted\n  kind: object property \(an entity\)\n  domain: ex:City\n  range: ex:OlympicGames\n/);
      const found = await call(server.url, "GET", `/schema/olympics?${new URLSearchParams({ search: "olympic" })}`);
      expect(found.json.hits.map((h: any) => h.name)).toEqual(["ex:OlympicGames"]);
    });

    it("refuses SERVICE: a verified plan reads the store it was sent to", async () => {
      const r = await run({ ...where, query: `${PREFIX}SELECT ?c WHERE { SERVICE <http://127.0.0.1:9/sparql> { ?c ex:hosted ?g } }` });
      expect(r.status).toBe(422);
      expect(r.json.error.message).toContain("SERVICE is not run here");
    });
  });

  it.skipIf(!VIRTUOSO)("times out on Virtuoso past timeoutMs: 504 timeout", async () => {
    // a join on string values Virtuoso cannot index: tens of seconds (its estimate lets it start; the test ini stops it after 5 s)
    const slow = `${PREFIX}SELECT (COUNT(*) AS ?n) WHERE { ?a ?b ?c . ?d ?e ?f FILTER(STR(?c) = STR(?f)) }`;
    const r = await run({ endpoint: "virtuoso", query: slow, timeoutMs: 300 });
    expect(r.status).toBe(504);
    expect(r.json.error.code).toBe("timeout");
    expect(r.json.error.message).toMatch(/^timed out: the SPARQL endpoint http:\/\/127\.0\.0\.1:\d+\/sparql did not answer within 0\.3 s$/);
    expect(r.json.error.message).not.toContain(SECRET);
  });

  it("answers 502 upstream when the endpoint is down, naming it, never its token", async () => {
    const r = await run({ endpoint: "down", query: WINTER_1952 });
    expect(r.status).toBe(502);
    expect(r.json.error.code).toBe("upstream");
    expect(r.json.error.message).toContain(`http://127.0.0.1:${closedPort}/sparql`);
    expect(r.json.error.message).toContain("ECONNREFUSED");
    expect(r.json.error.message).not.toContain(SECRET);
    expect(server.stderr()).not.toContain(SECRET);
  });

  it("names the endpoints and graphs it holds when asked for another", async () => {
    const r = await run({ endpoint: "nowhere", query: WINTER_1952 });
    expect(r.status).toBe(404);
    expect(r.json.error.message).toMatch(/no endpoint named "nowhere" \(the server holds (virtuoso, )?down\)/);
  });

});

// A server of its own with a short check budget: the query below keeps its worker busy until the
// budget ends, and the suite above needs a budget generous enough for a loaded machine.
describe.skipIf(!existsSync(CLI))("POST /sparql/run on the embedded store, past the check's budget", () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer(["--graph", `olympics=${OLYMPICS}`, "--schema", `olympics=${OLYMPICS}`, "--check-timeout", "1000", "--quiet"]);
  }, 60_000);
  afterAll(async () => server?.stop());

  it("times out a query the embedded store cannot finish within the check's budget: 504 timeout", async () => {
    const slow = `${PREFIX}SELECT (COUNT(*) AS ?n) WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i . ?j ?k ?l . ?m ?o ?p }`;
    const r = await call(server.url, "POST", "/sparql/run", { schema: { name: "olympics" }, graph: "olympics", query: slow });
    expect(r.status).toBe(504);
    expect(r.json.error.code).toBe("timeout");
    expect(r.json.error.message).toContain("ran over the check's time budget of 1000 ms");
  });
});

describe.skipIf(!existsSync(CLI))("run_sparql over MCP (dist/cli.js mcp, the SDK's client)", () => {
  const client = new Client({ name: "groundwire-test", version: "1.0.0" });
  type Result = { isError?: boolean; structuredContent?: any; content: Array<{ type: string; text?: string }> };
  const tool = async (args: Record<string, unknown>) => (await client.callTool({ name: "run_sparql", arguments: { schema: { name: "olympics" }, ...args } })) as Result;
  beforeAll(async () => {
    const endpoints = VIRTUOSO ? ["--endpoint", `virtuoso=${VIRTUOSO}`, "--endpoint-token-file", TOKEN_FILE] : [];
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [CLI, "mcp", "--graph", `olympics=${OLYMPICS}`, "--schema", `olympics=${OLYMPICS}`, ...endpoints], cwd: ROOT, stderr: "pipe" }));
  }, 60_000);
  afterAll(async () => client.close());

  it("lists run_sparql as an open-world tool", async () => {
    const { tools } = await client.listTools();
    const t = tools.find((x) => x.name === "run_sparql")!;
    expect(t.annotations).toMatchObject({ readOnlyHint: true, openWorldHint: true });
  });

  it("explore_schema searches and describes, then run_sparql runs what it suggested", async () => {
    const hits = (await client.callTool({ name: "explore_schema", arguments: { schema: "olympics", search: "hostd" } })) as Result;
    expect(hits.structuredContent.hits[0]).toMatchObject({ name: "ex:hosted", match: "near" });
    const city = (await client.callTool({ name: "explore_schema", arguments: { schema: "olympics", term: "ex:City", graph: "olympics" } })) as Result;
    expect(city.structuredContent.text).toContain("superclasses: ex:Place");
    expect(city.structuredContent.term.examples).toHaveLength(5);
  });

  describe.each(targets)("on $label", ({ where }) => {
    it("runs a query that passes and refuses one that does not, with the plan state", async () => {
      const good = await tool({ ...where, query: WINTER_1952, goal: GOAL });
      expect(good.isError).toBeFalsy();
      expect(good.structuredContent.count).toBe(1);
      expect(good.structuredContent.table).toContain("ex:Oslo");
      const bad = await tool({ ...where, query: `${PREFIX}SELECT ?c WHERE { ?c ex:hosts ?g . ?g ex:year 1952 }`, goal: GOAL });
      expect(bad.isError).toBe(true);
      expect(bad.content[0]!.text).toMatch(/^refused: the plan has 1 error/);
      expect(bad.content[0]!.text).toContain("did you mean ex:hosted?");
    });
  });
});
