/**
 * The evidence spine as RDF: an artifact and its fragments as one graph slice
 * (`gwe:Artifact gwe:hasFragment gwe:Fragment`, the ontology in
 * data/ontology/evidence.ttl), validated against ArtifactShape / FragmentShape
 * (data/shapes/evidence-shapes.ttl) with a real SHACL engine (rdf-validate-shacl),
 * and written into an embedded store with its quad API, all or nothing.
 */
import type { DataFactory } from "n3";
import { ArgumentError } from "../errors.js";
import { isWellFormed } from "./artifact.js";
import type * as RDF from "@rdfjs/types";
import type SHACLValidator from "rdf-validate-shacl";
import { n3DataFactory, n3Store } from "../deps/n3.js";
import { shacl } from "../deps/shacl.js";
import { parseGraph, RDF_TYPE as RDF_TYPE_IRI, XSD } from "../rdf/index.js";
import type { Artifact } from "./artifact.js";
import type { Fragment } from "./fragment/index.js";
import { EVIDENCE_SHAPES_TURTLE } from "./vocabulary.generated.js";
import { checkArgs } from "../arg-kinds.js";

// N3.js's term constructors, called through: the Node build loads N3.js at first use (ts/deps/n3).
const namedNode = (iri: string) => n3DataFactory().namedNode(iri);
const literal: typeof DataFactory.literal = (value, languageOrDatatype) => n3DataFactory().literal(value, languageOrDatatype);
const quad = (subject: RDF.Quad_Subject, predicate: RDF.Quad_Predicate, object: RDF.Quad_Object, graph?: RDF.Quad_Graph) => n3DataFactory().quad(subject, predicate, object, graph);

/** The ontology's namespace. */
export const EVIDENCE_NS = "https://w3id.org/groundwire/evidence#";
const rdfType = () => namedNode(RDF_TYPE_IRI);
const SH = "http://www.w3.org/ns/shacl#";
const gwe = (local: string) => namedNode(EVIDENCE_NS + local);

/** IRI of an artifact: `urn:groundwire:artifact:` + percent-encoded artifactId. */
export function artifactIri(artifactId: string): string {
  if (typeof artifactId !== "string" || artifactId === "") throw new ArgumentError("artifactIri", "artifactId", "a non-empty string", artifactId);
  if (!isWellFormed(artifactId)) throw new ArgumentError("artifactIri", "artifactId", "well-formed Unicode (it holds a lone surrogate)", artifactId);
  return `urn:groundwire:artifact:${encodeURIComponent(artifactId)}`;
}

/** IRI of a fragment: `urn:groundwire:fragment:` + its 64-hex fragmentId. */
export function fragmentIri(fragmentId: string): string {
  checkArgs("fragmentIri", arguments, "fragmentId:text");
  return `urn:groundwire:fragment:${fragmentId}`;
}

/** An artifact and its fragments as RDF triples (default graph), ready to validate and ingest. */
export interface GraphSlice {
  /** The artifact's IRI; `ingest` writes the slice into the named graph of this IRI. */
  artifactIri: string;
  quads: RDF.Quad[];
}

/**
 * Build the graph slice of one artifact revision: the artifact node (type, id,
 * source object, connector, media type, byte length, content hash, one
 * `gwe:hasFragment` per fragment) and per fragment its type, `gwe:artifact`,
 * `gwe:parent` (when nested), id, version id, address (path), kind, anchor, label
 * (when labeled), content hash, `gwe:sequence`, `gwe:ordinal`, start/end offsets
 * (UTF-16 code units). Integers are `xsd:integer`; the fragment text is not copied.
 *
 * @throws Error when a fragment belongs to another artifact (its artifactId differs)
 */
export function toGraphSlice(artifact: Artifact, fragments: readonly Fragment[]): GraphSlice {
  checkArgs("toGraphSlice", arguments, "artifact:artifact fragments:array");
  const RDF_TYPE = rdfType();
  const XSD_INTEGER = namedNode(`${XSD}integer`);
  const a = namedNode(artifactIri(artifact.artifactId));
  const int = (n: number) => literal(String(n), XSD_INTEGER);
  const quads: RDF.Quad[] = [
    quad(a, RDF_TYPE, gwe("Artifact")),
    quad(a, gwe("artifactId"), literal(artifact.artifactId)),
    quad(a, gwe("sourceObjectId"), literal(artifact.sourceObjectId)),
    quad(a, gwe("connector"), literal(artifact.connector)),
    quad(a, gwe("mediaType"), literal(artifact.mediaType)),
    quad(a, gwe("byteLength"), int(artifact.byteLength)),
    quad(a, gwe("contentHash"), literal(artifact.contentHash)),
  ];
  for (const f of fragments) {
    if (f.artifactId !== artifact.artifactId) {
      throw new Error(`toGraphSlice: fragment ${f.path} belongs to artifact ${JSON.stringify(f.artifactId)}, not ${JSON.stringify(artifact.artifactId)}`);
    }
    const node = namedNode(fragmentIri(f.fragmentId));
    quads.push(
      quad(a, gwe("hasFragment"), node),
      quad(node, RDF_TYPE, gwe("Fragment")),
      quad(node, gwe("artifact"), a),
      quad(node, gwe("fragmentId"), literal(f.fragmentId)),
      quad(node, gwe("versionId"), literal(f.versionId)),
      quad(node, gwe("address"), literal(f.path)),
      quad(node, gwe("fragmentKind"), literal(f.kind)),
      quad(node, gwe("anchor"), literal(f.anchor)),
      quad(node, gwe("contentHash"), literal(f.contentHash)),
      quad(node, gwe("sequence"), int(f.sequence)),
      quad(node, gwe("ordinal"), int(f.ordinal)),
      quad(node, gwe("startOffset"), int(f.start)),
      quad(node, gwe("endOffset"), int(f.end)),
    );
    if (f.parentId) quads.push(quad(node, gwe("parent"), namedNode(fragmentIri(f.parentId))));
    if (f.label !== null) quads.push(quad(node, gwe("label"), literal(f.label)));
  }
  return { artifactIri: a.value, quads };
}

/** One SHACL violation, with terms rendered as N-Triples-like strings. */
export interface Violation {
  /** The node that failed, e.g. `<urn:groundwire:fragment:…>`. */
  focusNode: string;
  /** The property path, e.g. `<…#contentHash>`, or `^<…#hasFragment>` for an inverse path; null for node-level constraints. */
  path: string | null;
  /** The constraint component's local name: `PatternConstraintComponent`, `MinCountConstraintComponent`, … */
  constraint: string;
  /** The offending value, when there is one. */
  value: string | null;
  /** The engine's message(s), joined. */
  message: string;
}

/** The outcome of `validateSlice`. */
export interface ValidationOutcome {
  conforms: boolean;
  /** Every violation found (the engine runs without an error cap). */
  violations: Violation[];
}

let engine: { validator: SHACLValidator; inversePath: string | null } | null = null;

/** The validator over the shipped shapes, built once. */
function shapesEngine(): { validator: SHACLValidator; inversePath: string | null } {
  if (!engine) {
    const shapes = parseGraph(EVIDENCE_SHAPES_TURTLE, { source: "evidence-shapes.ttl" }).store;
    const inverse = shapes.getObjects(null, namedNode(SH + "inversePath"), null)[0];
    engine = { validator: new (shacl())(shapes as unknown as RDF.DatasetCore), inversePath: inverse ? `^<${inverse.value}>` : null };
  }
  return engine;
}

function show(term: RDF.Term | null | undefined): string | null {
  if (!term) return null;
  if (term.termType === "NamedNode") return `<${term.value}>`;
  if (term.termType === "BlankNode") return `_:${term.value}`;
  if (term.termType === "Literal") return JSON.stringify(term.value) + (term.datatype && term.datatype.value !== `${XSD}string` ? `^^<${term.datatype.value}>` : "");
  return term.value;
}

/**
 * Validate a slice against ArtifactShape and FragmentShape (SHACL Core, every
 * result collected), then check what the shapes cannot: one artifact, its IRI
 * well formed and equal to `slice.artifactIri`, every quad in the default graph
 * and about the artifact or one of its fragments (`Slice*` constraints, after
 * the SHACL results). Async because the engine is.
 */
export async function validateSlice(slice: GraphSlice): Promise<ValidationOutcome> {
  checkArgs("validateSlice", arguments, "slice:slice");
  const data = new (n3Store())(slice.quads as never);
  const { validator, inversePath } = shapesEngine();
  const report = await validator.validate(data as unknown as RDF.DatasetCore);
  const own = sliceViolations(slice);
  const violations = report.results.map((r): Violation => {
    // The only blank-node path the shapes declare is the inverse of gwe:hasFragment.
    const path = r.path && r.path.termType === "BlankNode" ? inversePath : show(r.path);
    const component = r.sourceConstraintComponent?.value ?? "";
    return {
      focusNode: show(r.focusNode) ?? "",
      path,
      constraint: component.startsWith(SH) ? component.slice(SH.length) : component,
      value: show(r.value),
      message: r.message.map((m) => m.value).join("; "),
    };
  });
  return { conforms: report.conforms && own.length === 0, violations: [...violations, ...own] };
}

/**
 * A store `ingest` can write to: the quad methods of oxigraph's `Store` (and of
 * any RDF/JS-style dataset with the same three methods). No SPARQL text is
 * ever built: terms go to the store as terms.
 */
export interface QuadStore {
  /** Every quad of one graph (`match(null, null, null, graph)`). */
  match(subject: null, predicate: null, object: null, graph: RDF.NamedNode): Iterable<RDF.Quad>;
  add(quad: RDF.Quad): void;
  delete(quad: RDF.Quad): void;
}

/** The outcome of `ingest`. */
export interface IngestReport {
  /** True when the slice conformed and was written. */
  ok: boolean;
  /** Quads written (0 when the slice was refused). */
  written: number;
  /** The named graph written: the IRI of the slice's one `gwe:Artifact` ("" when there is none). */
  graph: string;
  /** Every violation (empty when ok): SHACL results, and the slice checks (`Slice*` constraints). */
  violations: Violation[];
}

/**
 * Validate a slice, then write it into a store (oxigraph's `Store`) as the
 * named graph of its artifact, replacing that graph's previous revision, all
 * or nothing: the graph IRI is the one `gwe:Artifact` of the validated quads
 * (`slice.artifactIri` must name the same node), written with the store's quad
 * API (`match`/`delete`/`add`; never a SPARQL string). The write is
 * synchronous, so no other code sees it half done; when the store throws
 * part-way, what was deleted is put back and what was added is removed, then
 * the error is rethrown. A slice that fails validation is not written at all
 * and every violation is reported.
 *
 * @param store an oxigraph `Store` (or anything with the same `match`/`add`/`delete`)
 * @param slice from `toGraphSlice`
 * @returns `{ok, written, graph, violations}`
 * @throws whatever the store throws on a failed write (after which it holds what it held before)
 */
export async function ingest(store: QuadStore, slice: GraphSlice): Promise<IngestReport> {
  checkArgs("ingest", arguments, "store:object slice:slice");
  const outcome = await validateSlice(slice);
  const artifact = sliceArtifact(slice.quads);
  const graph = artifact?.value ?? "";
  if (!outcome.conforms || !artifact) return { ok: false, written: 0, graph, violations: outcome.violations };
  const target = namedNode(graph);
  const incoming = slice.quads.map((q) => quad(q.subject as RDF.Quad_Subject, q.predicate as RDF.Quad_Predicate, q.object as RDF.Quad_Object, target));
  const previous = [...store.match(null, null, null, target)];
  const deleted: RDF.Quad[] = [];
  const added: RDF.Quad[] = [];
  try {
    for (const q of previous) {
      store.delete(q);
      deleted.push(q);
    }
    for (const q of incoming) {
      store.add(q);
      added.push(q);
    }
  } catch (error) {
    // Undo in reverse: the store ends as it began.
    for (const q of added) store.delete(q);
    for (const q of deleted) store.add(q);
    throw error;
  }
  return { ok: true, written: incoming.length, graph, violations: [] };
}

const ARTIFACT_IRI_RE = /^urn:groundwire:artifact:[A-Za-z0-9\-_.!~*'()%]+$/;
const FRAGMENT_IRI_RE = /^urn:groundwire:fragment:[0-9a-f]{64}$/;

/** The one `gwe:Artifact` node of a slice, or null when there is not exactly one named node typed so. */
export function sliceArtifact(quads: readonly RDF.Quad[]): RDF.NamedNode | null {
  const typed = quads.filter((q) => q.predicate.equals(rdfType()) && q.object.equals(gwe("Artifact")));
  const nodes = new Set(typed.map((q) => q.subject.value));
  return typed.length && nodes.size === 1 && typed[0]!.subject.termType === "NamedNode" ? (typed[0]!.subject as RDF.NamedNode) : null;
}

/**
 * What SHACL cannot say about a slice as a whole: it describes exactly one
 * `gwe:Artifact`, whose IRI is `artifactIri(its gwe:artifactId)` (so a valid
 * IRI: the id percent-encoded) and equals `slice.artifactIri`; every quad is
 * in the default graph; and every subject is that artifact or one of its
 * fragments (`urn:groundwire:fragment:<64 hex>`, linked by `gwe:hasFragment`
 * or `gwe:artifact`). Constraints: `SliceArtifact`, `SliceArtifactIri`,
 * `SliceGraph`, `SliceSubject`.
 */
function sliceViolations(slice: GraphSlice): Violation[] {
  const out: Violation[] = [];
  const v = (focusNode: string, constraint: string, message: string, path: string | null = null, value: string | null = null) =>
    out.push({ focusNode, path, constraint, value, message });
  const artifact = sliceArtifact(slice.quads);
  if (!artifact) {
    const n = new Set(slice.quads.filter((q) => q.predicate.equals(rdfType()) && q.object.equals(gwe("Artifact"))).map((q) => q.subject.value)).size;
    v("", "SliceArtifact", `a slice describes exactly one gwe:Artifact named by an IRI; this one describes ${n}`);
    return out;
  }
  const a = show(artifact)!;
  const ids = slice.quads.filter((q) => q.subject.equals(artifact) && q.predicate.equals(gwe("artifactId")));
  const expected = ids.length === 1 ? artifactIri(ids[0]!.object.value) : null;
  if (!ARTIFACT_IRI_RE.test(artifact.value) || (expected !== null && expected !== artifact.value)) {
    v(a, "SliceArtifactIri", `the artifact's IRI must be ${expected ? `<${expected}> (artifactIri of its gwe:artifactId)` : "urn:groundwire:artifact: and its percent-encoded id"}`, null, JSON.stringify(artifact.value.slice(0, 80)));
  }
  if (slice.artifactIri !== artifact.value) {
    v(a, "SliceArtifactIri", "slice.artifactIri does not name the slice's gwe:Artifact", null, JSON.stringify(String(slice.artifactIri).slice(0, 80)));
  }
  const fragments = new Set<string>();
  for (const q of slice.quads) {
    const linked = (q.subject.equals(artifact) && q.predicate.equals(gwe("hasFragment")) && q.object.termType === "NamedNode" && FRAGMENT_IRI_RE.test(q.object.value)) ? q.object.value
      : (q.predicate.equals(gwe("artifact")) && q.object.equals(artifact) && q.subject.termType === "NamedNode" && FRAGMENT_IRI_RE.test(q.subject.value)) ? q.subject.value
        : null;
    if (linked) fragments.add(linked);
  }
  for (const q of slice.quads) {
    if (q.graph.termType !== "DefaultGraph") v(show(q.subject)!, "SliceGraph", "slice quads are in the default graph; ingest names the graph", show(q.predicate), show(q.graph));
    else if (!q.subject.equals(artifact) && !(q.subject.termType === "NamedNode" && fragments.has(q.subject.value))) {
      v(show(q.subject)!, "SliceSubject", "a quad about something that is neither the artifact nor one of its fragments", show(q.predicate), show(q.object));
    }
  }
  return out;
}
