// GraphStore's flat quad table must always list exactly the quads the store holds.
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { Readable } from "node:stream";
import { DataFactory } from "n3";
import type * as RDF from "@rdfjs/types";
import { createGraph, GraphStore, parseGraph } from "../../ts/rdf/index.js";
import { fingerprintGraph } from "../../ts/triple-index/index.js";

const { namedNode, literal, quad, defaultGraph } = DataFactory;
const ex = (s: string) => namedNode(`http://example.org/${s}`);
const q = (s: string, p: string, o: string, g?: string) => quad(ex(s), ex(p), o.startsWith('"') ? literal(o.slice(1)) : ex(o), g ? ex(g) : defaultGraph()) as unknown as RDF.Quad;

/** The table's rows as sorted "s p o g" strings of entity keys, next to the store's own quads. */
function tableAndStore(store: GraphStore): { table: string[]; quads: string[] } {
  const entities = (store as unknown as { _entityIndex: { _entities: Record<number, string> } })._entityIndex._entities;
  const { rows, count } = store.quadRows();
  const table: string[] = [];
  for (let r = 0; r < count; r++) table.push([0, 1, 2, 3].map((j) => entities[rows[4 * r + j]]).join(" "));
  const id = (t: RDF.Term) => (t.termType === "Literal" ? `"${t.value}"` : t.termType === "DefaultGraph" ? "" : t.value);
  const quads = (store.getQuads(null, null, null, null) as unknown as RDF.Quad[]).map((x) => [x.subject, x.predicate, x.object, x.graph].map(id).join(" "));
  return { table: table.sort(), quads: quads.sort() };
}

describe("GraphStore", () => {
  it("parseGraph and createGraph make GraphStores whose table lists the parsed triples", () => {
    const g = parseGraph('@prefix ex: <http://example.org/> . ex:a ex:p ex:b , "x" . ex:b ex:p ex:a .');
    expect(g.store).toBeInstanceOf(GraphStore);
    const { table, quads } = tableAndStore(g.store as GraphStore);
    expect(table).toHaveLength(3);
    expect(table).toEqual(quads);
    expect(createGraph([q("a", "p", "b")]).store).toBeInstanceOf(GraphStore);
  });

  it("a duplicate add is not appended; removals, removeMatches and deleteGraph are reflected", async () => {
    const store = new GraphStore();
    expect(store.addQuad(q("a", "p", "b"))).toBe(true);
    expect(store.addQuad(q("a", "p", "b"))).toBe(false);
    store.addQuads([q("a", "p", "c"), q("b", "p", "c"), q("c", "p", '"lit'), q("a", "p", "b", "g1")]);
    expect(store.quadRows().count).toBe(5);
    expect(store.removeQuad(q("a", "p", "c"))).toBe(true);
    expect(store.removeQuad(q("zz", "p", "c"))).toBe(false);
    expect(tableAndStore(store).table).toEqual(tableAndStore(store).quads);
    expect(store.quadRows().count).toBe(4);
    // after the rebuild, adds append again
    store.addQuad(q("d", "p", "e"));
    expect(tableAndStore(store).table).toEqual(tableAndStore(store).quads);
    await new Promise((resolve) => store.removeMatches(ex("b"), null, null, null).on("end", resolve));
    expect(tableAndStore(store).table).toEqual(tableAndStore(store).quads);
    await new Promise((resolve) => store.deleteGraph(ex("g1")).on("end", resolve));
    const { table, quads } = tableAndStore(store);
    expect(table).toEqual(quads);
    expect(table).toHaveLength(3);
  });

  it("quads given to the constructor or imported from a stream are in the table", async () => {
    const store = new GraphStore([q("a", "p", "b"), q("b", "p", "c")]);
    expect(tableAndStore(store).table).toEqual(tableAndStore(store).quads);
    expect(store.quadRows().count).toBe(2);
    const stream = new Readable({ objectMode: true, read() {} });
    const done = new Promise((resolve) => stream.on("end", resolve));
    store.import(stream as never);
    stream.push(q("c", "p", "d"));
    stream.push(null);
    await done;
    expect(tableAndStore(store).table).toEqual(tableAndStore(store).quads);
    expect(store.quadRows().count).toBe(3);
  });

  it("after any sequence of adds and removes, the table equals the store and the fingerprint equals a fresh graph's (fast-check)", () => {
    const names = fc.constantFrom("a", "b", "c", "d");
    const op = fc.tuple(fc.boolean(), names, names, names);
    fc.assert(
      fc.property(fc.array(op, { maxLength: 40 }), (ops) => {
        const g = createGraph([], { ex: "http://example.org/" });
        const store = g.store as GraphStore;
        for (const [add, s, p, o] of ops) {
          if (add) store.addQuad(q(s, p, o));
          else store.removeQuad(q(s, p, o));
          const { table, quads } = tableAndStore(store);
          expect(table).toEqual(quads);
        }
        const fresh = createGraph(store.getQuads(null, null, null, null) as unknown as RDF.Quad[], g.prefixes);
        expect(fingerprintGraph(g)).toBe(fingerprintGraph(fresh));
      }),
      { numRuns: 200 },
    );
  });
});
