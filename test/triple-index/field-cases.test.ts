// The cases from the field listed in issue #7, each with the value it must have.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { DataFactory } from "n3";
import { createGraph, parseGraph, formatTerm, compareCodePoints } from "../../ts/rdf/index.js";
import { buildTripleIndex, fingerprintGraph, renderListing } from "../../ts/triple-index/index.js";

const { namedNode, literal, quad } = DataFactory;
const XSD = "http://www.w3.org/2001/XMLSchema#";
const P = { ex: "http://example.org/", xsd: XSD };
const fieldText = readFileSync(new URL("../fixtures/triple-index/field-cases.input.ttl", import.meta.url), "utf8");

function one(turtleObject: string): string {
  const g = parseGraph(`@prefix ex: <http://example.org/> . @prefix xsd: <${XSD}> . ex:s ex:p ${turtleObject} .`);
  const [q] = g.store.getQuads(null, null, null, null);
  return formatTerm(q.object, g.prefixes);
}

describe("lossless literals", () => {
  it("keeps a double's lexical form byte for byte", () => {
    expect(one('"98765.4321012345"^^xsd:double')).toBe('"98765.4321012345"^^xsd:double');
    expect(one('"1.0E-7"^^xsd:double')).toBe('"1.0E-7"^^xsd:double');
    expect(one("1.0E-7")).toBe('"1.0E-7"^^xsd:double');
  });
  it("keeps decimals as written, trailing zeros included", () => {
    expect(one('"7"^^xsd:decimal')).toBe('"7"^^xsd:decimal');
    expect(one('"7.50"^^xsd:decimal')).toBe('"7.50"^^xsd:decimal');
    expect(one("7.50")).toBe('"7.50"^^xsd:decimal');
    expect(one('"0.1000000000000000055511151231257827"^^xsd:decimal')).toBe('"0.1000000000000000055511151231257827"^^xsd:decimal');
  });
  it("keeps leading zeros, custom datatypes, xsd:string plain", () => {
    expect(one('"007"^^xsd:integer')).toBe('"007"^^xsd:integer');
    expect(one('"12 furlongs"^^ex:length')).toBe('"12 furlongs"^^ex:length');
    expect(one('"12"^^<http://other.example/dt#x>')).toBe('"12"^^<http://other.example/dt#x>');
    expect(one('"plain"^^xsd:string')).toBe('"plain"');
  });
  it("keeps astral characters unescaped", () => {
    expect(one('"𥙑 and 😀"')).toBe('"𥙑 and 😀"');
  });
  it("renders a directional language string (RDF 1.2)", () => {
    const l = literal("שלום", { language: "he", direction: "rtl" } as never);
    expect(formatTerm(l, P)).toBe('"שלום"@he--rtl');
  });
});

describe("language tags are case-insensitive", () => {
  it('N3.js stores "Lyon"@fr-FR and "Lyon"@fr-fr as one literal (lower-cased tag)', () => {
    const g = parseGraph('@prefix ex: <http://example.org/> . ex:lyon ex:name "Lyon"@fr-FR , "Lyon"@fr-fr .');
    expect(g.store.size).toBe(1);
    const [q] = g.store.getQuads(null, null, null, null);
    expect((q.object as { language: string }).language).toBe("fr-fr");
  });
  it("gives both spellings the same id, fingerprint and rendering", () => {
    const a = parseGraph('@prefix ex: <http://example.org/> . ex:lyon ex:name "Lyon"@fr-FR .');
    const b = parseGraph('@prefix ex: <http://example.org/> . ex:lyon ex:name "Lyon"@fr-fr .');
    expect(fingerprintGraph(a)).toBe(fingerprintGraph(b));
    const index = buildTripleIndex(a);
    expect(renderListing(index)).toBe('[1] ex:lyon ex:name "Lyon"@fr-fr\n');
    const probe = quad(namedNode("http://example.org/lyon"), namedNode("http://example.org/name"), literal("Lyon", "fr-FR"));
    expect(index.ids.get(probe as never)).toBe(1);
    // A term from another factory, with an upper-case tag, renders the same.
    expect(formatTerm({ termType: "Literal", value: "Lyon", language: "fr-FR", datatype: namedNode(`${"http://www.w3.org/1999/02/22-rdf-syntax-ns#"}langString`) } as never, P)).toBe('"Lyon"@fr-fr');
  });
});

describe("control characters", () => {
  const value = "ring\u0007back\bunit\u001Fend\u007F";
  it("escape validly (\\b where the grammar has it, \\u0007, \\u001F) on one line", () => {
    const rendered = formatTerm(literal(value), P);
    expect(rendered).toBe('"ring\\u0007back\\bunit\\u001Fend\\u007F"');
  });
  it("re-parse to the same value in Turtle and N-Triples", () => {
    const rendered = formatTerm(literal(value), P);
    for (const format of ["turtle", "ntriples"] as const) {
      const g = parseGraph(`<http://example.org/s> <http://example.org/p> ${rendered} .\n`, { format });
      expect(g.store.getQuads(null, null, null, null)[0].object.value).toBe(value);
    }
  });
  it("escape quotes, backslashes, newlines, tabs and carriage returns", () => {
    expect(formatTerm(literal('a "b" \\ c\nd\te\rf'), P)).toBe('"a \\"b\\" \\\\ c\\nd\\te\\rf"');
  });
});

describe("code point order", () => {
  it("lists <urn:k:a>, <urn:k:Ｚ>, <urn:k:𥙑> in that order (not JavaScript's default sort)", () => {
    const g = parseGraph("<urn:k:𥙑> a <urn:k:Key> . <urn:k:Ｚ> a <urn:k:Key> . <urn:k:a> a <urn:k:Key> .");
    const subjects = buildTripleIndex(g).order.map((b) => b.subject.value);
    expect(subjects).toEqual(["urn:k:a", "urn:k:Ｚ", "urn:k:𥙑"]);
    expect(["urn:k:𥙑", "urn:k:Ｚ"].sort()).toEqual(["urn:k:𥙑", "urn:k:Ｚ"]); // what JS would do
  });
  it("puts an emoji subject after a U+FFFD subject", () => {
    const g = parseGraph("<urn:k:😀> <urn:k:p> 1 . <urn:k:\uFFFD> <urn:k:p> 2 .");
    expect(buildTripleIndex(g).order.map((b) => b.subject.value)).toEqual(["urn:k:\uFFFD", "urn:k:😀"]);
    expect(compareCodePoints("\uFFFD", "😀")).toBeLessThan(0);
    expect("\uFFFD" < "😀").toBe(false); // UTF-16 code units say otherwise
  });
  it("orders rdf:type first, then predicate, then object", () => {
    // rdf: is bound by default (the seed's rdflib bindings) though the graph does not declare it
    const g = parseGraph('@prefix ex: <http://example.org/> . ex:s ex:b "2", "10" ; ex:a "z" ; a ex:T .');
    expect(renderListing(buildTripleIndex(g))).toBe('[1] ex:s rdf:type ex:T\n[2] ex:s ex:a "z"\n[3] ex:s ex:b "10"\n[4] ex:s ex:b "2"\n');
  });
});

describe("the field-cases fixture", () => {
  it("lists every case once with the expected renderings", () => {
    const g = parseGraph(fieldText, { source: "field-cases.input.ttl" });
    const listing = renderListing(buildTripleIndex(g));
    expect(listing).toContain('ex:measure ex:double "98765.4321012345"^^xsd:double\n');
    expect(listing).toContain('ex:measure ex:decimal "7.50"^^xsd:decimal\n');
    expect(listing.match(/"Lyon"/g)).toHaveLength(1);
    expect(listing.split("\n").filter(Boolean)).toHaveLength(g.store.size);
  });
  it("renders a graph built from terms of another factory the same as the parsed one", () => {
    const g = parseGraph(fieldText);
    const copy = createGraph(g.store.getQuads(null, null, null, null) as never, g.prefixes);
    expect(fingerprintGraph(copy)).toBe(fingerprintGraph(g));
  });
});
