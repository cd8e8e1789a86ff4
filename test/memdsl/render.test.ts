// renderNeighborhood, assembleNeighborhood and applyNodeStatuses: determinism, gaps in their
// fixed order, affordances, dropped nodes, language choice, statuses from the graph.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { compareCodePoints, parseGraph } from "../../ts/rdf/index.js";
import { ArgumentError } from "../../ts/errors.js";
import {
  applyNodeStatuses,
  assembleNeighborhood,
  MEMDSL_CLASSES,
  MEMDSL_NS,
  MEMDSL_PROPERTIES,
  MEMDSL_STATUS,
  MEMDSL_TAINT,
  renderNeighborhood,
  StatusVerdict,
  UnknownFocusError,
  type Neighborhood,
} from "../../ts/memdsl/index.js";

const A = "http://example.org/a";
const B = "http://example.org/b";
const C = "http://example.org/c";

describe("renderNeighborhood", () => {
  it("emits gaps per node as stale → unresolved → outdated → missing → elided → invisible", () => {
    const n: Neighborhood = {
      nodes: [
        { token: B, kind: "resource", title: "b\u200B", body: "0123456789" },
        { token: A, kind: "resource", title: "a", body: "0123456789\u202E" },
      ],
      edges: [],
    };
    const verdict = new StatusVerdict("verified", [
      { kind: "outdated", note: "superseded" },
      { kind: "unresolved", note: "dangling" },
      { kind: "stale", note: "changed" },
    ]);
    const env = renderNeighborhood(n, new Map([[A, verdict]]), { maxBodyChars: 5 });
    expect(env.gaps.map((g) => `${g.ref} ${g.kind}`)).toEqual([
      "n1 stale",
      "n1 unresolved",
      "n1 outdated",
      "n1 elided",
      "n2 missing",
      "n2 elided",
      "n2 invisible",
    ]);
    // A taint demotes verified to asserted; no verdict → the inferred floor.
    expect(env.nodes.map((x) => x.status)).toEqual(["asserted", "inferred"]);
    expect(env.nodes[0].affordances).toEqual([{ kind: "ground", target: A, ref: "n1", relation: null }]);
    expect(env.gaps[3].detail).toBe("body shows 5 of 11 code points; ground fetches the rest");
  });

  it("offers expand toward not-yet-expanded neighbors, both directions, sorted, deduplicated", () => {
    const n: Neighborhood = {
      nodes: [A, B, C].map((token) => ({ token, kind: "resource", title: "", body: "" })),
      edges: [
        { src: A, dst: C, relation: "ex:r" },
        { src: B, dst: A, relation: "ex:r" },
        { src: A, dst: C, relation: "ex:r" },
        { src: A, dst: "http://example.org/outside", relation: "ex:s" },
        { src: A, dst: "_:b1", relation: "ex:s" },
      ],
    };
    const env = renderNeighborhood(n, new Map(), { expanded: [C] });
    expect(env.nodes[0].affordances).toEqual([
      { kind: "expand", target: B, ref: "n2", relation: "^ex:r" },
      { kind: "expand", target: "http://example.org/outside", ref: null, relation: "ex:s" },
    ]);
    expect(env.nodes[1].affordances).toEqual([{ kind: "expand", target: A, ref: "n1", relation: "ex:r" }]);
    expect(env.nodes[2].affordances).toEqual([{ kind: "expand", target: A, ref: "n1", relation: "^ex:r" }]);
  });

  it("drops unaddressable nodes with one log line each and renders the rest", () => {
    const logged: string[] = [];
    const n: Neighborhood = {
      nodes: [
        { token: "_:b0", kind: "resource", title: "blank", body: "" },
        { token: "not an iri", kind: "resource", title: "", body: "" },
        { token: "http://example.org/\u202Eevil", kind: "resource", title: "", body: "" },
        { token: "", kind: "resource", title: "", body: "" },
        { token: A, kind: "resource", title: "a", body: "" },
      ],
      edges: [{ src: A, dst: "_:b0", relation: "ex:r" }],
    };
    const env = renderNeighborhood(n, new Map(), { focus: A, logger: { warn: (m) => logged.push(m) } });
    expect(env.nodes.map((x) => [x.ref, x.token])).toEqual([["n1", A]]);
    expect(env.focus).toBe("n1");
    expect(env.nodes[0].affordances).toEqual([]);
    expect(logged).toHaveLength(4);
    expect(logged[0]).toBe('memdsl: dropped unaddressable node "_:b0"');
  });

  it("keeps one of two nodes sharing a token, the same whatever the order", () => {
    const x = { token: A, kind: "resource", title: "x", body: "" };
    const y = { token: A, kind: "resource", title: "y", body: "" };
    const one = renderNeighborhood({ nodes: [x, y], edges: [] }, new Map());
    const two = renderNeighborhood({ nodes: [y, x], edges: [] }, new Map());
    expect(one).toEqual(two);
    expect(one.nodes.map((n) => n.title)).toEqual(["x"]);
  });

  it("rejects a bad maxBodyChars", () => {
    expect(() => renderNeighborhood({ nodes: [], edges: [] }, new Map(), { maxBodyChars: -1 })).toThrow("renderNeighborhood: options.maxBodyChars must be a whole number ≥ 0, got -1");
    expect(() => renderNeighborhood({ nodes: [], edges: [] }, new Map(), { maxBodyChars: 1.5 })).toThrow(ArgumentError);
  });

  it("elides by code points, never splitting a surrogate pair", () => {
    const env = renderNeighborhood({ nodes: [{ token: A, kind: "k", title: "", body: "\u{1F600}\u{1F600}\u{1F600}" }], edges: [] }, new Map(), {
      maxBodyChars: 2,
    });
    expect(env.nodes[0].body).toContain("\n\u{1F600}\u{1F600}\n");
  });
});

describe("compareCodePoints", () => {
  it("orders by code point, not UTF-16 code unit", () => {
    expect(compareCodePoints("\uFF5E", "\u{1F600}")).toBeLessThan(0);
    expect("\uFF5E" < "\u{1F600}").toBe(false);
    expect(compareCodePoints("ab", "abc")).toBeLessThan(0);
    expect(compareCodePoints("b", "a")).toBeGreaterThan(0);
    expect(compareCodePoints("x", "x")).toBe(0);
  });
});

const TTL = `
@prefix ex: <http://example.org/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix owl: <http://www.w3.org/2002/07/owl#> .
@prefix gwm: <${MEMDSL_NS}> .
@prefix prov: <http://www.w3.org/ns/prov#> .
@prefix schema: <https://schema.org/> .
ex:a a owl:Class, ex:Thing ;
  rdfs:label "Ding"@de, "zed"@en-GB, "thing"@en, "plain" ;
  rdfs:comment "Kommentar"@de, "untagged comment" ;
  ex:note "second", "first" ;
  ex:link ex:b ;
  prov:wasDerivedFrom <http://source.example/a> .
ex:b rdfs:label "b"@fr, "b-plain" ; ex:next ex:c ;
  gwm:epistemicStatus gwm:verified ; gwm:taint gwm:stale ; gwm:statusNote "re-check due" .
ex:c schema:supersededBy ex:d ; owl:deprecated true ; rdfs:label "c"@fr, "c"@de .
ex:x ex:link ex:a .
ex:y gwm:epistemicStatus gwm:bogus ; ex:link ex:a .
`;

describe("assembleNeighborhood", () => {
  const graph = parseGraph(TTL, { source: "test.ttl" });

  it("picks title and body by language: @en, @en-*, untagged, then first tag; other literals follow the comment", () => {
    const nh = assembleNeighborhood(graph, "http://example.org/a", { hops: 0 });
    expect(nh.nodes).toEqual([
      {
        token: "http://example.org/a",
        kind: "ex:Thing, owl:Class",
        title: "thing",
        body: "untagged comment\n\nex:note: first\nex:note: second",
      },
    ]);
    expect(nh.edges).toEqual([]);
    expect(nh.expanded).toEqual([]);
    const b = assembleNeighborhood(graph, "http://example.org/b", { hops: 0 }).nodes[0];
    expect(b.title).toBe("b-plain");
    const c = assembleNeighborhood(graph, "http://example.org/c", { hops: 0 }).nodes[0];
    expect(c.title).toBe("c");
    expect(c.body).toBe("owl:deprecated: true");
  });

  it("walks hops undirected, keeps only edges touching an inner node, and lists expanded tokens", () => {
    const nh = assembleNeighborhood(graph, "http://example.org/a", { hops: 1 });
    expect(nh.nodes.map((n) => n.token)).toEqual([
      "http://example.org/Thing",
      "http://example.org/a",
      "http://example.org/b",
      "http://example.org/x",
      "http://example.org/y",
      "http://source.example/a",
    ]);
    expect(nh.edges.map((e) => `${e.src} ${e.relation} ${e.dst}`)).toEqual([
      "http://example.org/a ex:link http://example.org/b",
      "http://example.org/a prov:wasDerivedFrom http://source.example/a",
      "http://example.org/a rdf:type http://example.org/Thing",
      "http://example.org/x ex:link http://example.org/a",
      "http://example.org/y ex:link http://example.org/a",
    ]);
    expect(nh.expanded).toEqual(["http://example.org/a"]);
    const two = assembleNeighborhood(graph, "http://example.org/a", { hops: 2 });
    expect(two.nodes.map((n) => n.token)).toContain("http://example.org/c");
    expect(two.edges.some((e) => e.relation === "ex:next")).toBe(true);
  });

  it("errors clearly on an unknown focus or a bad hops", () => {
    expect(() => assembleNeighborhood(graph, "http://example.org/nowhere")).toThrow(UnknownFocusError);
    expect(() => assembleNeighborhood(graph, "http://example.org/nowhere")).toThrow("unknown focus <http://example.org/nowhere>: it occurs in no triple of test.ttl");
    expect(() => assembleNeighborhood(graph, "http://example.org/a", { hops: -1 })).toThrow("assembleNeighborhood: options.hops must be a whole number ≥ 0, got -1");
    expect(() => assembleNeighborhood(graph, "http://example.org/a", { hops: 0.5 })).toThrow(ArgumentError);
  });
});

describe("applyNodeStatuses", () => {
  const graph = parseGraph(TTL, { source: "test.ttl" });

  it("derives verdicts from gwm: terms, provenance, deprecation and description", () => {
    const nh = assembleNeighborhood(graph, "http://example.org/b", { hops: 1 });
    const problems: string[] = [];
    const v = applyNodeStatuses(graph, nh, { onProblem: (m) => problems.push(m) });
    const a = v.get("http://example.org/a")!;
    expect([a.status, a.wire(), a.basis, a.taints]).toEqual(["asserted", "asserted", "http://source.example/a", []]);
    const b = v.get("http://example.org/b")!;
    expect([b.status, b.wire(), b.taints]).toEqual(["verified", "asserted", [{ kind: "stale", note: "re-check due" }]]);
    const c = v.get("http://example.org/c")!;
    expect([c.wire(), c.taints]).toEqual([
      "asserted",
      [
        { kind: "outdated", note: "owl:deprecated true" },
        { kind: "outdated", note: "superseded by <http://example.org/d>" },
      ],
    ]);
    expect(problems).toEqual([]);
    const y = assembleNeighborhood(graph, "http://example.org/y", { hops: 0 });
    const vy = applyNodeStatuses(graph, y, { onProblem: (m) => problems.push(m) });
    expect(vy.get("http://example.org/y")!.wire()).toBe("asserted");
    expect(problems).toEqual([`<http://example.org/y> gwm:epistemicStatus <${MEMDSL_NS}bogus> is not a status; ignored`]);
  });

  it("marks a referenced but undescribed node inferred + unresolved", () => {
    const nh = assembleNeighborhood(graph, "http://example.org/a", { hops: 1 });
    const t = applyNodeStatuses(graph, nh).get("http://example.org/Thing")!;
    expect([t.wire(), t.taints]).toEqual(["inferred", [{ kind: "unresolved", note: "referenced but not described in test.ttl" }]]);
  });

  it("StatusVerdict rejects unknown words and orders taints", () => {
    expect(() => new StatusVerdict("certain" as never)).toThrow(/StatusVerdict: status must be one of "verified", "asserted", "inferred", got "certain"/);
    expect(() => new StatusVerdict("asserted", [{ kind: "rotten" as never, note: "" }])).toThrow(/StatusVerdict: taints must be a list of \{kind, note\} with kind one of .*, got "rotten"/);
    const v = new StatusVerdict("inferred", [
      { kind: "outdated", note: "b" },
      { kind: "stale", note: "z" },
      { kind: "outdated", note: "a" },
      { kind: "stale", note: "z" },
    ]);
    expect(v.taints.map((t) => `${t.kind}:${t.note}`)).toEqual(["stale:z", "outdated:a", "outdated:b"]);
    expect(new StatusVerdict("verified").wire()).toBe("verified");
  });
});

describe("the ontology file and the TS constants agree", () => {
  it("data/ontology/memdsl.ttl declares exactly the terms of ts/memdsl/vocab.ts", () => {
    const ttl = parseGraph(readFileSync(new URL("../../data/ontology/memdsl.ttl", import.meta.url), "utf8"));
    const declared = new Set(
      ttl.store
        .getSubjects(null, null, null)
        .map((s) => s.value)
        .filter((v) => v.startsWith(MEMDSL_NS) && v !== MEMDSL_NS),
    );
    const constants = new Set([
      ...Object.values(MEMDSL_PROPERTIES),
      ...Object.values(MEMDSL_STATUS),
      ...Object.values(MEMDSL_TAINT),
      ...Object.values(MEMDSL_CLASSES),
    ]);
    expect([...declared].sort()).toEqual([...constants].sort());
    const type = (iri: string) => ttl.store.getObjects(iri, "http://www.w3.org/1999/02/22-rdf-syntax-ns#type", null).map((o) => o.value);
    for (const s of Object.values(MEMDSL_STATUS)) expect(type(s)).toEqual([MEMDSL_CLASSES.EpistemicStatus]);
    for (const t of Object.values(MEMDSL_TAINT)) expect(type(t)).toEqual([MEMDSL_CLASSES.Taint]);
  });
});
