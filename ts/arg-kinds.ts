/**
 * The argument kinds of groundwire's own objects (a Graph, a Schema, a Kernel, a QuoteIndex, …),
 * and the `checkArgs` that knows them besides the kinds of plain values (ts/args.ts says why two).
 * A file whose specs name one of these kinds imports `checkArgs` from here.
 */
import { argumentChecker, isIterable, isObject, isRecord, KINDS, type Kinds } from "./args.js";

/** The kinds of groundwire's objects: how a value is tested and how the expected value is named. */
export const OBJECT_KINDS: Kinds = {
  graph: [(v) => isObject(v) && isObject(v.store) && typeof (v.store as { getQuads?: unknown }).getQuads === "function", "a Graph (from parseGraph, createGraph or loadGraphFile)"],
  store: [(v) => isObject(v) && typeof v.getQuads === "function", "an N3 Store (a Graph's store)"],
  quads: [(v) => isObject(v) && isIterable(v.quads) && isObject(v.prefixes), "{quads, prefixes} (from parseQuads)"],
  term: [(v) => isObject(v) && typeof v.termType === "string", "an RDF/JS term"],
  quad: [(v) => isObject(v) && isObject(v.subject) && isObject(v.predicate) && isObject(v.object), "an RDF/JS quad"],
  prefixes: [isRecord, "a prefixes record or a PrefixMap"],
  query: [(v) => isObject(v) && typeof v.form === "string" && isObject(v.where) && isObject(v.prefixes), "a Query (from parseSparql or compileOps)"],
  schema: [(v) => isObject(v) && v.classes instanceof Set && v.properties instanceof Map, "a Schema (Schema.fromGraph(graph))"],
  kernel: [(v) => isObject(v) && isObject(v.schema) && typeof v.check === "function", "a Kernel (createKernel(schema))"],
  closure: [(v) => isObject(v) && v.sccOf instanceof Uint32Array && v.offsets instanceof Uint32Array && v.ancestors instanceof Uint32Array, "a Closure (from computeClosure)"],
  tripleIndex: [(v) => isObject(v) && isObject(v.byId) && typeof v.fingerprint === "string" && typeof v.numbering === "string", "a TripleIndex (from buildTripleIndex)"],
  fragments: [(v) => Array.isArray(v) || (isObject(v) && v.byId instanceof Map), "an array of Fragments or a FragmentIndex"],
  quoteIndex: [(v) => isObject(v) && typeof v.locate === "function", "a QuoteIndex (from createQuoteIndex)"],
  checkResult: [(v) => isObject(v) && Array.isArray(v.context) && Array.isArray(v.openGoals) && Array.isArray(v.errors) && Array.isArray(v.warnings), "a check result (from kernel.check)"],
  sparqlResult: [(v) => isObject(v) && (v.kind === "boolean" || (v.kind === "bindings" && Array.isArray(v.rows))), "a SparqlResult (from a store's query)"],
  sparqlStore: [(v) => isObject(v) && typeof v.query === "function", "a SparqlStore (createOxigraphStore or createSparqlEndpointStore)"],
  synth: [(v) => isObject(v) && typeof v.complete === "function", "a TextSynthesizer ({name, complete})"],
  worker: [(v) => isObject(v) && typeof v.query === "function", "a WorkerClient ({query})"],
  tree: [(v) => isObject(v) && typeof v.key === "string", "a Tree (from treeFromHits)"],
  passage: [(v) => isObject(v) && typeof v.label === "string" && typeof v.content === "string", "a Passage ({tag, label, content})"],
  slice: [(v) => isObject(v) && Array.isArray(v.quads), "a GraphSlice (from toGraphSlice)"],
  artifact: [(v) => isObject(v) && typeof v.artifactId === "string", "an Artifact (from createArtifact)"],
  fragment: [(v) => isObject(v) && typeof v.fragmentId === "string" && typeof v.text === "string", "a Fragment"],
  indexParts: [(v) => isObject(v) && isObject(v.byId) && typeof v.order === "function", "the parts buildTripleIndex makes (use buildTripleIndex)"],
  endpoint: [(v) => isObject(v) && ((typeof v.baseUrl === "string" && v.baseUrl !== "") || (typeof URL !== "undefined" && v.baseUrl instanceof URL)), "options with a baseUrl"],
  resultTerm: [(v) => isObject(v) && typeof v.type === "string" && typeof v.value === "string", "a result term ({type, value})"],
  citation: [(v) => typeof v === "string" || isRecord(v), "a version id string or a Citation"],
  neighborhood: [(v) => isObject(v) && Array.isArray(v.nodes) && Array.isArray(v.edges), "{nodes, edges} (from assembleNeighborhood)"],
};

/** `checkArgs` (ts/args.ts) over the kinds of plain values and of groundwire's objects. */
export const checkArgs = /* @__PURE__ */ argumentChecker({ ...KINDS, ...OBJECT_KINDS });
