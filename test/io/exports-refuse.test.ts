// Every exported function, constructor and static method of every package entry (ts/index.ts, the
// browser and bundler entry; ts/node.ts, the Node entry, which adds the Node-only pieces) checks
// its required arguments: called with nothing, with nulls, or with values of the wrong type, it
// answers with a result (where that is documented below) or a GroundwireError; an ArgumentError
// names the function and the argument. Never a raw TypeError, URIError or RangeError.
import { describe, expect, it } from "vitest";
import * as browserEntry from "../../ts/index.js";
import * as nodeEntry from "../../ts/node.js";
import { ArgumentError, GroundwireError } from "../../ts/errors.js";

type Callable = (...args: unknown[]) => unknown;

/** What every callable is called with: nothing, nulls, and each wrong type in every position. */
const CALLS: Record<string, unknown[]> = {
  "no arguments": [],
  nulls: [null, null, null],
  numbers: [42, 42, 42],
  "empty objects": [{}, {}, {}],
  "empty strings": ["", "", ""],
  arrays: [[], [], []],
  "a lone surrogate": ["\uD800", "\uD800", "\uD800"],
};

/**
 * Callables that answer every one of the calls above with a result, on purpose: predicates over
 * any value, functions without required arguments, constructors of plain state, and the hot-path
 * primitives that take any string and order or escape it (their callers are typed).
 */
const ANSWERS: Record<string, string> = {
  isGroundwireError: "a predicate over any value",
  isAddressToken: "a predicate over any value",
  envelopeProblem: "says what is wrong with any value (null when nothing is)",
  initWasm: "no arguments",
  initSha256: "no arguments",
  ready: "no arguments",
  backendInfo: "no arguments",
  dialectPrefixes: "the dialect is optional (SPARQL 1.1: no prefixes)",
  sha256Backend: "no arguments",
  createExtractiveSynthesizer: "no arguments",
  Schema: "an empty schema (Schema.fromGraph fills one)",
  Transcript: "an empty transcript",
  compareCodePoints: "hot path (sorting): orders what it is given",
  codePointSortKey: "hot path (sorting)",
  escapeLiteral: "hot path (every literal printed)",
};

/** Callables whose every argument may be left out: called with nothing (or nulls, for wrapUntrustedBody) they answer. */
const NO_REQUIRED: Record<string, string> = {
  createGraph: "an empty graph",
  emptyQuery: "an empty SELECT",
  toPrefixMap: "the empty PrefixMap",
  PrefixMap: "the empty PrefixMap",
  GraphStore: "an empty store",
  wrapUntrustedBody: "an empty fenced body (null and undefined are empty text)",
};

/**
 * A result is accepted where the value given may be well typed for the function (a number where
 * it counts, an empty string, object or array); with nothing or nulls only where documented.
 */
function resultAllowed(name: string, call: string): boolean {
  if (ANSWERS[name]) return true;
  if (call === "no arguments" || call === "nulls") return name in NO_REQUIRED;
  return true;
}

/** Every callable export of an entry, with class statics as `Class.method`. */
function callables(entry: Record<string, unknown>): Array<[string, Callable, boolean]> {
  const out: Array<[string, Callable, boolean]> = [];
  for (const [name, value] of Object.entries(entry)) {
    if (typeof value !== "function") continue;
    const isClass = /^class\b/.test(Function.prototype.toString.call(value));
    if (isClass && (value.prototype instanceof Error || value === Error)) continue; // errors are built by the library
    out.push([name, value as Callable, isClass]);
    if (isClass) {
      for (const s of Object.getOwnPropertyNames(value)) {
        const member = (value as unknown as Record<string, unknown>)[s];
        if (typeof member === "function" && !["length", "name", "prototype"].includes(s)) out.push([`${name}.${s}`, member.bind(value) as Callable, false]);
      }
    }
  }
  return out.sort((a, b) => (a[0] < b[0] ? -1 : 1));
}

async function outcome(fn: Callable, isClass: boolean, args: unknown[]): Promise<unknown> {
  try {
    const r = isClass ? new (fn as unknown as new (...a: unknown[]) => unknown)(...args) : fn(...args);
    if (r && typeof (r as Promise<unknown>).then === "function") return await (r as Promise<unknown>);
    return r;
  } catch (error) {
    return { thrown: error };
  }
}

for (const [entryName, entry] of [["ts/index.ts", browserEntry], ["ts/node.ts", nodeEntry]] as const) {
  describe(`every callable export of ${entryName} refuses what it cannot take, by name`, () => {
    const all = callables(entry as unknown as Record<string, unknown>);
    it("has the exports this test enumerates", () => {
      expect(all.length).toBeGreaterThan(entryName === "ts/node.ts" ? 170 : 160);
    });
    it.each(all.map(([name, fn, isClass]) => [name, fn, isClass] as const))("%s", async (name, fn, isClass) => {
      for (const [call, args] of Object.entries(CALLS)) {
        const result = await outcome(fn, isClass, args);
        const thrown = (result as { thrown?: unknown } | undefined)?.thrown;
        if (thrown === undefined) {
          // a result: fine where documented (ANSWERS), or for the values that are well typed
          if (!resultAllowed(name, call)) {
            expect.fail(`${name} with ${call} answered ${String(result).slice(0, 80)} instead of refusing`);
          }
          continue;
        }
        if (!(thrown instanceof GroundwireError)) {
          expect.fail(`${name} with ${call} threw a raw ${(thrown as Error)?.name}: ${(thrown as Error)?.message}`);
        }
        if (thrown instanceof ArgumentError) {
          // it names the function called (or the one it handed the value to, by its own name) and the argument
          expect(thrown.message, `${name} with ${call}`).toMatch(/^[\w.]+: [\w.]+ must be /);
          expect(thrown.argument.length, `${name} with ${call}`).toBeGreaterThan(0);
          if (call === "no arguments" || call === "nulls") expect(thrown.fn, `${name} with ${call}`).toBe(name);
        }
      }
    });
  });
}

describe("the cases the issue names, through the Node entry", () => {
  const e = nodeEntry;
  it("createOxigraphStore() names its graph", () => {
    expect(() => (e.createOxigraphStore as Callable)()).toThrow(/^createOxigraphStore: graph must be a Graph \(from parseGraph, createGraph or loadGraphFile\), got undefined$/);
  });
  it("renderNeighborhood(null, null) names the neighborhood", () => {
    expect(() => (e.renderNeighborhood as Callable)(null, null)).toThrow(/^renderNeighborhood: neighborhood must be .*, got null$/);
  });
  it('an artifact id "\\uD800" (a lone surrogate) is refused by name, not a URIError', () => {
    const call = (f: () => unknown) => {
      try {
        f();
      } catch (error) {
        return error;
      }
      return undefined;
    };
    for (const thrown of [
      call(() => e.fragmentMarkdown("\uD800", "# x\n")),
      call(() => e.fragmentPlainText("\uD800", "x")),
      call(() => e.artifactIri("\uD800")),
      call(() => e.fragmentIri("\uD800")),
      call(() => e.createArtifact({ sourceObjectId: "\uD800", content: "x" })),
    ]) {
      expect(thrown).toBeInstanceOf(ArgumentError);
      expect((thrown as Error).message).toMatch(/(artifactId|sourceObjectId|fragmentId) must be .*well-formed Unicode/);
    }
  });
  it('resolveHandle(envelope, " n2") is refused: a handle with surrounding space is not a displayed handle', () => {
    const n = { nodes: [{ token: "http://e/a", kind: "resource" as const, title: "a", body: "" }, { token: "http://e/b", kind: "resource" as const, title: "b", body: "" }], edges: [] };
    const env = e.renderNeighborhood(n as never, new Map());
    expect(e.resolveHandle(env, "n2").ref).toBe("n2");
    expect(() => e.resolveHandle(env, " n2")).toThrow(e.HandleError);
  });
  it("a citation with an empty quote is refused as an empty address is", () => {
    const fragments = e.fragmentMarkdown("doc", "# Title\n\nSome text here.\n");
    const f = fragments[1]!;
    expect(() => e.citationStatus({ fragmentId: f.fragmentId, contentHash: f.contentHash, text: "" }, fragments)).toThrow(e.CitationFormatError);
    expect(() => e.citationStatus({ fragmentId: "", contentHash: f.contentHash }, fragments)).toThrow(e.CitationFormatError);
  });
});

/**
 * A value of the right type but outside what the argument allows (a negative count, an unknown
 * name, a URL that is not http(s), a duplicate key) is an ArgumentError too, naming the
 * function and the argument (`options.x` for an option), never a raw RangeError or TypeError.
 */
describe("right type, wrong value: an ArgumentError naming the function and the argument", () => {
  const e = nodeEntry;
  const graph = e.parseGraph("@prefix ex: <http://e/> . ex:a ex:p ex:b .");
  const index = e.createQuoteIndex(["one two three four five"], { backend: "ts" });
  const matcher = e.createQuoteMatcher(["one two three"]);
  const cases: [string, () => unknown, string][] = [
    ["assembleNeighborhood hops", () => e.assembleNeighborhood(graph, "http://e/a", { hops: -1 }), "assembleNeighborhood: options.hops must be a whole number ≥ 0, got -1"],
    ["renderNeighborhood maxBodyChars", () => e.renderNeighborhood({ nodes: [], edges: [] }, new Map(), { maxBodyChars: 2.5 }), "renderNeighborhood: options.maxBodyChars must be a whole number ≥ 0, got 2.5"],
    ["limitQuery maxRows", () => e.limitQuery(e.parseSparql("SELECT * WHERE { ?s ?p ?o }"), 0), "limitQuery: maxRows must be a whole number ≥ 1, got 0"],
    ["computeClosure n", () => e.computeClosure(-1, new Uint32Array(), new Uint32Array()), "computeClosure: n must be an integer in 0..16777216, got -1"],
    ["locate minRatio", () => index.locate("one two three", { minRatio: 2 }), "locate: options.minRatio must be a number in (0, 1], got 2"],
    ["locate limit", () => index.locate("one two three", { limit: 0 }), "locate: options.limit must be a positive integer, got 0"],
    ["locate timeoutMs", () => index.locate("one two three", { timeoutMs: -5 }), "locate: options.timeoutMs must be a number of milliseconds ≥ 0 (Infinity: no budget), got -5"],
    ["locate quote", () => index.locate(7 as never), "locate: quote must be a string, got 7"],
    ["QuoteMatcher.bestSpan quote", () => matcher.bestSpan(null as never), "QuoteMatcher.bestSpan: quote must be a string, got null"],
    ["QuoteMatcher.match quotes[1]", () => matcher.match(["one", 2] as never), "QuoteMatcher.match: quotes[1] must be a string, got 2"],
    ["createQuoteIndex duplicate key", () => e.createQuoteIndex([{ key: "a", text: "x" }, { key: "a", text: "y" }]), 'createQuoteIndex: input must be sources of distinct keys ("a" appears twice), got an array'],
    ["createQuoteIndex passage span", () => e.createQuoteIndex([{ key: "a", text: "xyz", passages: [{ label: "p", start: 2, end: 9 }] }]), "createQuoteIndex: input[0].passages[0] must be {label, start, end} with 0 ≤ start ≤ end ≤ text length, got object"],
    ["parseBook key", () => e.parseBook("no-slash", "text"), 'parseBook: key must be a book key <genre>/<book>, got "no-slash"'],
    ["serializeGraph format", () => e.serializeGraph(graph, { format: "rdfxml" as never }), 'serializeGraph: options.format must be turtle, ntriples, nquads or trig, got "rdfxml"'],
    ["fragmentMarkdown maxFragments", () => e.fragmentMarkdown("doc", "# x\n", { maxFragments: 0 }), "fragmentMarkdown: options.maxFragments must be a whole number ≥ 1 (or Infinity), got 0"],
    ["checkGrounding maxQuotes", () => e.checkGrounding("said", [], undefined, undefined, undefined, { maxQuotes: -1 }), "checkGrounding: options.maxQuotes must be a whole number ≥ 0, got -1"],
    ["snapQuotes pool[0]", () => e.snapQuotes("said", [7] as never), "snapQuotes: pool[0] must be a string or {tag, content}, got 7"],
    ["createSparqlEndpointStore url", () => e.createSparqlEndpointStore("ftp://example.org/sparql"), 'createSparqlEndpointStore: url must be an http(s) URL, got "ftp://example.org/sparql"'],
    ["createOpenAICompatibleSynthesizer baseUrl", () => e.createOpenAICompatibleSynthesizer({ baseUrl: "file:///etc/passwd" }), 'createOpenAICompatibleSynthesizer: options.baseUrl must be an http(s) URL, got "file:///etc/passwd"'],
    ["createHttpWorkerClient baseUrl", () => e.createHttpWorkerClient({ baseUrl: "not a url" }), 'createHttpWorkerClient: options.baseUrl must be an http(s) URL, got "not a url"'],
  ];
  it.each(cases)("%s", (_name, call, message) => {
    let thrown: unknown;
    try {
      call();
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ArgumentError);
    expect((thrown as Error).message).toBe(message);
  });
  it("a URL's credentials never reach the message", () => {
    expect(() => e.createSparqlEndpointStore("ftp://user:s3cret@example.org/sparql")).toThrow(ArgumentError);
    try {
      e.createSparqlEndpointStore("ftp://user:s3cret@example.org/sparql");
    } catch (error) {
      expect((error as Error).message).not.toContain("s3cret");
    }
    try {
      e.createOpenAICompatibleSynthesizer({ baseUrl: "http//user:s3cret@host" });
    } catch (error) {
      expect((error as Error).message).toBe('createOpenAICompatibleSynthesizer: options.baseUrl must be an http(s) URL, got a string of 22 characters with an "@" (not shown: it may hold credentials)');
    }
  });
});

/**
 * The methods of the objects the entries return (a kernel, a schema, a quote index and matcher,
 * a store, a synthesizer, a corpus, a moot, a transcript, a prefix map) check
 * their arguments as the functions do: called with nothing, nulls or wrong types, each answers or
 * throws a GroundwireError, never a raw TypeError. (N3's Store, re-exported as GraphStore, is
 * N3's own API and not checked here.)
 */
describe("methods of returned objects refuse bad arguments by name", () => {
  const e = nodeEntry;
  const graph = e.parseGraph("@prefix ex: <http://e/> . @prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> . ex:p rdfs:domain ex:C . ex:a ex:p ex:b .");
  const books = [e.parseBook("novel/x", "Chapter 1\n\nIt was a dark night.\n"), e.parseBook("novel/y", "Chapter 1\n\nThe sea was calm.\n")];
  const objects: Record<string, object> = {
    kernel: e.createKernel(e.Schema.fromGraph(graph)),
    schema: e.Schema.fromGraph(graph),
    tripleIndex: e.buildTripleIndex(graph),
    quoteIndex: e.createQuoteIndex(["a b c d e"]),
    matcher: e.createQuoteMatcher(["a b c"]),
    oxigraph: e.createOxigraphStore(graph),
    endpoint: e.createSparqlEndpointStore("http://127.0.0.1:9/sparql"),
    synth: e.createExtractiveSynthesizer(),
    corpus: e.createEmbeddedCorpus(books),
    moot: new e.Moot(e.createEmbeddedCorpus(books), e.createExtractiveSynthesizer(), ["novel/x", "novel/y"], null, 2),
    transcript: new (e.Transcript as unknown as new () => object)(),
    prefixMap: new e.PrefixMap({ ex: "http://e/" }),
  };
  /** Methods declared private in TypeScript (callable from JS, not API). */
  const PRIVATE = new Set(["moot.addToPool"]);
  for (const [name, object] of Object.entries(objects)) {
    const methods = new Set<string>();
    for (let proto = object; proto && proto !== Object.prototype; proto = Object.getPrototypeOf(proto)) {
      for (const key of Object.getOwnPropertyNames(proto)) {
        if (key !== "constructor" && typeof (object as Record<string, unknown>)[key] === "function" && !PRIVATE.has(`${name}.${key}`)) methods.add(key);
      }
    }
    it(`${name}: ${[...methods].join(", ")}`, async () => {
      expect(methods.size).toBeGreaterThan(0);
      const raw: string[] = [];
      for (const method of methods) {
        for (const [label, args] of Object.entries(CALLS)) {
          try {
            const out = (object as Record<string, Callable>)[method]!(...args);
            if (out && typeof (out as Promise<unknown>).then === "function") await out;
          } catch (error) {
            if (!(error instanceof GroundwireError)) raw.push(`${name}.${method} with ${label}: ${(error as Error).name}: ${(error as Error).message}`);
          }
        }
      }
      expect(raw).toEqual([]);
    });
  }
});

describe("right type, wrong value", () => {
  it("a credentialed URL that is no URL (a lone surrogate) is refused without its credentials", () => {
    const e = (() => {
      try {
        nodeEntry.createSparqlEndpointStore("http://u:secretpw@h/x\uD800");
      } catch (x) {
        return x as Error;
      }
    })();
    expect(e).toBeInstanceOf(ArgumentError);
    expect(e!.message).toBe('createSparqlEndpointStore: url must be a non-empty string of well-formed Unicode, got a string of 22 characters with an "@" (not shown: it may hold credentials)');
  });

  it.each([NaN, -1, 0, 1.5, Infinity])("createSparqlEndpointStore's timeoutMs %s is refused when the store is made, not as a raw RangeError at the first query", (timeoutMs) => {
    expect(() => nodeEntry.createSparqlEndpointStore("http://h.example/sparql", { timeoutMs })).toThrow(ArgumentError);
  });
});
