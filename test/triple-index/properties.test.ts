// Property tests (fast-check): ids, fingerprint sensitivity, listing shape, round trips.
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { DataFactory } from "n3";
import type * as RDF from "@rdfjs/types";
import { createGraph, parseGraph, serializeGraph, compareCodePoints, codePointSortKey } from "../../ts/rdf/index.js";
import { buildTripleIndex, fingerprintGraph, renderListing, sortTriples } from "../../ts/triple-index/index.js";
import { toPrefixMap } from "../../ts/rdf/index.js";

const { namedNode, literal, blankNode, quad } = DataFactory;
const PREFIXES = { ex: "http://example.org/", xsd: "http://www.w3.org/2001/XMLSchema#" };

// Text with the characters that break naive writers: controls, quotes, backslashes, astral.
const tricky = fc.string({ unit: fc.oneof(fc.constantFrom("a", "Z", "\"", "\\", "\n", "\t", "\r", "\b", "\u0007", "\u001f", "\u007f", "Ｚ", "\uFFFD", "😀", "𥙑", " ", "é", ".", "-"), fc.string({ minLength: 1, maxLength: 1, unit: "binary" })), maxLength: 8 });
const iri = fc.oneof(
  fc.stringMatching(/^[a-z][a-z0-9]{0,4}$/).map((s) => namedNode(`http://example.org/${s}`)),
  fc.constantFrom("a", "Ｚ", "😀", "\uFFFD", "𥙑").map((s) => namedNode(`urn:k:${s}`)),
  fc.stringMatching(/^[a-z]{1,3}$/).map((s) => namedNode(`http://other.example/${s}#x`)),
);
const subject = fc.oneof({ weight: 4, arbitrary: iri }, { weight: 1, arbitrary: fc.constantFrom("n1", "n2", "x").map((s) => blankNode(s)) });
const object = fc.oneof(
  iri,
  tricky.map((s) => literal(s)),
  fc.tuple(tricky, fc.constantFrom("en", "fr-fr", "de")).map(([s, l]) => literal(s, l)),
  fc.tuple(fc.constantFrom("7", "7.50", "007", "1.0E-7", "98765.4321012345", "x"), fc.constantFrom("decimal", "double", "integer")).map(([v, t]) => literal(v, namedNode(`${PREFIXES.xsd}${t}`))),
);
const predicate = fc.oneof(iri, fc.constant(namedNode("http://www.w3.org/1999/02/22-rdf-syntax-ns#type")));
const triple = fc.tuple(subject, predicate, object).map(([s, p, o]) => quad(s as RDF.Quad_Subject, p as RDF.Quad_Predicate, o as RDF.Quad_Object) as unknown as RDF.Quad);
const graphArb = fc.array(triple, { minLength: 0, maxLength: 30 }).map((qs) => createGraph(qs, PREFIXES));

const key = (q: RDF.Quad) => JSON.stringify([q.subject, q.predicate, q.object].map((t) => [t.termType, t.value, (t as RDF.Literal).language ?? "", (t as RDF.Literal).datatype?.value ?? ""]));

describe("triple index properties", () => {
  it("ids are 1..N without gaps, in listing order, and resolve(ids.get(t)) === t", () => {
    fc.assert(
      fc.property(graphArb, (g) => {
        const index = buildTripleIndex(g);
        expect(index.size).toBe(g.store.size);
        expect([...index.byId.keys()]).toEqual(Array.from({ length: index.size }, (_, i) => i + 1));
        const listed = index.order.flatMap((b) => b.triples.map((t) => t.tripleId));
        expect(listed).toEqual(Array.from({ length: index.size }, (_, i) => i + 1));
        for (const t of index.byId.values()) expect(index.resolve(index.ids.get(t)!)).toBe(t);
        expect(index.isEmpty).toBe(index.size === 0);
      }),
      { numRuns: 150 },
    );
  });

  it("the listing has one line per triple", () => {
    fc.assert(
      fc.property(graphArb, (g) => {
        const listing = renderListing(buildTripleIndex(g));
        const lines = listing === "" ? [] : listing.slice(0, -1).split("\n");
        expect(lines).toHaveLength(g.store.size);
      }),
      { numRuns: 150 },
    );
  });

  it("the fingerprint changes when a triple is added, removed or changed", () => {
    fc.assert(
      fc.property(graphArb, triple, fc.nat(), tricky, (g, extra, pick, text) => {
        const before = fingerprintGraph(g);
        const quads = g.store.getQuads(null, null, null, null) as unknown as RDF.Quad[];
        if (!g.store.has(extra as never)) {
          const added = createGraph([...quads, extra], g.prefixes);
          expect(fingerprintGraph(added)).not.toBe(before);
        }
        if (quads.length > 0) {
          const victim = quads[pick % quads.length];
          const removed = createGraph(quads.filter((q) => q !== victim), g.prefixes);
          expect(fingerprintGraph(removed)).not.toBe(before);
          const changedObject = literal(`${text}\u0000changed`);
          const changed = createGraph(quads.map((q) => (q === victim ? (quad(q.subject as never, q.predicate as never, changedObject) as unknown as RDF.Quad) : q)), g.prefixes);
          if (changed.store.size === g.store.size) expect(fingerprintGraph(changed)).not.toBe(before);
        }
      }),
      { numRuns: 150 },
    );
  });

  it("the fingerprint does not depend on insertion order", () => {
    fc.assert(
      fc.property(graphArb, fc.nat(), (g, seed) => {
        const quads = g.store.getQuads(null, null, null, null) as unknown as RDF.Quad[];
        const shuffled = [...quads].sort((a, b) => ((key(a).length * 31 + seed) % 7) - ((key(b).length * 31 + seed) % 7));
        expect(fingerprintGraph(createGraph(shuffled, g.prefixes))).toBe(fingerprintGraph(g));
      }),
      { numRuns: 100 },
    );
  });

  it("the N3.Store fast path and the public-API path order identically", () => {
    fc.assert(
      fc.property(graphArb, (g) => {
        const map = toPrefixMap(g.prefixes);
        const fast = sortTriples(g.store, map, { path: "fast" });
        const generic = sortTriples(g.store, map, { path: "generic" });
        expect(fast.lines).toEqual(generic.lines);
        expect(fast.blockStarts).toEqual(generic.blockStarts);
        expect(fast.quads.map(key)).toEqual(generic.quads.map(key));
      }),
      { numRuns: 150 },
    );
  });

  it("serializing (Turtle, N-Triples) and re-parsing keeps the fingerprint", () => {
    fc.assert(
      fc.property(graphArb, (g) => {
        for (const format of ["turtle", "ntriples"] as const) {
          const again = parseGraph(serializeGraph(g, { format }), { format });
          expect(again.store.size).toBe(g.store.size);
          expect(fingerprintGraph({ ...again, prefixes: g.prefixes })).toBe(fingerprintGraph(g));
        }
      }),
      { numRuns: 100 },
    );
  });

  it("code point order equals UTF-8 byte order", () => {
    const enc = new TextEncoder();
    const bytes = (s: string) => Array.from(enc.encode(s));
    const cmpBytes = (a: number[], b: number[]) => {
      for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i] - b[i];
      return a.length - b.length;
    };
    fc.assert(
      fc.property(tricky, tricky, (a, b) => {
        const expected = Math.sign(cmpBytes(bytes(a), bytes(b)));
        expect(Math.sign(compareCodePoints(a, b))).toBe(expected);
        const ka = codePointSortKey(a);
        const kb = codePointSortKey(b);
        expect(Math.sign(ka < kb ? -1 : ka > kb ? 1 : 0)).toBe(expected);
      }),
      { numRuns: 500 },
    );
  });
});
