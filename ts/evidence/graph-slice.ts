/**
 * The evidence spine as RDF: an artifact and its fragments as one graph slice
 * (`gwe:Artifact gwe:hasFragment gwe:Fragment`, the ontology in
 * data/ontology/evidence.ttl), validated against ArtifactShape / FragmentShape
 * (data/shapes/evidence-shapes.ttl) with a real SHACL engine (rdf-validate-shacl),
 * and written into an embedded store in one atomic update: all or nothing.
 */
import { DataFactory, Store, Writer } from "n3";
import type * as RDF from "@rdfjs/types";
import type SHACLValidator from "rdf-validate-shacl";
import { shacl } from "../deps/shacl.js";
import { parseGraph, RDF_TYPE as RDF_TYPE_IRI, XSD } from "../rdf/index.js";
import type { Artifact } from "./artifact.js";
import type { Fragment } from "./fragment.js";
import { EVIDENCE_SHAPES_TURTLE } from "./vocabulary.generated.js";

const { namedNode, literal, quad } = DataFactory;

/** The ontology's namespace. */
export const EVIDENCE_NS = "https://w3id.org/groundwire/evidence#";
const RDF_TYPE = namedNode(RDF_TYPE_IRI);
const XSD_INTEGER = namedNode(`${XSD}integer`);
const SH = "http://www.w3.org/ns/shacl#";
const gwe = (local: string) => namedNode(EVIDENCE_NS + local);

/** IRI of an artifact: `urn:groundwire:artifact:` + percent-encoded artifactId. */
export function artifactIri(artifactId: string): string {
  return `urn:groundwire:artifact:${encodeURIComponent(artifactId)}`;
}

/** IRI of a fragment: `urn:groundwire:fragment:` + its 64-hex fragmentId. */
export function fragmentIri(fragmentId: string): string {
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
 * result collected). Async because the engine is.
 */
export async function validateSlice(slice: GraphSlice): Promise<ValidationOutcome> {
  const data = new Store(slice.quads as never);
  const { validator, inversePath } = shapesEngine();
  const report = await validator.validate(data as unknown as RDF.DatasetCore);
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
  return { conforms: report.conforms, violations };
}

/** A store `ingest` can write to: the one method of oxigraph's `Store` it uses. */
export interface UpdatableStore {
  update(sparqlUpdate: string): void;
}

/** The outcome of `ingest`. */
export interface IngestReport {
  /** True when the slice conformed and was written. */
  ok: boolean;
  /** Quads written (0 when the slice was refused). */
  written: number;
  /** The named graph written (the artifact's IRI). */
  graph: string;
  /** Every SHACL violation (empty when ok). */
  violations: Violation[];
}

/**
 * Validate a slice, then write it into an embedded store (oxigraph's `Store`) in
 * ONE SPARQL update — `DROP SILENT GRAPH <artifact> ; INSERT DATA { GRAPH <artifact>
 * { … } }` — which the store runs as one transaction: the artifact's previous
 * revision is replaced and the new one lands whole, or (on any failure) nothing
 * changes. A slice that fails validation is not written at all and every
 * violation is reported.
 *
 * @param store an oxigraph `Store` (or anything with the same `update(string)`)
 * @param slice from `toGraphSlice`
 * @returns `{ok, written, graph, violations}`
 * @throws whatever the store throws on a failed update (after which it holds what it held before)
 */
export async function ingest(store: UpdatableStore, slice: GraphSlice): Promise<IngestReport> {
  const graph = slice.artifactIri;
  const outcome = await validateSlice(slice);
  if (!outcome.conforms) return { ok: false, written: 0, graph, violations: outcome.violations };
  const body = new Writer({ format: "N-Triples" }).quadsToString(slice.quads as never);
  store.update(`DROP SILENT GRAPH <${graph}> ;\nINSERT DATA { GRAPH <${graph}> {\n${body}} }`);
  return { ok: true, written: slice.quads.length, graph, violations: [] };
}
