// The graph slice, its SHACL shapes (a real engine), and the atomic ingest into oxigraph.
import { readFileSync } from "node:fs";
import { DataFactory } from "n3";
import oxigraph from "oxigraph";
import type * as RDF from "@rdfjs/types";
import { describe, expect, it } from "vitest";
import { createArtifact, EVIDENCE_NS, fragmentMarkdown, ingest, toGraphSlice, validateSlice, type GraphSlice } from "../../ts/evidence/index.js";

const { namedNode, literal, quad } = DataFactory;
const FIXTURES = new URL("../fixtures/evidence/", import.meta.url);
const source = readFileSync(new URL("awesome-v001.md", FIXTURES), "utf8");
const artifact = createArtifact({ sourceObjectId: "awesome/readme.md", content: source });
const fragments = fragmentMarkdown(artifact.artifactId, source);
const XSD_INTEGER = namedNode("http://www.w3.org/2001/XMLSchema#integer");
const count = (store: oxigraph.Store) => store.size;

/** A slice with one quad replaced or dropped. */
function tamper(slice: GraphSlice, edit: (q: RDF.Quad) => RDF.Quad | null): GraphSlice {
  return { ...slice, quads: slice.quads.map(edit).filter((q): q is RDF.Quad => q !== null) };
}

describe("toGraphSlice", () => {
  it("one artifact, every fragment linked both ways, with parent, sequence and hashes", () => {
    const slice = toGraphSlice(artifact, fragments);
    const p = (local: string) => EVIDENCE_NS + local;
    const of = (pred: string) => slice.quads.filter((q) => q.predicate.value === p(pred));
    expect(of("hasFragment")).toHaveLength(fragments.length);
    expect(of("artifact")).toHaveLength(fragments.length);
    expect(of("parent")).toHaveLength(fragments.filter((f) => f.parentId).length);
    expect(of("sequence").map((q) => Number(q.object.value))).toEqual(fragments.map((_, i) => i));
    expect(of("contentHash")[0].object.value).toBe(artifact.contentHash);
    expect(slice.artifactIri).toBe("urn:groundwire:artifact:awesome%2Freadme.md");
    expect(() => toGraphSlice({ ...artifact, artifactId: "other" }, fragments)).toThrow(/belongs to artifact "awesome\/readme.md", not "other"/);
  });
});

describe("SHACL-guarded atomic ingest", () => {
  it("a valid slice conforms and ingests whole into oxigraph; re-ingesting replaces, not duplicates", async () => {
    const slice = toGraphSlice(artifact, fragments);
    const store = new oxigraph.Store();
    const report = await ingest(store, slice);
    expect(report).toEqual({ ok: true, written: slice.quads.length, graph: slice.artifactIri, violations: [] });
    expect(count(store)).toBe(slice.quads.length);
    const rows = store.query(
      `PREFIX gwe: <${EVIDENCE_NS}> SELECT (COUNT(?f) AS ?n) WHERE { GRAPH ?g { ?a a gwe:Artifact ; gwe:hasFragment ?f . ?f gwe:sequence ?s } }`,
    ) as Map<string, RDF.Term>[];
    expect(Number(rows[0].get("n")!.value)).toBe(fragments.length);
    await ingest(store, slice);
    expect(count(store)).toBe(slice.quads.length);
    // A new revision of the same source object replaces the old one in its graph.
    const next = readFileSync(new URL("awesome-v002.md", FIXTURES), "utf8");
    const a2 = createArtifact({ sourceObjectId: "awesome/readme.md", content: next });
    const s2 = toGraphSlice(a2, fragmentMarkdown(a2.artifactId, next));
    expect((await ingest(store, s2)).ok).toBe(true);
    expect(count(store)).toBe(s2.quads.length);
  });

  it("bad content hash, missing link, negative sequence: nothing written, every violation reported", async () => {
    const slice = toGraphSlice(artifact, fragments);
    const [f0, f1, f2] = fragments.map((f) => `urn:groundwire:fragment:${f.fragmentId}`);
    const bad = tamper(slice, (q) => {
      const s = q.subject.value;
      const p = q.predicate.value;
      if (s === f0 && p === EVIDENCE_NS + "contentHash") return quad(q.subject as RDF.NamedNode, q.predicate as RDF.NamedNode, literal("sha256:NOT-HEX"));
      if (s === f1 && p === EVIDENCE_NS + "artifact") return null; // the fragment → artifact link
      if (s === f2 && p === EVIDENCE_NS + "sequence") return quad(q.subject as RDF.NamedNode, q.predicate as RDF.NamedNode, literal("-1", XSD_INTEGER));
      return q;
    });
    const store = new oxigraph.Store();
    store.add(oxigraph.quad(oxigraph.namedNode("urn:x"), oxigraph.namedNode("urn:y"), oxigraph.literal("before")));
    const report = await ingest(store, bad);
    expect(report.ok).toBe(false);
    expect(report.written).toBe(0);
    expect(count(store)).toBe(1); // only what was there before
    const seen = report.violations.map((v) => [v.focusNode, v.path, v.constraint, v.value]);
    expect(seen).toEqual(
      expect.arrayContaining([
        [`<${f0}>`, `<${EVIDENCE_NS}contentHash>`, "PatternConstraintComponent", '"sha256:NOT-HEX"'],
        [`<${f1}>`, `<${EVIDENCE_NS}artifact>`, "MinCountConstraintComponent", null],
        [`<${f2}>`, `<${EVIDENCE_NS}sequence>`, "MinInclusiveConstraintComponent", '"-1"^^<http://www.w3.org/2001/XMLSchema#integer>'],
      ]),
    );
    expect(report.violations).toHaveLength(3);
  });

  it("a fragment not linked from any artifact and an artifact without its hash are both caught", async () => {
    const slice = toGraphSlice(artifact, fragments);
    const f3 = `urn:groundwire:fragment:${fragments[3].fragmentId}`;
    const bad = tamper(slice, (q) =>
      (q.predicate.value === EVIDENCE_NS + "hasFragment" && q.object.value === f3) || (q.subject.value === slice.artifactIri && q.predicate.value === EVIDENCE_NS + "contentHash") ? null : q,
    );
    const outcome = await validateSlice(bad);
    expect(outcome.conforms).toBe(false);
    expect(outcome.violations.map((v) => [v.focusNode, v.path, v.constraint])).toEqual(
      expect.arrayContaining([
        [`<${f3}>`, `^<${EVIDENCE_NS}hasFragment>`, "MinCountConstraintComponent"],
        [`<${slice.artifactIri}>`, `<${EVIDENCE_NS}contentHash>`, "MinCountConstraintComponent"],
      ]),
    );
    expect(outcome.violations).toHaveLength(2);
  });

  it("a store that fails part-way through the write keeps what it held (all or nothing)", async () => {
    const slice = toGraphSlice(artifact, fragments);
    const store = new oxigraph.Store();
    await ingest(store, slice);
    const before = store.dump({ format: "application/n-quads" });
    // The new revision's 10th quad fails: the old revision's quads are already deleted by then.
    let adds = 0;
    const failing = {
      match: store.match.bind(store),
      delete: store.delete.bind(store),
      add: (q: RDF.Quad) => {
        if (++adds === 10) throw new Error("disk full");
        store.add(q as never);
      },
    };
    const a2 = createArtifact({ sourceObjectId: "awesome/readme.md", content: "# Other\n\nText.\n" });
    await expect(ingest(failing as never, toGraphSlice(a2, fragmentMarkdown(a2.artifactId, "# Other\n\nText.\n")))).rejects.toThrow("disk full");
    expect(store.dump({ format: "application/n-quads" })).toBe(before);
  });
});

describe("ingest writes terms, never SPARQL text built from the slice (issue 12 item 5)", () => {
  const other = createArtifact({ sourceObjectId: "other/notes.md", content: "# Notes\n\nKeep me.\n" });
  /** A store already holding another artifact's graph. */
  async function populated(): Promise<oxigraph.Store> {
    const store = new oxigraph.Store();
    expect((await ingest(store, toGraphSlice(other, fragmentMarkdown(other.artifactId, "# Notes\n\nKeep me.\n")))).ok).toBe(true);
    return store;
  }

  it("a crafted slice.artifactIri that ran DROP ALL is refused; every artifact survives", async () => {
    const store = await populated();
    const before = store.size;
    const slice = toGraphSlice(artifact, fragments);
    const crafted = { ...slice, artifactIri: "urn:x> { } } ; DROP ALL ; INSERT DATA { GRAPH <urn:x" };
    const report = await ingest(store, crafted);
    expect(report.ok).toBe(false);
    expect(report.written).toBe(0);
    expect(report.graph).toBe(slice.artifactIri);
    expect(report.violations.map((v) => [v.constraint, v.message])).toEqual([["SliceArtifactIri", "slice.artifactIri does not name the slice's gwe:Artifact"]]);
    expect(store.size).toBe(before);
  });

  it("an Artifact node whose IRI is not its artifactId's is refused, even when slice.artifactIri agrees", async () => {
    const store = await populated();
    const before = store.size;
    const slice = toGraphSlice(artifact, fragments);
    const evil = namedNode("urn:groundwire:artifact:a> } } ; DROP ALL ; #");
    const renamed = tamper(slice, (q) => (q.subject.value === slice.artifactIri ? quad(evil, q.predicate as RDF.NamedNode, q.object as RDF.Quad_Object) : q.object.value === slice.artifactIri ? quad(q.subject as RDF.NamedNode, q.predicate as RDF.NamedNode, evil) : q));
    const report = await ingest(store, { ...renamed, artifactIri: evil.value });
    expect(report.ok).toBe(false);
    expect(report.violations.filter((v) => v.constraint === "SliceArtifactIri")).toHaveLength(1);
    expect(store.size).toBe(before);
  });

  it("a quad about an unrelated subject, or in a named graph, is refused and nothing is written", async () => {
    const store = await populated();
    const before = store.size;
    const slice = toGraphSlice(artifact, fragments);
    const otherGraph = `urn:groundwire:artifact:${encodeURIComponent(other.artifactId)}`;
    const extra = [
      quad(namedNode("urn:someone:else"), namedNode(`${EVIDENCE_NS}artifactId`), literal("hijack")),
      quad(namedNode(slice.artifactIri), namedNode(`${EVIDENCE_NS}connector`), literal("x"), namedNode(otherGraph)),
    ];
    const report = await ingest(store, { ...slice, quads: [...slice.quads, ...extra] });
    expect(report.ok).toBe(false);
    expect(report.violations.map((v) => [v.constraint, v.focusNode])).toEqual(
      expect.arrayContaining([
        ["SliceSubject", "<urn:someone:else>"],
        ["SliceGraph", `<${slice.artifactIri}>`],
      ]),
    );
    expect(store.size).toBe(before);
    // And the honest slice still lands beside the other artifact.
    expect((await ingest(store, slice)).ok).toBe(true);
    expect(store.size).toBe(before + slice.quads.length);
  });

  it("a slice with no Artifact, or two, is refused", async () => {
    const slice = toGraphSlice(artifact, fragments);
    const none = tamper(slice, (q) => (q.object.value === `${EVIDENCE_NS}Artifact` ? null : q));
    expect((await validateSlice(none)).violations.map((v) => v.constraint)).toContain("SliceArtifact");
    const report = await ingest(new oxigraph.Store(), none);
    expect(report).toMatchObject({ ok: false, written: 0, graph: "" });
  });
});
