// A hostile user's pass over everything that reads a remote store: run_sparql's endpoint store
// (createSparqlEndpointStore + runCheckedPlan), describeTerm's example triples,
// schemaFromEndpoint and its cache, and ingestToGraphStore. The peer is the real hostile server
// of hostile-endpoint.ts on a loopback port (a huge answer, an endless drip, silence, HTML,
// truncated or junk JSON, 10,000-deep terms, a gzip bomb, 50,000 rows for a LIMIT 6,
// redirects to another host, 401/403/500 bodies echoing the token, a connection cut mid-answer).
// Every case must end within its bound (the test's own timeout) with a GroundwireError that has
// a code, never a crash, and the token in no message. Real sockets throughout.
// npm test: every case in process; npm run test:deep also the same endpoints through the built CLI
// (check --schema, slice --graph-store-token-file) and two processes refreshing one schema cache.
import { execFile, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { DataFactory } from "n3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createKernel, createSparqlEndpointStore, describeTerm, runCheckedPlan, Schema, SparqlStoreError } from "../../ts/kernel/index.js";
import { endpointSchemaCacheFile, schemaFromEndpoint } from "../../ts/kernel/node.js";
import { createArtifact, EVIDENCE_NS, fragmentMarkdown, GraphStoreError, ingestToGraphStore, toGraphSlice, type GraphSlice } from "../../ts/evidence/index.js";
import { GroundwireError } from "../../ts/errors.js";
import { loadGraphFile } from "../../ts/rdf/load.js";
import { freePort } from "../free-port.js";
import { DEEP } from "../depth.js";
import { HOSTILE_SECRET, startHostileEndpoint, type HostileEndpoint } from "./hostile-endpoint.js";

const DIST = fileURLToPath(new URL("../../dist/node.js", import.meta.url));
const CLI = fileURLToPath(new URL("../../dist/cli.js", import.meta.url));
const OLYMPICS = fileURLToPath(new URL("../../data/kernel/olympics.ttl", import.meta.url));
const schema = Schema.fromGraph(loadGraphFile(OLYMPICS));
const kernel = createKernel(schema);
const PREFIX = "PREFIX ex: <http://example.org/olympics/>\n";
const CITIES = `${PREFIX}SELECT ?c WHERE { ?c ex:hosted ?g }`;
const auth = { authorization: `Bearer ${HOSTILE_SECRET}` };

let hostile: HostileEndpoint;
beforeAll(async () => {
  hostile = await startHostileEndpoint();
});
afterAll(async () => hostile?.close());

/** The error a promise rejects with (fails the test when it resolves). */
async function failure(p: Promise<unknown>): Promise<GroundwireError> {
  const outcome = await p.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
  if (!("error" in outcome)) throw new Error(`expected a failure, got ${JSON.stringify(outcome.value).slice(0, 300)}`);
  expect(outcome.error).toBeInstanceOf(GroundwireError);
  const e = outcome.error as GroundwireError;
  expect(e.code).toMatch(/^[a-z_]+$/);
  for (const text of [e.message, String(e.stack)]) expect(text).not.toContain(HOSTILE_SECRET);
  return e;
}

const store = (path: string, timeoutMs = 8_000) => createSparqlEndpointStore(`${hostile.base}/${path}`, { headers: auth, timeoutMs, attempts: 1, maxResponseBytes: 8 * 1024 * 1024 });
/**
 * Run a plan on a hostile path; the paths that never finish get 1.5 s, the others 8 s (a 2-core
 * machine under load), but /huge 45 s: it tests the byte cap, and 8 MiB through a loopback socket
 * whose both ends share a loaded machine's cores took over 8 s once (CI at load average 8).
 */
const SLOW = new Set(["drip", "silent", "half-head"]);
const timeoutFor = (path: string) => (SLOW.has(path) ? 1_500 : path === "huge" ? 45_000 : 8_000);
const run = (path: string, query = CITIES, maxRows = 5) => runCheckedPlan(kernel, query, undefined, store(path, timeoutFor(path)), { maxRows });

describe("run_sparql's endpoint store against a hostile endpoint", () => {
  // [path, code, status, what the message says]
  const cases: [string, string, number, RegExp][] = [
    ["huge", "upstream", 502, /sent a body over 8,388,608 bytes; stopped reading$/],
    ["gzip-bomb", "upstream", 502, /sent a body over 8,388,608 bytes; stopped reading$/],
    ["millions-of-rows", "upstream", 502, /sent a body over 8,388,608 bytes; stopped reading$/],
    ["drip", "timeout", 504, /^timed out: the SPARQL endpoint http:\/\/127\.0\.0\.1:\d+\/drip did not (finish its answer|answer) within 1\.5 s$/],
    ["silent", "timeout", 504, /^timed out: the SPARQL endpoint http:\/\/127\.0\.0\.1:\d+\/silent did not answer within 1\.5 s$/],
    ["half-head", "timeout", 504, /did not answer within 1\.5 s$/],
    ["html", "upstream", 502, /\/html: the answer is not SPARQL results JSON: Unexpected token '<'/],
    ["xml", "upstream", 502, /\/xml: the answer is not SPARQL results JSON/],
    ["truncated-json", "upstream", 502, /\/truncated-json: the answer is not SPARQL results JSON: /],
    ["junk-rows", "upstream", 502, /\/junk-rows: the answer is not SPARQL results JSON: row 2 is not an object$/],
    ["vars-not-a-list", "upstream", 502, /"head\.vars" is not a list of at most 1,000 names$/],
    ["deep-doc", "upstream", 502, /the answer is not SPARQL results JSON: not a JSON object$/],
    ["redirect", "upstream", 502, /answered HTTP 307 redirecting to http:\/\/127\.0\.0\.1:\d+\/steal\?x=\*\*\*; redirects are not followed/],
    ["echo-401", "upstream", 502, /answered HTTP 401 Unauthorized: unauthorized: you sent \*\*\* \(token \*\*\*\)$/],
    ["echo-403", "upstream", 502, /answered HTTP 403 Forbidden: forbidden for \*\*\*$/],
    ["echo-500", "upstream", 502, /answered HTTP 500 Internal Server Error: Virtuoso 37000 Error SP030: \*\*\* /],
    ["cut-after-200", "upstream", 502, /\/cut-after-200 broke off its answer after 7 bytes \(HTTP 200\): connection closed \(UND_ERR_SOCKET\)$/],
    ["reset", "upstream", 502, /cannot reach the SPARQL endpoint http:\/\/127\.0\.0\.1:\d+\/reset: connection closed \(UND_ERR_SOCKET\)$/],
  ];
  it.concurrent.each(cases)("/%s: %s %i, named, no token", { timeout: 20_000 }, async (path, code, status, said) => {
    const e = await failure(run(path));
    expect(e).toBeInstanceOf(SparqlStoreError);
    expect([e.code, e.status]).toEqual([code, status]);
    expect(e.message).toMatch(said);
  });

  it("a redirect to another host is not followed: the thief never sees the request or the token", async () => {
    await failure(run("redirect"));
    expect(hostile.stolen).toEqual([]);
    expect(hostile.requests.filter((r) => r.path === "redirect").every((r) => r.authorization === `Bearer ${HOSTILE_SECRET}`)).toBe(true);
  });

  it("a term 10,000 arrays deep is read as its type and value only: the answer can be written out again", async () => {
    const r = await run("deep-term");
    expect(r.results.results!.bindings).toEqual([{ x: { type: "literal", value: "a" } }]);
    expect(() => JSON.stringify(r)).not.toThrow();
  });

  it("50,000 rows for a query sent with LIMIT 6: the answer keeps the 5 asked for, and a plan's own LIMIT 3 keeps 3", async () => {
    const r = await run("many-rows");
    expect(r.sent).toMatch(/\nLIMIT 6\n$/);
    expect([r.count, r.truncated, r.results.results!.bindings.length]).toEqual([5, true, 5]);
    expect(r.table.split("\n").at(-2)).toBe("5 rows (cut at the limit: the store has more)");
    const own = await run("many-rows", `${CITIES} LIMIT 3`);
    expect([own.count, own.truncated]).toEqual([3, false]);
  });

  it("describeTerm's example triples: at most the number asked, whatever the store sends; a junk answer is a named error", async () => {
    const t = await describeTerm(schema, "ex:City", { store: store("many-rows"), examples: 4 });
    expect(t.examples).toEqual(["ex:C0 a ex:City", "ex:C1 a ex:City", "ex:C2 a ex:City", "ex:C3 a ex:City"]);
    const e = await failure(describeTerm(schema, "ex:City", { store: store("junk-rows") }));
    expect(e.code).toBe("upstream");
    const slow = await failure(describeTerm(schema, "ex:hosted", { store: store("silent", 500) }));
    expect(slow.code).toBe("timeout");
  });
});

describe("schemaFromEndpoint against a hostile endpoint", () => {
  const read = (path: string, options: Parameters<typeof schemaFromEndpoint>[1] = {}) => schemaFromEndpoint(`${hostile.base}/${path}`, { headers: auth, timeoutMs: SLOW.has(path) ? 1_500 : 8_000, ...options });

  it.concurrent.each([
    ["html", "upstream", /\/html: the answer to a CONSTRUCT page is not Turtle or N-Triples: /],
    ["bad-turtle", "upstream", /\/bad-turtle: the answer to a CONSTRUCT page is not Turtle or N-Triples: /],
    ["cut-after-200", "upstream", /broke off its answer after 7 bytes \(HTTP 200\)/],
    ["silent", "timeout", /did not answer within 1\.5 s$/],
    ["drip", "timeout", /did not finish its answer within 1\.5 s$/],
    ["gzip-bomb", "upstream", /sent a body over 16,777,216 bytes; stopped reading$/],
    ["echo-401", "upstream", /HTTP 401 Unauthorized: unauthorized: you sent \*\*\* \(token \*\*\*\)$/],
    ["redirect", "upstream", /redirects are not followed/],
  ])("/%s: the endpoint's fault, %s, never the caller's 400", { timeout: 10_000 }, async (path, code, said) => {
    const e = await failure(read(path));
    expect(e).toBeInstanceOf(SparqlStoreError);
    expect(e.code).toBe(code);
    expect(e.status).toBe(code === "timeout" ? 504 : 502);
    expect(e.message).toMatch(said);
  });

  it("a schema that never ends stops at maxTriples, or at maxBytes, whichever comes first", async () => {
    const byTriples = await failure(read("endless-schema", { pageSize: 1_000, maxTriples: 5_000 }));
    expect(byTriples.message).toMatch(/the schema holds more than 5,000 triples \(maxTriples\)$/);
    const byBytes = await failure(read("endless-schema", { pageSize: 1_000, maxBytes: 200_000 }));
    expect(byBytes.message).toMatch(/the schema's triples pass 200,000 characters of N-Triples \(maxBytes\)$/);
  });

  it("a schema whose every page comes slowly stops at maxTimeMs: 504 timeout, the pages read counted", async () => {
    const e = await failure(read("slow-endless-schema", { pageSize: 1_000, maxTimeMs: 1_000 }));
    expect([e.code, e.status]).toEqual(["timeout", 504]);
    expect(e.message).toMatch(/^timed out: reading the schema from http:\/\/127\.0\.0\.1:\d+\/slow-endless-schema took over 1 s \(maxTimeMs\) after \d+ pages$/);
  });

  it("a cache file that does not read back whole is never trusted: the endpoint is read again and the file replaced", async () => {
    const cacheDir = mkdtempSync(join(tmpdir(), "groundwire-hostile-cache-"));
    const url = `${hostile.base}/small-schema`;
    const first = await schemaFromEndpoint(url, { cacheDir });
    expect([first.cached, first.schema.classes.has("http://example.org/e/City")]).toEqual([false, true]);
    const file = endpointSchemaCacheFile(cacheDir, url);
    const good = readFileSync(file, "utf8");
    expect((await schemaFromEndpoint(url, { cacheDir })).cached).toBe(true);
    const saved = JSON.parse(good) as { ntriples: string };
    const tampered = [
      good.slice(0, Math.floor(good.length / 2)), // truncated
      "", // empty
      "\u0000\u0001 not json",
      JSON.stringify({ ...saved, ntriples: saved.ntriples.replace("City", "Town") }), // edited: the checksum no longer matches
      JSON.stringify({ ...saved, url: "http://elsewhere.example/sparql" }), // another endpoint's
      JSON.stringify({ ...saved, fetchedAt: "not a time" }),
      JSON.stringify({ ...saved, fetchedAt: "2999-01-01T00:00:00.000Z" }), // from the future: never stale, so never trusted
      JSON.stringify([1, 2, 3]),
      "null",
    ];
    for (const text of tampered) {
      writeFileSync(file, text);
      const again = await schemaFromEndpoint(url, { cacheDir });
      expect(again.cached, text.slice(0, 80)).toBe(false);
      expect(again.schema.classes.has("http://example.org/e/City")).toBe(true);
      expect(readFileSync(file, "utf8")).not.toBe(text);
      expect((await schemaFromEndpoint(url, { cacheDir })).cached).toBe(true);
    }
  });

});

describe("ingestToGraphStore against a hostile graph store", () => {
  const text = "# Title\n\nA paragraph.\n";
  // a source whose artifact IRI needs escaping in a URL: space, slash, ?, &, #, =, non-ASCII
  const artifact = createArtifact({ sourceObjectId: "notes/a b?&x=1#frag/ü.md", content: text });
  const slice: GraphSlice = toGraphSlice(artifact, fragmentMarkdown(artifact.artifactId, text));
  const put = (path: string, timeoutMs = 1_500) => ingestToGraphStore({ url: `${hostile.base}/${path}?keep=1`, headers: auth, timeoutMs, attempts: 1 }, slice);

  it("the graph IRI travels as one query parameter, never pasted into the path; the body is the slice", async () => {
    const before = hostile.requests.length;
    expect(await put("echo")).toEqual({ ok: true, written: slice.quads.length, graph: slice.artifactIri, violations: [] });
    expect(hostile.requests.length).toBe(before + 1);
    expect(slice.artifactIri).toMatch(/%20|%3F|%26|%23/);
  });

  it("reads back what the store got: path /echo, parameters keep=1 and graph=<the IRI exactly>", async () => {
    let got: { url: string; method: string; contentType: string; body: string } | undefined;
    const spy: typeof fetch = async (input, init) => {
      const answer = await fetch(input, init);
      got = JSON.parse(await answer.clone().text());
      return answer;
    };
    await ingestToGraphStore({ url: `${hostile.base}/echo?keep=1`, headers: auth, attempts: 1, timeoutMs: 1_500, fetch: spy }, slice);
    const url = new URL(got!.url, "http://x");
    expect(url.pathname).toBe("/echo");
    expect([...url.searchParams]).toEqual([["keep", "1"], ["graph", slice.artifactIri]]);
    expect(got!.method).toBe("PUT");
    expect(got!.contentType).toBe("text/turtle; charset=utf-8");
    expect(got!.body.trim().split("\n")).toHaveLength(slice.quads.length);
  });

  it("a refusing store: not replaced, said so, the echoed token redacted", async () => {
    for (const path of ["echo-500", "echo-401", "redirect"]) {
      const e = await failure(put(path));
      expect(e).toBeInstanceOf(GraphStoreError);
      expect((e as GraphStoreError).replaced).toBe(false);
      expect(e.message).toMatch(/; the graph <urn:groundwire:artifact:[^>]+> was not replaced$/);
    }
    expect(hostile.stolen).toEqual([]);
  });

  it("a store never reached: not replaced", async () => {
    const e = await failure(ingestToGraphStore({ url: `http://127.0.0.1:${await freePort()}/gsp`, attempts: 1, timeoutMs: 1_500 }, slice));
    expect([(e as GraphStoreError).replaced, e.code]).toEqual([false, "upstream"]);
    expect(e.message).toContain("connection refused (ECONNREFUSED)");
  });

  it("a PUT sent and never answered (silence, a cut connection): the result says the graph may hold either revision, never 'not replaced'", { timeout: 10_000 }, async () => {
    for (const [path, code] of [
      ["silent", "timeout"],
      ["reset", "upstream"],
    ] as const) {
      const e = await failure(put(path));
      expect([(e as GraphStoreError).replaced, e.code]).toEqual(["unknown", code]);
      expect(e.message).toMatch(/; the PUT was sent but not answered, so the graph <urn:groundwire:artifact:[^>]+> holds either its previous revision or this one \(a PUT replaces it whole\): read it back to know$/);
      expect(e.message).not.toContain("was not replaced");
    }
  });

  it("a store that said 200 and then cut its answer did replace the graph: reported written, not failed", async () => {
    expect(await put("cut-after-200")).toMatchObject({ ok: true, written: slice.quads.length });
  });

  it("a SHACL-invalid slice is refused before any request", async () => {
    const f0 = slice.quads.find((q) => q.predicate.value === `${EVIDENCE_NS}fragmentId`)!.subject.value;
    const bad: GraphSlice = {
      ...slice,
      quads: slice.quads.map((q) => (q.subject.value === f0 && q.predicate.value === `${EVIDENCE_NS}contentHash` ? DataFactory.quad(q.subject as never, q.predicate as never, DataFactory.literal("sha256:NOT-HEX")) : q)),
    };
    const before = hostile.requests.length;
    const report = await ingestToGraphStore({ url: `${hostile.base}/echo`, headers: auth }, bad);
    expect(report.ok).toBe(false);
    expect(report.written).toBe(0);
    expect(report.violations.map((v) => v.constraint)).toContain("PatternConstraintComponent");
    expect(hostile.requests.length).toBe(before);
  });
});

// the suites that start processes of the built package, run side by side (each waits on its children);
// in npm run test:deep only (test/depth.ts): the cases above prove the same bounds in process
describe.skipIf(!DEEP || !existsSync(CLI) || !existsSync(DIST)).concurrent("through the built package: the CLI and two processes at once", () => {
  it("groundwire check --schema sparql:URL against a hostile endpoint: exit 1 with the endpoint's fault, credentials in the URL redacted; a bad #graph= is a usage error", async () => {
    const dir = mkdtempSync(join(tmpdir(), "groundwire-hostile-check-"));
    const query = join(dir, "q.rq");
    writeFileSync(query, "SELECT ?s WHERE { ?s ?p ?o }\n");
    const check = (schema: string) =>
      new Promise<{ code: number; stderr: string }>((resolve) =>
        execFile(process.execPath, [CLI, "check", query, "--schema", schema], { encoding: "utf8", timeout: 30_000, env: { ...process.env, XDG_CACHE_HOME: dir } }, (error, _stdout, stderr) => resolve({ code: error ? Number((error as { code?: number }).code) : 0, stderr })),
      );
    const base = hostile.base.replace("http://", "http://alice:s3cr3t-pass-99@");
    const html = await check(`sparql:${base}/html`);
    expect(html.code).toBe(1);
    expect(html.stderr).toMatch(/^groundwire check: --schema "sparql:http:\/\/127\.0\.0\.1:\d+\/html": http:\/\/127\.0\.0\.1:\d+\/html: the answer to a CONSTRUCT page is not Turtle or N-Triples: /);
    const echoed = await check(`sparql:${base}/echo-401`);
    expect(echoed.code).toBe(1);
    expect(echoed.stderr).toContain("answered HTTP 401 Unauthorized");
    for (const out of [html.stderr, echoed.stderr]) expect(out).not.toMatch(/s3cr3t|alice/);
    const bad = await check(`sparql:${hostile.base}/small-schema#graph=%E0%A4%A`);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe('groundwire check: --schema sparql:URL#graph=IRI: the IRI is not percent-encoded properly, got "#graph=%E0%A4%A"\n');
  }, 60_000);

  it("two processes refreshing one cache at once: each gets the schema, the file left is whole, no temporary is left", async () => {
    const cacheDir = mkdtempSync(join(tmpdir(), "groundwire-hostile-race-"));
    const url = `${hostile.base}/small-schema`;
    // the built package's Node entry (it sets up the SHA-256 backend the cache names its files with)
    const entry = DIST;
    const script = `const { schemaFromEndpoint } = await import(${JSON.stringify(entry)}); let n = 0; for (let i = 0; i < 15; i++) { const r = await schemaFromEndpoint(${JSON.stringify(url)}, { cacheDir: ${JSON.stringify(cacheDir)}, refresh: i % 2 === 0 }); n += r.schema.classes.has("http://example.org/e/City") ? 1 : 0; } console.log(n);`;
    const child = () =>
      new Promise<string>((resolve, reject) => {
        const p = spawn(process.execPath, ["--input-type=module", "-e", script], { stdio: ["ignore", "pipe", "pipe"] });
        let out = "";
        let err = "";
        p.stdout.on("data", (d) => (out += d));
        p.stderr.on("data", (d) => (err += d));
        p.on("close", (code) => (code === 0 ? resolve(out.trim()) : reject(new Error(`exit ${code}: ${err.slice(0, 500)}`))));
      });
    const [a, b] = await Promise.all([child(), child()]);
    // 15 reads of one class each, in both processes
    expect([a, b]).toEqual(["15", "15"]);
    expect(readdirSync(cacheDir)).toEqual([endpointSchemaCacheFile(cacheDir, url).slice(cacheDir.length + 1)]);
    expect((await schemaFromEndpoint(url, { cacheDir })).cached).toBe(true);
  }, 60_000);

  it("groundwire slice --graph-store-token-file against a store echoing the token: exit 1, 'not replaced', the token nowhere", async () => {
    const dir = mkdtempSync(join(tmpdir(), "groundwire-hostile-slice-"));
    writeFileSync(join(dir, "token"), `${HOSTILE_SECRET}\n`);
    const doc = join(dir, "notes.md");
    writeFileSync(doc, "# Title\n\nA paragraph.\n");
    const slice = (path: string) =>
      new Promise<{ code: number; stderr: string; stdout: string }>((resolve) =>
        execFile(process.execPath, [CLI, "slice", doc, "--graph-store", `${hostile.base}/${path}`, "--graph-store-token-file", join(dir, "token")], { encoding: "utf8", timeout: 30_000 }, (error, stdout, stderr) => resolve({ code: error ? Number((error as { code?: number }).code) : 0, stdout, stderr })),
      );
    const refused = await slice("echo-401");
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^groundwire slice: ingest: the graph store http:\/\/127\.0\.0\.1:\d+\/echo-401\?graph=\*\*\* answered HTTP 401 Unauthorized: unauthorized: you sent \*\*\* \(token \*\*\*\); the graph <[^>]+> was not replaced\n$/);
    expect(refused.stderr + refused.stdout).not.toContain(HOSTILE_SECRET);
    const written = await slice("cut-after-200");
    expect(written.code).toBe(0);
    expect(written.stderr).toMatch(/^groundwire slice: wrote \d+ quads \(\d+ fragments\) as the graph </);
  }, 60_000);
});
