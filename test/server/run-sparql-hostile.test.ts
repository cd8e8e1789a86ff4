// run_sparql through the real server (dist/cli.js serve, 2 check workers) against the hostile
// endpoint of test/kernel/hostile-endpoint.ts: endpoints that never answer must not stall the
// server (while three of them wait, /health, a check_sparql over HTTP and one over /mcp all
// answer before any of the three ends), and an endpoint that echoes the server's bearer token
// (read from --endpoint-token-file) in its 401 body never puts it in an answer or the log.
// npm test runs the two silent-endpoint tests at the same time (their seconds are waits on the
// endpoint's timeouts, and neither holds a check place or a worker); npm run test:deep
// (test/depth.ts) one after the other.
import { mkdtempSync, writeFileSync } from "node:fs";
import { existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, CLI, startServer, TEST_TOKEN, type RunningServer } from "./serve-process.js";
import { HOSTILE_SECRET, startHostileEndpoint, type HostileEndpoint } from "../kernel/hostile-endpoint.js";
import { DEEP } from "../depth.js";

const OLYMPICS = fileURLToPath(new URL("../../data/kernel/olympics.ttl", import.meta.url));
const PREFIX = "PREFIX ex: <http://example.org/olympics/>\n";
const CITIES = `${PREFIX}SELECT ?c WHERE { ?c ex:hosted ?g }`;

describe.skipIf(!existsSync(CLI))("run_sparql against hostile endpoints (dist/cli.js serve)", () => {
  let hostile: HostileEndpoint;
  let server: RunningServer;
  beforeAll(async () => {
    hostile = await startHostileEndpoint();
    const dir = mkdtempSync(join(tmpdir(), "groundwire-hostile-token-"));
    writeFileSync(join(dir, "token"), `${HOSTILE_SECRET}\n`);
    const endpoint = (name: string, path: string) => ["--endpoint", `${name}=${hostile.base}/${path}`];
    server = await startServer([
      "--graph", `olympics=${OLYMPICS}`, "--schema", `olympics=${OLYMPICS}`,
      ...endpoint("silent", "silent"), ...endpoint("echo401", "echo-401"), ...endpoint("echo500", "echo-500"), ...endpoint("many", "many-rows"), ...endpoint("hundred", "hundred-rows"), ...endpoint("junk", "junk-rows"),
      "--endpoint-token-file", join(dir, "token"), "--check-workers", "2", "--max-checks", "8", "--quiet",
    ]);
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
    await hostile?.close();
  });
  const run = (body: Record<string, unknown>) => call(server.url, "POST", "/sparql/run", { schema: { name: "olympics" }, query: CITIES, ...body });
  /** Requests sent to the silent endpoint so far, by every test: all have arrived when it holds as many. */
  let silentSent = 0;
  const silentIt = DEEP ? it : it.concurrent;

  silentIt("three run_sparql waiting on a silent endpoint (more than the 2 workers) stall neither /health, nor check_sparql over HTTP, nor an MCP call", async ({ expect }) => {
    let ended = 0;
    silentSent += 3;
    const slow = [1, 2, 3].map(() => run({ endpoint: "silent", timeoutMs: 4_000 }).finally(() => ended++));
    // all three are at the endpoint (so every worker would be waiting if they waited in workers);
    // in npm test the next test's three may be on their way too: wait for every one sent
    while (hostile.requests.filter((r) => r.path === "silent").length < silentSent) await new Promise((r) => setTimeout(r, 20));
    const health = await call(server.url, "GET", "/health");
    expect(health.status).toBe(200);
    const check = await call(server.url, "POST", "/sparql/check", { schema: { name: "olympics" }, query: CITIES });
    expect(check.status).toBe(200);
    expect(check.json.errors).toEqual([]);
    const client = new Client({ name: "groundwire-test", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${TEST_TOKEN}` } } }));
    const viaMcp = (await client.callTool({ name: "check_sparql", arguments: { schema: { name: "olympics" }, query: CITIES } })) as { isError?: boolean; structuredContent?: { errors: unknown[] } };
    expect(viaMcp.isError).toBeFalsy();
    expect(viaMcp.structuredContent!.errors).toEqual([]);
    // a run on the embedded store answers too, and explore_schema (its examples from the graph)
    expect((await run({ graph: "olympics" })).json.count).toBe(12);
    expect((await call(server.url, "GET", "/schema/olympics?term=ex:City&graph=olympics")).json.term.examples).toHaveLength(5);
    await client.close();
    expect(ended).toBe(0);
    const answers = await Promise.all(slow);
    for (const a of answers) {
      expect(a.status).toBe(504);
      expect(a.json.error.code).toBe("timeout");
      expect(a.json.error.message).toMatch(/^timed out: the SPARQL endpoint http:\/\/127\.0\.0\.1:\d+\/silent did not answer within 4 s$/);
    }
  }, 60_000);

  silentIt("explore_schema's examples from a silent endpoint hold no worker either: a 504 after 5 s, while a check answers", async ({ expect }) => {
    let ended = false;
    silentSent += 3;
    const slow = [1, 2, 3].map(() => call(server.url, "GET", "/schema/olympics?term=ex:hosted&endpoint=silent").finally(() => (ended = true)));
    await new Promise((r) => setTimeout(r, 500));
    const check = await call(server.url, "POST", "/sparql/check", { schema: { name: "olympics" }, query: CITIES });
    expect(check.status).toBe(200);
    expect(ended).toBe(false);
    for (const r of await Promise.all(slow)) {
      expect([r.status, r.json.error.code]).toEqual([504, "timeout"]);
      expect(r.json.error.message).toMatch(/\/silent did not answer within 5 s$/);
    }
    const junk = await call(server.url, "GET", "/schema/olympics?term=ex:City&endpoint=junk");
    expect([junk.status, junk.json.error.code]).toEqual([502, "upstream"]);
    // 50,000 rows are past the 1 MiB examples may take; 100 rows for LIMIT 5 are cut to 5
    const many = await call(server.url, "GET", "/schema/olympics?term=ex:City&endpoint=many");
    expect([many.status, many.json.error.code]).toEqual([502, "upstream"]);
    expect(many.json.error.message).toMatch(/\/many-rows sent a body over 1,048,576 bytes; stopped reading$/);
    const hundred = await call(server.url, "GET", "/schema/olympics?term=ex:City&endpoint=hundred");
    expect(hundred.json.term.examples).toEqual(["ex:C0 a ex:City", "ex:C1 a ex:City", "ex:C2 a ex:City", "ex:C3 a ex:City", "ex:C4 a ex:City"]);
    expect(hundred.json.text).toContain("  examples:\n    ex:C0 a ex:City\n");
  }, 30_000);

  it("an endpoint echoing the server's token in its 401 or 500 body: 502 upstream, the token in no answer and no log line", async () => {
    for (const endpoint of ["echo401", "echo500"]) {
      const r = await run({ endpoint });
      expect(r.status).toBe(502);
      expect(r.json.error.code).toBe("upstream");
      expect(JSON.stringify(r.json)).not.toContain(HOSTILE_SECRET);
    }
    expect(hostile.requests.filter((q) => q.path === "echo-401").map((q) => q.authorization)).toEqual([`Bearer ${HOSTILE_SECRET}`]);
    expect(server.stderr()).not.toContain(HOSTILE_SECRET);
  });

  it("an endpoint that ignores the LIMIT it was sent (50,000 rows): the answer holds the rows asked for; junk rows are a 502", async () => {
    const r = await run({ endpoint: "many", limit: 7 });
    expect(r.status).toBe(200);
    expect([r.json.count, r.json.truncated, r.json.results.results.bindings.length]).toEqual([7, true, 7]);
    const junk = await run({ endpoint: "junk" });
    expect([junk.status, junk.json.error.code]).toEqual([502, "upstream"]);
    expect(junk.json.error.message).toMatch(/the answer is not SPARQL results JSON: row 2 is not an object$/);
  });
});
