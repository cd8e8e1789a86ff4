// A listing line is one line for every common reader: Python's str.splitlines() (the oracle:
// LF, CR, VT, FF, U+001C–U+001E, U+0085, U+2028, U+2029) and JavaScript's multiline ^/$
// (LF, CR, U+2028, U+2029). Every such character is escaped, in literals and IRIs, by both
// listing backends, in the fragment listing, and on the MemDSL wire.
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { parseGraph, toPrefixMap } from "../../ts/rdf/index.js";
import { buildTripleIndex, renderListing, sortTriples } from "../../ts/triple-index/index.js";
import { createArtifact, fragmentMarkdown, formatFragmentListing } from "../../ts/evidence/index.js";
import { parseEnvelope, renderNeighborhood, serializeEnvelope, StatusVerdict } from "../../ts/memdsl/index.js";

/** Every character Python's str.splitlines() splits on (its documentation's table). */
const BREAKS = ["\n", "\r", "\u000B", "\u000C", "\u001C", "\u001D", "\u001E", "\u0085", "\u2028", "\u2029"];
const hex = (c: string) => c.charCodeAt(0).toString(16).toUpperCase().padStart(4, "0");

/** The lines Python sees: str.splitlines() on the UTF-8 text. */
function pythonLines(texts: string[]): string[][] {
  const run = spawnSync("python3", ["-c", "import sys, json; print(json.dumps([t.splitlines() for t in json.loads(sys.stdin.buffer.read().decode('utf-8'))]))"], {
    input: Buffer.from(JSON.stringify(texts), "utf8"),
  });
  expect(run.status, String(run.stderr)).toBe(0);
  return JSON.parse(String(run.stdout)) as string[][];
}

/** The oracle agrees the breaks are breaks (so a pass below is not a blind oracle). */
it("python3's splitlines splits on each of the ten characters, and JS multiline ^ on LF, CR, U+2028, U+2029", () => {
  expect(pythonLines(BREAKS.map((c) => `a${c}b`)).map((l) => l.length)).toEqual(BREAKS.map(() => 2));
  expect(BREAKS.filter((c) => `a${c}b`.match(/^b/m))).toEqual(["\n", "\r", "\u2028", "\u2029"]);
});

describe("triple listing: one line per triple for every reader", () => {
  // Each break in a literal, a language-tagged literal and a typed literal; in an IRI (as a
  // UCHAR escape in Turtle) the three IRIREF allows (it refuses C0).
  const IRI_BREAKS = ["\u0085", "\u2028", "\u2029"];
  const turtle = BREAKS.map((c, i) => {
    const u = `\\u${hex(c)}`;
    const iri = IRI_BREAKS.includes(c) ? u : "";
    return `<http://e/s${i}> <http://e/p> "a${u}b", "c${u}d"@en, "e${u}f"^^<http://e/t${iri}x> ; <http://e/p${iri}q> <http://e/o${iri}z> .`;
  }).join("\n");
  const graph = parseGraph(turtle, { format: "turtle" });

  it.each(["wasm", "ts"] as const)("the %s backend escapes them all as \\uXXXX (short escapes for LF, CR, FF)", (backend) => {
    const sorted = sortTriples(graph.store, toPrefixMap(graph.prefixes), { backend, fingerprint: true });
    const text = sorted.lines.map((l) => `${l}\n`).join("");
    expect(sorted.lines).toHaveLength(BREAKS.length * 4);
    expect(pythonLines([text])[0]).toHaveLength(sorted.lines.length);
    expect(text.match(/^/gm)!.length - 1).toBe(sorted.lines.length);
    for (const c of ["\u000B", "\u001C", "\u001D", "\u001E", "\u0085", "\u2028", "\u2029"]) expect(text).toContain(`"a\\u${hex(c)}b"`);
    expect(text).toContain("<http://e/o\\u2028z>");
    expect(text).toContain("<http://e/p\\u0085q>");
    expect(text).toContain('"e\\u2029f"^^<http://e/t\\u2029x>');
  });

  it("renderListing: as many lines as triples, by splitlines and by /^/m; the escapes re-parse to the same graph", () => {
    const listing = renderListing(buildTripleIndex(graph));
    const lines = pythonLines([listing])[0];
    expect(lines).toHaveLength(graph.store.size);
    expect(lines.every((l) => /^\[\d+\] /.test(l))).toBe(true);
    expect(listing.match(/^\[/gm)).toHaveLength(graph.store.size);
    // each line is N-Triples-like: the terms re-parse to the triples the graph holds
    const again = parseGraph(lines.map((l) => `${l.replace(/^\[\d+\] /, "")} .`).join("\n"), { format: "turtle" });
    expect(again.store.size).toBe(graph.store.size);
    for (const q of graph.store.getQuads(null, null, null, null)) expect(again.store.has(q)).toBe(true);
  });
});

describe("fragment listing", () => {
  it("a heading or paragraph holding U+0085, U+2028, U+2029 (or any C0 break) lists as one line", () => {
    const text = BREAKS.map((c, i) => `Para ${i} one${c === "\n" || c === "\r" ? " " : c}two`).join("\n\n");
    const artifact = createArtifact({ sourceObjectId: "breaks.md", content: text });
    const fragments = fragmentMarkdown(artifact.artifactId, text);
    const listing = formatFragmentListing(fragments, artifact);
    const lines = pythonLines([listing])[0];
    expect(lines).toHaveLength(fragments.length + 1);
    expect(listing.match(/^/gm)!.length - 1).toBe(fragments.length + 1);
    expect(listing).toContain("one\\u0085two");
  });
});

describe("MemDSL wire", () => {
  it("a body and a title holding each break: every wire line is one line for splitlines, and the envelope round-trips", () => {
    const body = BREAKS.map((c, i) => `b${i}${c}x`).join(" ");
    const title = BREAKS.map((c, i) => `t${i}${c}x`).join(" ");
    const env = renderNeighborhood(
      { nodes: [{ token: "http://e/a", kind: "owl:Class", title, body }], edges: [] },
      new Map([["http://e/a", new StatusVerdict("asserted")]]),
    );
    const wire = serializeEnvelope(env);
    const jsLines = wire.split("\n");
    expect(pythonLines([wire])[0]).toEqual(jsLines[jsLines.length - 1] === "" ? jsLines.slice(0, -1) : jsLines);
    expect(wire.match(/^/gm)!.length).toBe(jsLines.length);
    expect(parseEnvelope(wire)).toEqual(env);
  });
});
