// One contract, two backends: the WASM listing kernel (assembly/listing.ts) and the TS path
// of ts/triple-index/ordering.ts must render, order and hash every graph identically.
//
// npm test: the real ontologies in Turtle whole, and of the 30 MB WordNet N-Triples file (230,000
// lines, most of its time spent parsing) a spread of WORDNET_LINES lines from its first to its last:
// each line of N-Triples is a whole triple, so the sample is a graph of the same kinds of terms
// (synset IRIs, rdfs:subClassOf, rdf:type, language-tagged labels); the edge terms and the random
// graphs in full. npm run test:deep (test/depth.ts): every file whole.
import { existsSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { DataFactory, Store } from "n3";
import type * as RDF from "@rdfjs/types";
import { createGraph, GraphStore, parseGraph, toPrefixMap, type Graph } from "../../ts/rdf/index.js";
import { loadGraphFile } from "../../ts/rdf/load.js";
import { sortTriples } from "../../ts/triple-index/index.js";
import { encodePrefixTable, listingTriplesView, listingWasm } from "../../bindings/listing.js";
import { listingWasmFor as wasmFor } from "../../bindings/listing.js";
import { firstDifference } from "../same.js";
import { DEEP, spread } from "../depth.js";

/** npm test: how many lines of an N-Triples file of the real data it reads (see above). */
const WORDNET_LINES = 20_000;

/** The graph of a real data file: whole, but for an N-Triples file in npm test, a spread of its lines. */
function realGraph(path: string): Graph {
  if (DEEP || !path.endsWith(".nt")) return loadGraphFile(path);
  const lines = readFileSync(path, "utf8").split("\n");
  return parseGraph(`${spread(lines, WORDNET_LINES).join("\n")}\n`, { format: "ntriples", source: path });
}

const { namedNode, literal, blankNode, quad, variable } = DataFactory;
const SHARED = new URL("../../../shared/data/", import.meta.url);
const XSD = "http://www.w3.org/2001/XMLSchema#";
const RDF_NS = "http://www.w3.org/1999/02/22-rdf-syntax-ns#";

/** Both backends on one graph: same fingerprint, block starts, order and lines. */
function expectParity(g: Graph): string {
  const map = toPrefixMap(g.prefixes);
  const wasm = sortTriples(g.store, map, { backend: "wasm", fingerprint: true });
  const ts = sortTriples(g.store, map, { backend: "ts", fingerprint: true });
  expect(firstDifference(wasm.lines, ts.lines)).toBeNull();
  expect(firstDifference(wasm.blockStarts, ts.blockStarts)).toBeNull();
  expect(firstDifference(wasm.spo, ts.spo)).toBeNull();
  expect(wasm.fingerprint()).toBe(ts.fingerprint());
  return wasm.fingerprint();
}

/** Each term's rendering by the kernel, next to formatTerm's (via the TS path's texts). */
function kernelRenderings(g: Graph): { wasm: string[]; ts: readonly string[] } {
  const map = toPrefixMap(g.prefixes);
  const ts = sortTriples(g.store, map, { backend: "ts" });
  const exports = wasmFor("wasm")!;
  // the TS path numbers terms by first appearance in the same rows: rebuild its keys
  const store = g.store as unknown as { _entityIndex: { _entities: Record<number, string> }; quadRows(): { rows: Int32Array; count: number } };
  const { rows, count } = store.quadRows();
  const keys: string[] = [];
  const seen = new Map<number, number>();
  const view = listingTriplesView(exports, count);
  for (let k = 0; k < count; k++) {
    for (let j = 0; j < 3; j++) {
      const e = rows[4 * k + j];
      if (!seen.has(e)) {
        seen.set(e, keys.length);
        keys.push(store._entityIndex._entities[e]);
      }
      view[3 * k + j] = seen.get(e)!;
    }
  }
  const listing = listingWasm(exports, keys, -1, encodePrefixTable(map.shorteningOrder), { withRenderings: true });
  expect(listing, "the kernel declined a graph it should render").not.toBeNull();
  return { wasm: listing!.renderings!, ts: ts.texts };
}

const PREFIXES = {
  ex: "http://example.org/",
  exa: "http://example.org/a",
  deep: "http://example.org/a/b#",
  "": "http://example.org/c/",
  "1bad": "http://example.org/bad/", // not a PN_PREFIX: never used to shorten
  xsd: XSD,
  rdf: RDF_NS,
  é: "http://example.org/é/",
};

// Local parts at the edges of PN_LOCAL, literals at the edges of the escape rules.
const LOCALS = ["x", "0start", "-dash", "_u", ":colon", "a.b", "trail.", "a%41", "bad%4", "%zz", "a b", "a<b", "Ｚ", "\u00d7x", "x\u00b7y", "x\u0300", "x\u203f", "𥙑", "\u00c0", "\u00f7", "\ufdd0", "\ufffd", "a:b:c", "é", ""];
const LEXICALS = ["plain", 'say "hi"', "back\\slash", "tab\there", "line\nbreak", "cr\rx", "bell\u0007", "bs\b", "ff\f", "us\u001f", "del\u007f", "fffe\ufffe", "ffff\uffff", "fffd\ufffd", "astral 😀 𥙑", "é Ｚ", ""];

function edgeGraph(): Graph {
  const quads: RDF.Quad[] = [];
  const s = namedNode("http://example.org/s");
  let i = 0;
  const p = () => namedNode(`http://example.org/p${i++ % 5}`);
  for (const local of LOCALS) {
    for (const ns of ["http://example.org/", "http://example.org/a", "http://example.org/a/b#", "http://example.org/c/", "http://example.org/bad/", "http://example.org/é/", "urn:x:"]) {
      quads.push(quad(namedNode(ns + local), p(), s) as unknown as RDF.Quad);
      quads.push(quad(s, p(), namedNode(ns + local)) as unknown as RDF.Quad);
    }
  }
  for (const lexical of LEXICALS) {
    quads.push(quad(s, p(), literal(lexical)) as unknown as RDF.Quad);
    quads.push(quad(s, p(), literal(lexical, "en-GB")) as unknown as RDF.Quad);
    quads.push(quad(s, p(), literal(lexical, { language: "ar", direction: "rtl" } as never)) as unknown as RDF.Quad);
    for (const datatype of [`${XSD}string`, `${XSD}decimal`, `${RDF_NS}langString`, "http://example.org/a/b#dt", "urn:dt", "http://example.org/a b"]) {
      quads.push(quad(s, p(), literal(lexical, namedNode(datatype))) as unknown as RDF.Quad);
    }
  }
  for (const label of ["b1", "x", "é"]) quads.push(quad(blankNode(label), namedNode(`${RDF_NS}type`), s) as unknown as RDF.Quad);
  // IRIs IRIREF forbids raw characters of (terms built in code, not by a parser)
  for (const c of [" ", "<", ">", '"', "{", "}", "|", "^", "`", "\\", "\u0001"]) quads.push(quad(s, p(), namedNode(`http://example.org/odd${c}iri`)) as unknown as RDF.Quad);
  return createGraph(quads, PREFIXES);
}

describe("listing kernel parity (WASM vs TS)", () => {
  it("renders every edge term exactly as formatTerm does", () => {
    const g = edgeGraph();
    const { wasm, ts } = kernelRenderings(g);
    expect(wasm).toEqual(ts);
    expect(ts).toContain('"say \\"hi\\""');
    expect(ts).toContain('"bell\\u0007"');
    expect(ts).toContain('"ffff\\uFFFF"');
    expect(ts).toContain("exa:%41"); // the longest namespace wins: exa, not ex
    expect(ts).toContain("<http://example.org/trail.>");
    expect(ts).toContain("deep:x");
    expect(ts).toContain("<http://example.org/odd\\u0020iri>");
    expectParity(g);
  });

  it("orders and hashes random graphs identically (fast-check)", () => {
    const unit = fc.oneof(fc.constantFrom("a", "b", "Z", "0", ".", "-", "%", "%4", "1", '"', "\\", "\n", "\t", "\u0007", "\u007f", "é", "Ｚ", "\uFFFD", "\uFFFF", "😀", "𥙑", " ", ":", "#", "/"));
    const text = fc.string({ unit, maxLength: 6 });
    const ns = fc.constantFrom("http://example.org/", "http://example.org/a", "http://example.org/a/b#", "http://example.org/c/", "urn:k:", "http://example.org/é/");
    const iri = fc.tuple(ns, text).map(([n, t]) => namedNode(n + t));
    const subject = fc.oneof({ weight: 4, arbitrary: iri }, { weight: 1, arbitrary: fc.constantFrom("n1", "n2", "é").map((l) => blankNode(l)) });
    const predicate = fc.oneof(iri, fc.constant(namedNode(`${RDF_NS}type`)));
    const object = fc.oneof(
      iri,
      text.map((t) => literal(t)),
      fc.tuple(text, fc.constantFrom("en", "fr-ca", "de")).map(([t, l]) => literal(t, l)),
      fc.tuple(text, fc.constantFrom(`${XSD}decimal`, `${XSD}string`, "http://example.org/a/b#dt", "urn:dt")).map(([t, d]) => literal(t, namedNode(d))),
    );
    const triple = fc.tuple(subject, predicate, object).map(([s, p, o]) => quad(s as RDF.Quad_Subject, p as RDF.Quad_Predicate, o as RDF.Quad_Object) as unknown as RDF.Quad);
    fc.assert(
      fc.property(fc.array(triple, { maxLength: 60 }), (quads) => {
        expectParity(createGraph(quads, PREFIXES));
      }),
      { numRuns: 300 },
    );
  });

  it("one subject with 2,000 triples (a block long enough for the merge sort)", () => {
    const s = namedNode("http://example.org/hub");
    const quads = Array.from({ length: 2000 }, (_, i) => quad(s, namedNode(`http://example.org/p${i % 7}`), literal(`v${(i * 7919) % 2000}`)) as unknown as RDF.Quad);
    expectParity(createGraph(quads, PREFIXES));
  });

  it("falls back to TS, with the same result, for terms only the TS path renders", () => {
    // a variable, a quoted triple and a lone surrogate: the kernel declines these graphs
    const s = namedNode("http://example.org/s");
    const p = namedNode("http://example.org/p");
    for (const o of [variable("v"), literal("lone \ud800 surrogate")]) {
      const g = createGraph([quad(s, p, o as RDF.Quad_Object) as unknown as RDF.Quad, quad(s, p, literal("ok")) as unknown as RDF.Quad], PREFIXES);
      expectParity(g);
    }
    const star = parseGraph('@prefix ex: <http://example.org/> . ex:s ex:p <<( ex:a ex:b ex:c )>> .');
    expectParity(star);
  });

  it("the same result whether the store is a GraphStore or a plain N3.Store", () => {
    const g = edgeGraph();
    const plain = { ...g, store: new Store(g.store.getQuads(null, null, null, null)) };
    expect(plain.store instanceof GraphStore).toBe(false);
    expect(expectParity(plain)).toBe(expectParity(g));
  });
});

describe.skipIf(!existsSync(SHARED))("listing kernel parity on the real ontologies (needs ../shared/data; skipped when it is absent)", () => {
  for (const file of ["dbpedia-ontology.ttl", "schemaorg-30.0-current-https.ttl", "wordnet30-noun-taxonomy.nt"]) {
    it(`${file}: every term rendered, ordered and hashed identically`, () => {
      const g = realGraph(new URL(`rdf/${file}`, SHARED).pathname);
      expect(g.store.size).toBeGreaterThan(10_000);
      const { wasm, ts } = kernelRenderings(g);
      expect(wasm.length).toBe(ts.length);
      expect(firstDifference(wasm, ts)).toBeNull();
      expectParity(g);
    });
  }
});
