// applyCritique: drift refusal, per-item reasons, atomic items, guards; canonicalHash bounds.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parseGraph, serializeGraph } from "../../ts/rdf/index.js";
import {
  applyCritique,
  buildTripleIndex,
  canonicalHash,
  CanonicalizationLimitError,
  CritiqueFormatError,
  fingerprintGraph,
  parseCritique,
  renderListing,
  TripleIndexDriftError,
} from "../../ts/triple-index/index.js";

const dbpedia = () =>
  parseGraph(readFileSync(new URL("../fixtures/triple-index/dbpedia-mountains.input.ttl", import.meta.url), "utf8"), { source: "dbpedia-mountains.input.ttl" });

function idOf(index: ReturnType<typeof buildTripleIndex>, needle: string): number {
  const line = renderListing(index).split("\n").find((l) => l.includes(needle));
  if (!line) throw new Error(`no line with ${needle}`);
  return Number(/^\[(\d+)\]/.exec(line)![1]);
}

describe("applyCritique on the DBpedia excerpt", () => {
  it("removes and replaces by id, and reports what it applied", () => {
    const g = dbpedia();
    const index = buildTripleIndex(g);
    const disjoint = idOf(index, ":Mountain owl:disjointWith :Person");
    const volcanoSuper = idOf(index, ":Volcano rdfs:subClassOf :NaturalPlace");
    const report = applyCritique(g, index, [
      { op: "remove", tripleIds: [disjoint] },
      { op: "replace", tripleIds: [volcanoSuper], correctValue: ":Volcano rdfs:subClassOf :Mountain ." },
    ]);
    expect(report.rejected).toEqual([]);
    expect(report.applied.map((a) => [a.item, a.op, a.removed.length, a.added.length])).toEqual([
      [1, "remove", 1, 0],
      [2, "replace", 1, 1],
    ]);
    expect(report.fingerprintBefore).toBe(index.fingerprint);
    expect(report.fingerprintAfter).toBe(fingerprintGraph(g));
    expect(report.fingerprintAfter).not.toBe(index.fingerprint);
    const after = renderListing(buildTripleIndex(g));
    expect(after).not.toContain(":Mountain owl:disjointWith :Person");
    expect(after).toContain(":Volcano rdfs:subClassOf :Mountain\n");
    expect(after).not.toContain(":Volcano rdfs:subClassOf :NaturalPlace");
    expect(index.matches(g)).toBe(false);
  });

  it("refuses the whole critique on drift, naming both fingerprints, and changes nothing", () => {
    const g = dbpedia();
    const index = buildTripleIndex(g);
    const disjoint = idOf(index, ":Mountain owl:disjointWith :Person");
    applyCritique(g, index, [{ op: "remove", tripleIds: [disjoint] }]);
    const drifted = fingerprintGraph(g);
    const before = serializeGraph(g, { format: "ntriples" });
    let error: unknown;
    try {
      applyCritique(g, index, [{ op: "remove", tripleIds: [1] }]);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(TripleIndexDriftError);
    expect((error as Error).message).toContain(index.fingerprint);
    expect((error as Error).message).toContain(drifted);
    expect(serializeGraph(g, { format: "ntriples" })).toBe(before);
  });

  it("reports unknown ids, repeated ids, and unparsable correctValue per item; others still apply", () => {
    const g = dbpedia();
    const index = buildTripleIndex(g);
    const report = applyCritique(g, index, [
      { op: "remove", tripleIds: [2, 9999] },
      { op: "remove", tripleIds: [3] },
      { op: "remove", tripleIds: [3] },
      { op: "replace", tripleIds: [4], correctValue: ":Volcano rdfs:label \"unterminated ." },
      { op: "replace", tripleIds: [5] },
      { op: "replace", tripleIds: [6], correctValue: "nope:x :p :o ." },
    ]);
    expect(report.applied.map((a) => a.item)).toEqual([2]);
    expect(report.rejected.map((r) => [r.item, r.code])).toEqual([
      [1, "unknown-id"],
      [3, "already-removed"],
      [4, "unparsable-correct-value"],
      [5, "missing-correct-value"],
      [6, "unparsable-correct-value"],
    ]);
    expect(report.rejected[0].reason).toBe(`unknown triple id 9999: the listing has ids 1..${index.scopeSize} (read-only lines carry no id)`);
    expect(report.rejected[1].reason).toBe("triple 3 was already removed by item 2");
    expect(report.rejected[2].reason).toMatch(/^correctValue is not valid Turtle at line 1/);
    expect(report.rejected[4].reason).toContain("nope");
    // item 1 was atomic: triple 2 is still there
    expect(g.store.has(index.resolve(2)! as never)).toBe(true);
  });

  it("gives no id to read-only (out-of-scope) triples, so they cannot be cited", () => {
    const g = dbpedia();
    const scope = parseGraph(readFileSync(new URL("../fixtures/triple-index/dbpedia-mountains.input.ttl", import.meta.url), "utf8").replace(/^:Volcano[\s\S]*?\n\n/m, ""));
    const index = buildTripleIndex(g, { scope });
    expect(index.scopeSize).toBe(scope.store.size);
    expect(index.tripleCount).toBe(g.store.size);
    const listing = renderListing(index);
    const volcanoLines = listing.split("\n").filter((l) => l.includes(" :Volcano ") || l.startsWith("[read-only] :Volcano"));
    expect(volcanoLines.length).toBeGreaterThan(0);
    for (const l of volcanoLines) expect(l.startsWith("[read-only] ")).toBe(true);
    const report = applyCritique(g, index, [{ op: "remove", tripleIds: [index.scopeSize + 1] }]);
    expect(report.rejected[0].code).toBe("unknown-id");
  });
});

describe("guards", () => {
  const small = () =>
    parseGraph(`@prefix ex: <http://example.org/> .
ex:a a ex:T ; ex:p "1" ; ex:q _:b .
_:b ex:r "x" ; ex:s "y" .
ex:c ex:p "2" .`);

  it("maxDeleteShare refuses the item that crosses the cap", () => {
    const g = small();
    const index = buildTripleIndex(g);
    const report = applyCritique(g, index, [{ op: "remove", tripleIds: [1] }, { op: "remove", tripleIds: [2, 3] }], { maxDeleteShare: 0.4 });
    expect(report.applied.map((a) => a.item)).toEqual([1]);
    expect(report.rejected[0]).toMatchObject({ item: 2, code: "guard", guard: "maxDeleteShare" });
  });

  it("keepSubjects refuses a REMOVE that empties a subject", () => {
    const g = small();
    const index = buildTripleIndex(g);
    const last = index.order.find((b) => b.subject.value === "http://example.org/c")!.triples[0].tripleId!;
    const report = applyCritique(g, index, [{ op: "remove", tripleIds: [last] }], { keepSubjects: true });
    expect(report.rejected[0]).toMatchObject({ guard: "keepSubjects" });
    expect(report.rejected[0].reason).toContain("<http://example.org/c>");
  });

  it("keepSubjectOnReplace refuses a REPLACE that renames its subject", () => {
    const g = small();
    const index = buildTripleIndex(g);
    const id = index.ids.get('ex:c\tex:p\t"2"')!;
    const ok = applyCritique(g, index, [{ op: "replace", tripleIds: [id], correctValue: 'ex:c ex:p "3" .' }], { keepSubjectOnReplace: true });
    expect(ok.applied).toHaveLength(1);
    const g2 = small();
    const index2 = buildTripleIndex(g2);
    const bad = applyCritique(g2, index2, [{ op: "replace", tripleIds: [id], correctValue: 'ex:d ex:p "2" .' }], { keepSubjectOnReplace: true });
    expect(bad.rejected[0]).toMatchObject({ guard: "keepSubjectOnReplace" });
  });

  it("wholeBlankNodes: a blank node's triples go whole or not at all", () => {
    const g = small();
    const index = buildTripleIndex(g);
    const bTriples = index.order.find((b) => b.subject.termType === "BlankNode")!.triples.map((t) => t.tripleId!);
    const pointer = index.ids.get("ex:a\tex:q\t_:b")!;
    const partial = applyCritique(g, index, [{ op: "remove", tripleIds: [bTriples[0]] }], { wholeBlankNodes: true });
    expect(partial.rejected[0]).toMatchObject({ guard: "wholeBlankNodes" });
    expect(partial.rejected[0].reason).toBe("wholeBlankNodes: _:b would keep 2 of its 3 triples; remove all of them or none");
    const whole = applyCritique(g, index, [{ op: "remove", tripleIds: [...bTriples, pointer] }], { wholeBlankNodes: true });
    expect(whole.applied).toHaveLength(1);
    expect(g.store.size).toBe(3);
  });
});

describe("parseCritique", () => {
  it("accepts a list or {items}, any-case ops, numeric-string ids", () => {
    expect(parseCritique('{"items":[{"op":"REMOVE","tripleIds":["3",4]}]}')).toEqual([{ op: "remove", tripleIds: [3, 4] }]);
  });
  it("names the item and field of a malformed critique", () => {
    expect(() => parseCritique("{not json")).toThrow(CritiqueFormatError);
    expect(() => parseCritique([{ op: "remove", tripleIds: [1] }, { op: "delete", tripleIds: [1] }])).toThrow('critique item 2: unknown op "delete" (expected "remove" or "replace")');
    expect(() => parseCritique([{ op: "remove", tripleIds: [1.5] }])).toThrow("critique item 1: triple id 1.5 is not a positive integer");
    expect(() => parseCritique({ nope: 1 })).toThrow(CritiqueFormatError);
  });
});

describe("canonicalHash (RDFC-1.0)", () => {
  it("is stable under blank-node relabelling and reordering", async () => {
    const a = parseGraph('@prefix ex: <http://example.org/> . ex:s ex:p _:x . _:x ex:q "1" .');
    const b = parseGraph('@prefix ex: <http://example.org/> . _:other ex:q "1" . ex:s ex:p _:other .');
    expect(fingerprintGraph(a)).not.toBe(fingerprintGraph(b)); // the listing differs: _:x vs _:other
    expect(await canonicalHash(a)).toBe(await canonicalHash(b));
    expect(await canonicalHash(a)).toMatch(/^[0-9a-f]{64}$/);
  });
  it("fails a poison graph with a typed error instead of hanging", async () => {
    // Two 6-cycles of indistinguishable blank nodes: N-degree hashing must permute them.
    const ring = (p: string, n: number) => Array.from({ length: n }, (_, i) => `_:${p}${i} <urn:p> _:${p}${(i + 1) % n} .`).join("\n");
    const poison = parseGraph(`${ring("a", 6)}\n${ring("b", 6)}`, { format: "ntriples" });
    await expect(canonicalHash(poison, { maxWorkFactor: 0 })).rejects.toBeInstanceOf(CanonicalizationLimitError);
    await expect(canonicalHash(poison, { maxWorkFactor: 0 })).rejects.toThrow(/maxWorkFactor 0/);
  });
});
