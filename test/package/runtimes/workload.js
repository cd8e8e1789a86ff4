// The workload every runtime smoke test runs (test/package/runtimes.test.ts): plain JS, no
// fs or network, every input a string in `input`. Node, Deno, Bun and workerd must give the
// same `values`; `env` says which backends ran (and why, when not WASM).

/**
 * @param {Record<string, any>} gw the imported groundwire module
 * @param {{ passages: string[], quotes: { quote: string, sources: number[] }[], ntriples: string, markdown: string }} input
 */
export function workload(gw, input) {
  const spans = input.quotes.map((c) => {
    const r = gw.bestSpan(c.quote, c.sources.map((i) => input.passages[i]));
    return r == null ? null : { text: r.text, source: r.source, ratio: r.ratio, start: r.start, end: r.end };
  });
  const graph = gw.parseGraph(input.ntriples, { format: "ntriples", source: "schemaorg-places.nt" });
  // the markdown stack: Node's build requires its own bundle of it (dist/vendor/markdown.js)
  const fragments = gw.fragmentMarkdown("awesome", input.markdown).map((f) => [f.fragmentId, f.kind, f.start, f.end]);
  return {
    values: { spans, fragments, fingerprint: gw.fingerprintGraph(graph), sha256: gw.sha256Hex("groundwire ✓ ünïcödé") },
    env: { backend: gw.backendInfo(), sha256: gw.sha256Backend() },
  };
}
