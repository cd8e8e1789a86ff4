// Issue 14 items 5 and 6: relative IRIs resolve against the file's URL (the API's baseIRI
// stays), no written file is one the reader rejects or reads differently, and the listing binds
// rdf:, rdfs:, xsd:, owl: by default unless the graph binds the name or the namespace itself.
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { parseGraph, serializeGraph } from "../../ts/rdf/index.js";
import { loadGraphFile, writeGraphFile } from "../../ts/rdf/load.js";
import { buildTripleIndex, fingerprintGraph, renderListing, DEFAULT_LISTING_PREFIXES } from "../../ts/triple-index/index.js";
import indexCommand from "../../ts/cli/index-command.js";
import critiqueCommand from "../../ts/cli/critique.js";

const RELATIVE = "@prefix ex: <http://example.org/> .\n<relative/thing> ex:p <other> ;\n  a ex:T ;\n  ex:n 7 .\nex:k ex:q <#frag> .\n";

describe("relative IRIs", () => {
  it("a file without @base resolves them against its own file: URL", () => {
    const dir = mkdtempSync(join(tmpdir(), "gw-base-"));
    const path = join(dir, "g.ttl");
    writeFileSync(path, RELATIVE);
    const base = pathToFileURL(path).href;
    const g = loadGraphFile(path);
    const iris = g.store.getQuads(null, null, null, null).flatMap((q) => [q.subject, q.object]).filter((t) => t.termType === "NamedNode").map((t) => t.value);
    expect(iris).toContain(new URL("relative/thing", base).href);
    expect(iris).toContain(new URL("other", base).href);
    expect(iris).toContain(`${base}#frag`);
    // the API's explicit base wins
    const api = loadGraphFile(path, { baseIRI: "http://base.example/dir/" });
    expect(api.store.countQuads("http://base.example/dir/relative/thing", null, null, null)).toBe(3);
  });

  it("parseGraph keeps its baseIRI option; without one a relative IRI is kept, and never written", () => {
    expect(parseGraph(RELATIVE, { baseIRI: "http://b.example/x/" }).store.countQuads("http://b.example/x/relative/thing", null, null, null)).toBe(3);
    const bare = parseGraph(RELATIVE);
    for (const format of ["turtle", "ntriples", "nquads"] as const) {
      expect(() => serializeGraph(bare, { format })).toThrow("cannot write the relative IRI <relative/thing>: no reader would read it back as written (parse the graph with a baseIRI)");
    }
  });

  it("every written file re-parses to the fingerprint of the graph as written, in each output format", () => {
    const dir = mkdtempSync(join(tmpdir(), "gw-base-"));
    const path = join(dir, "g.ttl");
    writeFileSync(path, RELATIVE);
    const g = loadGraphFile(path);
    for (const ext of ["ttl", "nt", "nq"]) {
      const out = join(dir, `out.${ext}`);
      writeGraphFile(out, g);
      // N-Triples and N-Quads carry no prefixes: the graph as written is the graph without them
      const asWritten = ext === "ttl" ? g : { ...g, prefixes: {} };
      expect(fingerprintGraph(loadGraphFile(out))).toBe(fingerprintGraph(asWritten));
    }
  });
});

describe("critique -o of a graph with relative IRIs: index reads every output back", () => {
  let out = "";
  beforeEach(() => {
    out = "";
    vi.spyOn(process.stdout, "write").mockImplementation((chunk: string | Uint8Array) => ((out += String(chunk)), true));
    vi.spyOn(process.stderr, "write").mockImplementation(() => true);
  });
  afterEach(() => vi.restoreAllMocks());

  it.each(["nt", "nq", "ttl"])("-o out.%s: re-indexes to the printed fingerprint", async (ext) => {
    const dir = mkdtempSync(join(tmpdir(), "gw-base-"));
    const graph = join(dir, "g.ttl");
    writeFileSync(graph, RELATIVE);
    await indexCommand.run([graph]);
    const before = /fingerprint: ([0-9a-f]{64})/.exec(out)![1];
    const critique = join(dir, "c.json");
    writeFileSync(critique, JSON.stringify([{ op: "remove", tripleIds: [1] }]));
    const target = join(dir, `out.${ext}`);
    out = "";
    expect(await critiqueCommand.run([graph, critique, "--fingerprint", before, "-o", target])).toBe(0);
    const after = new RegExp(`fingerprint: ${before} -> ([0-9a-f]{64})`).exec(out)![1];
    expect(readFileSync(target, "utf8")).not.toContain("<relative/");
    out = "";
    expect(await indexCommand.run([target])).toBe(0);
    expect(/fingerprint: ([0-9a-f]{64})/.exec(out)![1]).toBe(after);
  });
});

describe("default listing prefixes (the seed's rdflib bindings)", () => {
  const TTL = '@prefix ex: <http://example.org/> .\nex:a a ex:T ; ex:price "2.50"^^<http://www.w3.org/2001/XMLSchema#decimal> ; <http://www.w3.org/2000/01/rdf-schema#label> "a" ; <http://www.w3.org/2002/07/owl#sameAs> ex:b .\n';

  it("binds rdf:, rdfs:, xsd:, owl: when the graph does not", () => {
    expect(Object.keys(DEFAULT_LISTING_PREFIXES)).toEqual(["rdf", "rdfs", "xsd", "owl"]);
    expect(renderListing(buildTripleIndex(parseGraph(TTL)))).toBe(
      '[1] ex:a rdf:type ex:T\n[2] ex:a ex:price "2.50"^^xsd:decimal\n[3] ex:a owl:sameAs ex:b\n[4] ex:a rdfs:label "a"\n',
    );
  });

  it("the graph's own binding of a name or a namespace wins", () => {
    const own = parseGraph(`@prefix rdf: <http://example.org/not-rdf#> . @prefix r: <http://www.w3.org/2000/01/rdf-schema#> .\n${TTL}`);
    const listing = renderListing(buildTripleIndex(own));
    expect(listing).toContain("ex:a <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> ex:T");
    expect(listing).toContain('ex:a r:label "a"');
    expect(listing).not.toContain("rdfs:");
    expect(listing).toContain("owl:sameAs");
  });

  it("the fingerprint is of the listing with the defaults: declaring them changes nothing", () => {
    const declared = parseGraph(`@prefix rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#> . @prefix xsd: <http://www.w3.org/2001/XMLSchema#> .\n@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> . @prefix owl: <http://www.w3.org/2002/07/owl#> .\n${TTL}`);
    expect(fingerprintGraph(parseGraph(TTL))).toBe(fingerprintGraph(declared));
    expect(buildTripleIndex(parseGraph(TTL)).fingerprint).toBe(fingerprintGraph(declared));
  });
});

describe("a critic may write the default prefixes the listing showed", () => {
  it("a correctValue with rdf:type and xsd: parses though the graph declares neither", async () => {
    const { applyCritique } = await import("../../ts/triple-index/index.js");
    const g = parseGraph('@prefix ex: <http://example.org/> .\nex:a a ex:T ; ex:n "1" .\n');
    const index = buildTripleIndex(g);
    const report = applyCritique(g, index, [{ op: "replace", tripleIds: [2], correctValue: 'ex:a ex:n "1"^^xsd:integer . ex:a rdf:type ex:U .' }]);
    expect(report.rejected).toEqual([]);
    expect(renderListing(buildTripleIndex(g))).toBe('[1] ex:a rdf:type ex:T\n[2] ex:a rdf:type ex:U\n[3] ex:a ex:n "1"^^xsd:integer\n');
  });
});
