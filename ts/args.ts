/**
 * The one check of an exported function's arguments: `checkArgs("fn", arguments, "a:string b?:object")`
 * as the first statement refuses a missing or wrong-typed argument with an {@link ArgumentError}
 * naming the function and the argument, instead of the TypeError or URIError the body would throw
 * later (`Cannot read properties of null`). Browser-safe, no imports but errors.ts: any file may use it.
 *
 * A spec is a space-separated list of `name:kinds`, one per parameter in order: `name?` when the
 * parameter may be left out (`undefined`), kinds joined by `|` when several are allowed, and
 * `=a/b/c` for a string that must be one of those words. The kinds are in {@link KINDS}. A spec is
 * parsed once (cached by its text), so the check costs a few `typeof` tests per call.
 */
import { ArgumentError } from "./errors.js";

type Test = (value: unknown) => boolean;

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object";
const isRecord = (v: unknown): boolean => isObject(v) && !Array.isArray(v);
const isIterable = (v: unknown): boolean => (isObject(v) || typeof v === "string") && typeof (v as { [Symbol.iterator]?: unknown })[Symbol.iterator] === "function";
/** Well-formed UTF-16 (no lone surrogate): `String.prototype.isWellFormed` where it exists (Node 20). */
const wellFormed = (s: string): boolean =>
  typeof (s as { isWellFormed?: () => boolean }).isWellFormed === "function" ? (s as unknown as { isWellFormed: () => boolean }).isWellFormed() : !/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(s);

/** Each kind: how a value is tested and how the expected value is named in the message. */
const KINDS: Record<string, [Test, string]> = {
  any: [(v) => v !== undefined && v !== null, "a value"],
  string: [(v) => typeof v === "string", "a string"],
  /** A non-empty string of well-formed Unicode (an id, a path, a URL): a lone surrogate cannot be encoded. */
  text: [(v) => typeof v === "string" && v !== "" && wellFormed(v), "a non-empty string of well-formed Unicode"],
  null: [(v) => v === null, "null"],
  number: [(v) => typeof v === "number" && !Number.isNaN(v), "a number"],
  int: [(v) => Number.isInteger(v), "an integer"],
  boolean: [(v) => typeof v === "boolean", "true or false"],
  object: [isRecord, "an object"],
  array: [(v) => Array.isArray(v), "an array"],
  strings: [(v) => Array.isArray(v) && v.every((x) => typeof x === "string"), "an array of strings"],
  iterable: [isIterable, "an iterable"],
  function: [(v) => typeof v === "function", "a function"],
  map: [(v) => v instanceof Map, "a Map"],
  u32: [(v) => v instanceof Uint32Array, "a Uint32Array"],
  bytes: [(v) => v instanceof Uint8Array, "a Uint8Array"],
  url: [(v) => (typeof v === "string" && v !== "" && wellFormed(v)) || (typeof URL !== "undefined" && v instanceof URL), "a URL or a non-empty string"],
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

interface Param {
  name: string;
  optional: boolean;
  /** The kinds' tests joined: one call per argument. */
  test: Test;
  expected: string;
}

const parsed = new Map<string, Param[]>();

function parseSpec(spec: string): Param[] {
  const params = spec.split(" ").filter(Boolean).map((item) => {
    const colon = item.indexOf(":");
    const rawName = item.slice(0, colon);
    const optional = rawName.endsWith("?");
    const tests: Test[] = [];
    const names: string[] = [];
    for (const kind of item.slice(colon + 1).split("|")) {
      if (kind.startsWith("=")) {
        const words = kind.slice(1).split("/");
        tests.push((v) => typeof v === "string" && words.includes(v));
        names.push(`one of ${words.map((w) => JSON.stringify(w)).join(", ")}`);
        continue;
      }
      const known = KINDS[kind];
      if (!known) throw new Error(`checkArgs: unknown kind ${JSON.stringify(kind)} in ${JSON.stringify(spec)}`);
      tests.push(known[0]);
      names.push(known[1]);
    }
    const test: Test = tests.length === 1 ? tests[0]! : (v) => tests.some((t) => t(v));
    return { name: optional ? rawName.slice(0, -1) : rawName, optional, test, expected: names.join(" or ") };
  });
  parsed.set(spec, params);
  return params;
}

/**
 * Refuse a missing or wrong-typed argument of `fn`, naming it.
 * @param fn the function as a caller writes it (`createOxigraphStore`, `Schema.fromGraph`)
 * @param args the call's `arguments`
 * @param spec the parameters (see the module comment)
 * @throws ArgumentError naming `fn`, the parameter and what it must be
 */
export function checkArgs(fn: string, args: ArrayLike<unknown>, spec: string): void {
  const params = parsed.get(spec) ?? parseSpec(spec);
  for (let i = 0; i < params.length; i++) {
    const p = params[i]!;
    const value = args[i];
    if ((value === undefined && p.optional) || p.test(value)) continue;
    // an array with one wrong item: name the item
    if (Array.isArray(value) && p.expected === KINDS.strings![1]) {
      const at = value.findIndex((x) => typeof x !== "string");
      throw new ArgumentError(fn, `${p.name}[${at}]`, "a string", value[at]);
    }
    throw new ArgumentError(fn, p.name, p.expected, value);
  }
}
