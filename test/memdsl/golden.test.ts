// Golden MemDSL envelopes of real neighborhoods (DBpedia dbo:City, schema.org Book):
// byte-for-byte against test/fixtures/memdsl/*.expected.memdsl; UPDATE=1 rewrites them.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { Writer } from "n3";
import { parseGraph, type Graph } from "../../ts/rdf/index.js";
import { applyNodeStatuses, assembleNeighborhood, parseEnvelope, renderNeighborhood, serializeEnvelope } from "../../ts/memdsl/index.js";
import { MEMDSL_CASES, type MemDSLCase } from "./cases.js";
import { mulberry32 } from "../prng.js";

const FIXTURES = new URL("../fixtures/memdsl/", import.meta.url);
const SHARED = new URL("../../../shared/data", import.meta.url);

function render(graph: Graph, c: MemDSLCase, maxBodyChars: number | null): string {
  const nh = assembleNeighborhood(graph, c.focus, { hops: c.hops });
  const env = renderNeighborhood(nh, applyNodeStatuses(graph, nh), { focus: c.focus, expanded: nh.expanded, maxBodyChars });
  const text = serializeEnvelope(env);
  expect(parseEnvelope(text)).toEqual(env);
  return text;
}

function excerpt(c: MemDSLCase): Graph {
  // The source name is part of `unresolved` notes, so both graphs carry the shared file's name.
  return parseGraph(readFileSync(new URL(c.input, FIXTURES), "utf8"), { source: c.sharedFile });
}

/** Deterministic shuffle (mulberry32) of the excerpt's triples, written back as N-Triples. */
function shuffled(graph: Graph, seed: number): Graph {
  const quads = graph.store.getQuads(null, null, null, null);
  const rand = mulberry32(seed);
  for (let i = quads.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [quads[i], quads[j]] = [quads[j], quads[i]];
  }
  const text = new Writer({ format: "N-Triples" }).quadsToString(quads);
  // N-Triples declares no prefixes: keep the excerpt's, which compaction reads.
  return { ...parseGraph(text, { format: "ntriples", source: graph.source }), prefixes: graph.prefixes };
}

describe.each(MEMDSL_CASES)("golden envelope: $name", (c) => {
  const graph = excerpt(c);
  for (const elision of c.elisions) {
    const file = `${c.name}.${elision === null ? "full" : `elided${elision}`}.expected.memdsl`;
    it(`${file} matches byte for byte`, () => {
      const text = render(graph, c, elision);
      const path = new URL(file, FIXTURES);
      if (process.env.UPDATE === "1" || !existsSync(path)) writeFileSync(path, text);
      expect(text).toBe(readFileSync(path, "utf8"));
    });
    it(`${file}: the same neighborhood in shuffled triple orders renders byte-identically`, () => {
      const expected = render(graph, c, elision);
      for (const seed of [1, 2, 3, 42, 2024]) expect(render(shuffled(graph, seed), c, elision)).toBe(expected);
    });
  }
});

describe.skipIf(!existsSync(SHARED))("golden excerpts agree with the full graphs in ../shared/data (needs ../shared/data; skipped when it is absent)", () => {
  it.each(MEMDSL_CASES)("$name: the full graph renders the golden bytes", (c) => {
    const full = parseGraph(readFileSync(new URL(`rdf/${c.sharedFile}`, `${SHARED.href}/`), "utf8"), { source: c.sharedFile });
    for (const elision of c.elisions) {
      const file = `${c.name}.${elision === null ? "full" : `elided${elision}`}.expected.memdsl`;
      expect(render(full, c, elision)).toBe(readFileSync(new URL(file, FIXTURES), "utf8"));
    }
  });
});
