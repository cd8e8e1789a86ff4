// ingestToGraphStore: the evidence slice written into a real Virtuoso through the SPARQL 1.1 Graph
// Store Protocol (the test Virtuoso of test/kernel/virtuoso-setup.ts, its /sparql-graph-crud
// endpoint, anonymous updates granted) and read back, against the embedded store's `ingest` on the
// same slices: the same triples, the same validation report, a new revision replacing the old, and
// all or nothing (a refused slice sends nothing; a PUT the store rejects leaves the old revision).
// Skipped with a note when no test Virtuoso runs.
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { DataFactory } from "n3";
import oxigraph from "oxigraph";
import type * as RDF from "@rdfjs/types";
import { describe, expect, it } from "vitest";
import { createArtifact, EVIDENCE_NS, fragmentMarkdown, GraphStoreError, ingest, ingestToGraphStore, toGraphSlice, type GraphSlice } from "../../ts/evidence/index.js";
import { parseGraph } from "../../ts/rdf/index.js";
import { virtuosoReady } from "../kernel/virtuoso-ready.js";

// the global setup starts Virtuoso without waiting for it: wait here, before reading its URL
await virtuosoReady();
const GSP = process.env.GROUNDWIRE_TEST_GSP_URL;
if (!GSP) console.log("note: no test Virtuoso (GROUNDWIRE_TEST_GSP_URL): the Graph Store Protocol ingest is not tested in this run");

const FIXTURES = new URL("../fixtures/evidence/", import.meta.url);
const v1 = readFileSync(new URL("awesome-v001.md", FIXTURES), "utf8");
const v2 = readFileSync(new URL("awesome-v002.md", FIXTURES), "utf8");
/** A source object of its own per run, so reruns against one Virtuoso do not meet an earlier graph. */
const SOURCE = `remote-ingest/${process.pid}-${Date.now()}.md`;
const sliceOf = (text: string): GraphSlice => {
  const artifact = createArtifact({ sourceObjectId: SOURCE, content: text });
  return toGraphSlice(artifact, fragmentMarkdown(artifact.artifactId, text));
};

/** The triples of a graph as sorted N-Triples lines, read back with the protocol's GET. */
async function readBack(graph: string): Promise<string[]> {
  const url = new URL(GSP!);
  url.searchParams.set("graph", graph);
  const answer = await fetch(url, { headers: { accept: "text/turtle" } });
  if (answer.status === 404) return [];
  expect(answer.status).toBe(200);
  return lines(parseGraph(await answer.text(), { format: "turtle", source: "read back" }).store.getQuads(null, null, null, null) as unknown as RDF.Quad[]);
}

/** Quads as sorted N-Triples lines of their triples (graph dropped). */
function lines(quads: readonly RDF.Quad[]): string[] {
  const show = (t: RDF.Term) => (t.termType === "NamedNode" ? `<${t.value}>` : t.termType === "Literal" ? `${JSON.stringify(t.value)}^^<${(t as RDF.Literal).datatype.value}>` : `_:${t.value}`);
  return quads.map((q) => `${show(q.subject)} ${show(q.predicate)} ${show(q.object)}`).sort();
}

/** What the embedded store holds in `graph` after `ingest`. */
function embeddedLines(store: oxigraph.Store, graph: string): string[] {
  return lines(store.match(null, null, null, oxigraph.namedNode(graph)) as unknown as RDF.Quad[]);
}

describe.skipIf(!GSP)("ingestToGraphStore into Virtuoso (Graph Store Protocol PUT), read back", () => {
  const target = { url: GSP!, attempts: 1, timeoutMs: 30_000 };
  const embedded = new oxigraph.Store();

  it("writes the artifact's named graph whole: read back, the same triples as the embedded ingest", async () => {
    const slice = sliceOf(v1);
    const report = await ingestToGraphStore(target, slice);
    const local = await ingest(embedded, slice);
    expect(report).toEqual(local);
    expect(report).toMatchObject({ ok: true, written: slice.quads.length, graph: slice.artifactIri });
    const back = await readBack(slice.artifactIri);
    expect(back).toHaveLength(slice.quads.length);
    expect(back).toEqual(embeddedLines(embedded, slice.artifactIri));
    expect(back).toEqual(lines(slice.quads));
  });

  it("a new revision replaces the old one in its graph (no triple of the old revision is left)", async () => {
    const s2 = sliceOf(v2);
    expect(s2.artifactIri).toBe(sliceOf(v1).artifactIri);
    expect((await ingestToGraphStore(target, s2)).ok).toBe(true);
    await ingest(embedded, s2);
    const back = await readBack(s2.artifactIri);
    expect(back).toEqual(lines(s2.quads));
    expect(back).toEqual(embeddedLines(embedded, s2.artifactIri));
  });

  it("a slice that fails validation: nothing sent, the same violations as the embedded store, the graph unchanged", async () => {
    const good = sliceOf(v2);
    const before = await readBack(good.artifactIri);
    const f0 = good.quads.find((q) => q.predicate.value === `${EVIDENCE_NS}fragmentId`)!.subject.value;
    const bad: GraphSlice = {
      ...good,
      quads: good.quads.map((q) => (q.subject.value === f0 && q.predicate.value === `${EVIDENCE_NS}contentHash` ? DataFactory.quad(q.subject as RDF.NamedNode, q.predicate as RDF.NamedNode, DataFactory.literal("sha256:NOT-HEX")) : q)),
    };
    const remote = await ingestToGraphStore(target, bad);
    const local = await ingest(new oxigraph.Store(), bad);
    expect(remote.ok).toBe(false);
    expect(remote).toEqual(local);
    expect(remote.violations.map((v) => [v.focusNode, v.constraint, v.value])).toContainEqual([`<${f0}>`, "PatternConstraintComponent", '"sha256:NOT-HEX"']);
    expect(await readBack(good.artifactIri)).toEqual(before);
  });

  it("a PUT the store rejects (the body cut mid-triple on the way) leaves the previous revision: all or nothing", async () => {
    const s1 = sliceOf(v1);
    const before = await readBack(s1.artifactIri);
    // the connection's fault: the request reaches the real Virtuoso with its body cut in half
    const cut: typeof fetch = (input, init) => fetch(input, { ...init, body: String(init?.body).slice(0, Math.floor(String(init?.body).length / 2)) });
    const error = await ingestToGraphStore({ ...target, fetch: cut }, s1).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GraphStoreError);
    expect((error as GraphStoreError).status).toBe(502);
    expect((error as GraphStoreError).message).toMatch(/^ingest: .*HTTP 500.*; the graph <urn:groundwire:artifact:remote-ingest%2F[^>]+> was not replaced$/s);
    expect(await readBack(s1.artifactIri)).toEqual(before);
  });

  const cli = fileURLToPath(new URL("../../dist/cli.js", import.meta.url));
  it.skipIf(!existsSync(cli))("groundwire slice FILE --graph-store URL (dist/cli.js; run `npm run build` first): the same write from the command line; violations or a refusing store exit 1", async () => {
    const artifact = `remote-ingest/cli-${process.pid}-${Date.now()}.md`;
    const run = (...args: string[]) => spawnSync(process.execPath, [cli, "slice", fileURLToPath(new URL("awesome-v001.md", FIXTURES)), "--artifact", artifact, ...args], { encoding: "utf8" });
    const ok = run("--graph-store", GSP!);
    expect(ok.status, ok.stderr).toBe(0);
    // what was written is what `slice --format nquads` prints: every quad in the artifact's graph
    const printed = run("--format", "nquads");
    const quads = parseGraph(printed.stdout, { format: "nquads", source: "slice" }).store.getQuads(null, null, null, null) as unknown as RDF.Quad[];
    const graph = quads[0]!.graph.value;
    expect(ok.stderr).toMatch(new RegExp(`^groundwire slice: wrote ${quads.length} quads \\(\\d+ fragments\\) as the graph <${graph.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}>\\n$`));
    expect(await readBack(graph)).toEqual(lines(quads));
    const refused = run("--graph-store", new URL("/no-such-graph-store", GSP!).href);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain("was not replaced");
    expect(await readBack(graph)).toEqual(lines(quads));
  });

  it("a store that is not there: GraphStoreError 502, naming it", async () => {
    const error = await ingestToGraphStore({ ...target, url: new URL("/no-such-graph-store", GSP!).href }, sliceOf(v1)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GraphStoreError);
    expect((error as GraphStoreError).code).toBe("upstream");
    expect((error as GraphStoreError).message).toContain("/no-such-graph-store");
  });
});
