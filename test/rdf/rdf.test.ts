// ts/rdf: parsing (deterministic blank nodes, errors with line and column), prefix map, serialization.
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DataFactory } from "n3";
import { formatFromPath, formatTerm, isPnLocal, parseGraph, PrefixMap, RdfParseError, serializeGraph } from "../../ts/rdf/index.js";
import { loadGraphFile, writeGraphFile } from "../../ts/rdf/load.js";
import { fingerprintGraph } from "../../ts/triple-index/index.js";

const SHARED = new URL("../../../shared/data/", import.meta.url);

describe("parseGraph", () => {
  it("labels blank nodes deterministically: document labels kept, anonymous ones numbered", () => {
    const text = '@prefix ex: <http://example.org/> . _:x ex:p [ ex:q "1" ] ; ex:r ( 1 2 ) .';
    const a = parseGraph(text);
    const b = parseGraph(text);
    const labels = new Set(a.store.getQuads(null, null, null, null).flatMap((q) => [q.subject, q.object]).filter((t) => t.termType === "BlankNode").map((t) => t.value));
    expect([...labels].sort()).toEqual(["b1", "b2", "b3", "x"]);
    expect(fingerprintGraph(a)).toBe(fingerprintGraph(b));
  });
  it("never lets an anonymous label collide with a document label", () => {
    const g = parseGraph('@prefix ex: <http://example.org/> . _:b1 ex:p [ ex:q "1" ] .');
    const labels = new Set(g.store.getQuads(null, null, null, null).flatMap((q) => [q.subject, q.object]).filter((t) => t.termType === "BlankNode").map((t) => t.value));
    expect(labels.size).toBe(2);
    expect(labels.has("b1")).toBe(true);
  });
  it("reports source, line and column of a syntax error", () => {
    let error: unknown;
    try {
      parseGraph('@prefix ex: <http://example.org/> .\nex:a ex:b "open .\n', { source: "bad.ttl" });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(RdfParseError);
    const e = error as RdfParseError;
    expect(e.source).toBe("bad.ttl");
    expect(e.line).toBe(2);
    expect(e.message).toMatch(/^bad\.ttl:2(:\d+)?: /);
  });
  it("points at the offending token when it starts a line (not at the previous line's end)", () => {
    const columnOf = (text: string) => {
      try {
        parseGraph(text);
      } catch (e) {
        return [(e as RdfParseError).line, (e as RdfParseError).column];
      }
      return null;
    };
    expect(columnOf("@prefix ex: <http://e/> .\nex:a ex:b ex:c .\n  oops ex:b ex:c .")).toEqual([3, 3]);
    expect(columnOf("<a:a> <a:b> <a:c> .\n\n\n   bogus")).toEqual([4, 4]);
    expect(columnOf('<a:a> <a:b> "x .')).toEqual([1, 13]);
  });
  it("quotes the unexpected text of a lexer error as a JSON string", () => {
    expect(() => parseGraph('@prefix ex: <http://example.org/> .\nex:a ex:b ex:c .\nex:a ex:b "unterminated .\n', { source: "bad.ttl" })).toThrow(
      'bad.ttl:3:11: unexpected text "\\"unterminated"',
    );
  });
  it("rejects an unknown format", () => {
    expect(() => formatFromPath("graph.rdf")).toThrow("unknown RDF format for graph.rdf: extension .rdf (expected .ttl, .nt, .nq or .trig)");
    expect(() => parseGraph("", { format: "rdfxml" as never })).toThrow(/unknown RDF format "rdfxml"/);
  });
});

describe("PrefixMap", () => {
  const map = new PrefixMap({ ex: "http://example.org/", exx: "http://example.org/", deep: "http://example.org/a/", "": "http://base/" });
  it("uses the longest namespace with a valid PN_LOCAL, the shortest name for a namespace", () => {
    expect(map.formatIri("http://example.org/a/b")).toBe("deep:b");
    expect(map.formatIri("http://example.org/x")).toBe("ex:x");
    expect(map.formatIri("http://base/Thing")).toBe(":Thing");
  });
  it("falls back to <iri> when the local part is not a valid PN_LOCAL (or empty)", () => {
    expect(map.formatIri("http://example.org/a b")).toBe("<http://example.org/a\\u0020b>");
    expect(map.formatIri("http://example.org/x/y")).toBe("<http://example.org/x/y>");
    expect(map.formatIri("http://example.org/end.")).toBe("<http://example.org/end.>");
    expect(map.formatIri("http://example.org/")).toBe("<http://example.org/>");
    expect(map.formatIri("http://example.org/-x")).toBe("<http://example.org/-x>");
  });
  it("accepts what Turtle accepts", () => {
    for (const ok of ["a", "a.b", "1abc", "a:b", "%20x", "_x", "é", "𥙑", "a-b", "a·b"]) expect(isPnLocal(ok)).toBe(true);
    for (const bad of ["a.", "-a", "a/b", "a~b", "a#b", "a%2"]) expect(isPnLocal(bad)).toBe(false);
  });
  it("writes names that re-parse to the same IRI", () => {
    const locals = ["a.b", "1abc", "a:b", "%20x", "_x", "𥙑", "a-b"];
    const text = `@prefix ex: <http://example.org/> .\n${locals.map((l, i) => `ex:${l} ex:p ${i} .`).join("\n")}`;
    const g = parseGraph(text);
    for (const q of g.store.getQuads(null, null, null, null)) {
      const rendered = formatTerm(q.subject, g.prefixes);
      const again = parseGraph(`@prefix ex: <http://example.org/> . ${rendered} ex:p 0 .`);
      expect(again.store.getQuads(null, null, null, null)[0].subject.value).toBe(q.subject.value);
    }
  });
  it("formats blank nodes and prefixed datatypes", () => {
    expect(formatTerm(DataFactory.blankNode("n1"), {})).toBe("_:n1");
    // a lone surrogate in an IRI is escaped (UTF-8 would make it U+FFFD); a pair stays
    expect(formatTerm(DataFactory.namedNode("urn:x:\ud800a"), {})).toBe("<urn:x:\\uD800a>");
    expect(formatTerm(DataFactory.namedNode("urn:x:\udc00"), { x: "urn:x:" })).toBe("<urn:x:\\uDC00>");
    expect(formatTerm(DataFactory.namedNode("urn:x:\ufffd"), {})).toBe("<urn:x:\ufffd>");
    expect(formatTerm(DataFactory.namedNode("urn:x:\u{25651}"), {})).toBe("<urn:x:\u{25651}>");
    expect(formatTerm(DataFactory.literal("2.50", DataFactory.namedNode("http://www.w3.org/2001/XMLSchema#decimal")), { xsd: "http://www.w3.org/2001/XMLSchema#" })).toBe('"2.50"^^xsd:decimal');
  });
});

describe("serializeGraph", () => {
  it("is lossless for the field cases (Turtle and N-Triples)", () => {
    const g = parseGraph(readFileSync(new URL("../fixtures/triple-index/field-cases.input.ttl", import.meta.url), "utf8"));
    for (const format of ["turtle", "ntriples"] as const) {
      const again = parseGraph(serializeGraph(g, { format }), { format });
      expect(fingerprintGraph({ ...again, prefixes: g.prefixes })).toBe(fingerprintGraph(g));
    }
    expect(serializeGraph(g)).toContain("@prefix ex: <http://example.org/>.");
  });
  it("writes files atomically in the format of the extension", () => {
    const dir = mkdtempSync(join(tmpdir(), "gw-rdf-"));
    const g = parseGraph('@prefix ex: <http://example.org/> . ex:a ex:p "7.50"^^<http://www.w3.org/2001/XMLSchema#decimal> .');
    writeGraphFile(join(dir, "out.nt"), g);
    expect(readFileSync(join(dir, "out.nt"), "utf8")).toBe('<http://example.org/a> <http://example.org/p> "7.50"^^<http://www.w3.org/2001/XMLSchema#decimal> .\n');
    expect(() => writeGraphFile(join(dir, "out.rdf"), g)).toThrow(/unknown RDF format/);
    expect(existsSync(join(dir, "out.rdf"))).toBe(false);
  });
  it("loadGraphFile names a missing file", () => {
    expect(() => loadGraphFile("/nonexistent/graph.ttl")).toThrow("no such file: /nonexistent/graph.ttl");
  });
});

describe.skipIf(!existsSync(SHARED))("real ontologies (needs ../shared/data; skipped when it is absent)", () => {
  it("schema.org Turtle and N-Triples give the same listing fingerprint", () => {
    const ttl = loadGraphFile(new URL("rdf/schemaorg-30.0-current-https.ttl", SHARED).pathname);
    const nt = loadGraphFile(new URL("rdf/schemaorg-30.0-current-https.nt", SHARED).pathname);
    expect(ttl.store.size).toBe(17949);
    expect(nt.store.size).toBe(17949);
    expect(fingerprintGraph({ ...nt, prefixes: ttl.prefixes })).toBe(fingerprintGraph(ttl));
  });
  it("the DBpedia ontology round-trips through serializeGraph", () => {
    const g = loadGraphFile(new URL("rdf/dbpedia-ontology.ttl", SHARED).pathname);
    expect(g.store.size).toBe(34680);
    const again = parseGraph(serializeGraph(g));
    expect(fingerprintGraph(again)).toBe(fingerprintGraph(g));
  });
});
