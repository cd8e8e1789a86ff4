// The one workload the package and browser suites run everywhere: in Chromium on the
// self-contained bundle (dist/browser/groundwire.js), in Chromium on a Vite build of the
// packed tarball, in Node on dist/node.js, in a fresh project that installed the tarball,
// and in Node with WebAssembly deleted. Plain JS (no TypeScript) so a browser loads it as
// it is. It touches no fs or network: every input arrives as a string in `input`.
//
// The result is plain JSON; the suites compare JSON.stringify of it byte for byte, except
// `env` (which backend ran — that is expected to differ between runs).

/**
 * @typedef {object} ProbeInput
 * @property {{ passages: string[], cases: { quote: string, sources: number[] }[] }} parity
 *   test/fixtures/moot/parity.json (cases reference passages by index)
 * @property {string} ntriples schema.org excerpt (test/browser/fixtures/schemaorg-places.nt)
 * @property {string} markdown markdown excerpt (test/browser/fixtures/system-design-primer-excerpt.md)
 * @property {string} [backend] "auto" | "wasm" | "ts": passed to setBackend before the run
 */

const SCHEMA = "https://schema.org/";

/**
 * Run every part's main function once on `input` with the module namespace `gw`.
 * A part whose API is not exported yet is listed in `skipped` (with the missing names)
 * instead of failing, so the suites can say exactly what did not run.
 * @param {Record<string, any>} gw the imported groundwire module
 * @param {ProbeInput} input
 */
export async function runProbe(gw, input) {
  // what a page does for the fast path: compile the WASM core and hash-wasm before the first call
  if (gw.ready) await gw.ready();
  if (input.backend) gw.setBackend(input.backend);
  /** @type {Record<string, unknown>} */
  const parts = {};
  /** @type {Record<string, string>} */
  const skipped = {};
  const has = (part, names) => {
    const missing = names.filter((n) => gw[n] === undefined);
    if (missing.length) skipped[part] = `not exported yet: ${missing.join(", ")}`;
    return missing.length === 0;
  };

  // sha256 through the active backend (node:crypto, hash-wasm or @noble/hashes)
  parts.sha256 = gw.sha256Hex("groundwire ✓ ünïcödé");

  // moot: every bestSpan parity case (python3 difflib is the oracle of the fixture)
  if (has("moot", ["bestSpan"])) {
    const { passages, cases } = input.parity;
    parts.moot = cases.map((c) => {
      const r = gw.bestSpan(c.quote, c.sources.map((i) => passages[i]));
      return r == null ? null : { text: r.text, source: r.source, ratio: r.ratio, start: r.start, end: r.end };
    });
  }

  const graph = gw.parseGraph(input.ntriples, { format: "ntriples", source: "schemaorg-places.nt" });
  graph.prefixes = { schema: SCHEMA, rdfs: "http://www.w3.org/2000/01/rdf-schema#", rdf: "http://www.w3.org/1999/02/22-rdf-syntax-ns#" };

  // triple index: fingerprint and the listing the critic reads
  if (has("tripleIndex", ["fingerprintGraph", "buildTripleIndex", "renderListing"])) {
    const index = gw.buildTripleIndex(graph);
    parts.tripleIndex = { fingerprint: gw.fingerprintGraph(graph), listing: gw.renderListing(index) };
    // the store-free pair a fingerprint-only page uses gives the same fingerprint
    if (has("tripleIndex", ["parseQuads", "fingerprintQuads"])) {
      const parsed = gw.parseQuads(input.ntriples, { format: "ntriples" });
      parts.tripleIndex.storeFreeFingerprint = gw.fingerprintQuads({ quads: parsed.quads, prefixes: graph.prefixes });
    }
  }

  // kernel: the reflexive-transitive subclass closure of the schema (every ordered pair of classes)
  if (has("kernel", ["Schema"])) {
    const schema = gw.Schema.fromGraph(graph);
    const classes = [...schema.classes].filter((c) => c.startsWith(SCHEMA)).sort();
    parts.kernel = Object.fromEntries(classes.map((c) => [c, classes.filter((d) => schema.isSubClassOf(c, d))]));
  }

  // memdsl: assemble around schema:City, derive statuses, render, serialize, parse, serialize again
  if (has("memdsl", ["assembleNeighborhood", "applyNodeStatuses", "renderNeighborhood", "serializeEnvelope", "parseEnvelope"])) {
    const hood = gw.assembleNeighborhood(graph, SCHEMA + "City", { hops: 1 });
    const statuses = gw.applyNodeStatuses(graph, hood);
    const envelope = gw.renderNeighborhood(hood, statuses, { focus: hood.focus, expanded: hood.expanded, maxBodyChars: 120 });
    const text = gw.serializeEnvelope(envelope);
    const parsed = gw.parseEnvelope(text);
    parts.memdsl = { text, roundTrip: gw.serializeEnvelope(parsed) === text && JSON.stringify(parsed) === JSON.stringify(envelope) };
  }

  // evidence: fragment a real markdown excerpt (addresses, versions, offsets)
  if (has("evidence", ["fragmentMarkdown"])) {
    const fragments = gw.fragmentMarkdown("system-design-primer/README.md", input.markdown);
    parts.evidence = fragments.map((f) => ({ path: f.path, versionId: f.versionId, start: f.start, end: f.end, parent: f.parentId }));
  }

  return { env: { backend: gw.backendInfo(), sha256: gw.sha256Backend() }, parts, skipped };
}
