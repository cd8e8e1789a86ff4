// The shipped Turtle files are the one source of truth; the TS module embedding
// them (for browser-safe code) must match byte for byte. UPDATE=1 regenerates it.
import { readFileSync, writeFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parseGraph } from "../../ts/rdf/index.js";
import { EVIDENCE_NS, FRAGMENT_KINDS } from "../../ts/evidence/index.js";
import { MODULE_URL, ONTOLOGY_URL, SHAPES_URL, renderVocabularyModule } from "./vocabulary-module.js";

describe("evidence vocabulary", () => {
  it("ts/evidence/vocabulary.generated.ts is the shipped Turtle, verbatim", () => {
    const expected = renderVocabularyModule();
    if (process.env.UPDATE === "1") writeFileSync(MODULE_URL, expected);
    expect(readFileSync(MODULE_URL, "utf8")).toBe(expected);
  });

  it("the ontology declares every term the graph slice uses; the shapes' kind list is FRAGMENT_KINDS", () => {
    const ontology = parseGraph(readFileSync(ONTOLOGY_URL, "utf8"), { source: "evidence.ttl" });
    const declared = new Set(ontology.store.getSubjects(null, null, null).map((s) => s.value));
    const used = ["Artifact", "Fragment", "hasFragment", "artifact", "parent", "artifactId", "sourceObjectId", "connector", "mediaType", "byteLength", "contentHash", "fragmentId", "versionId", "address", "fragmentKind", "anchor", "label", "sequence", "ordinal", "startOffset", "endOffset"];
    for (const term of used) expect(declared.has(EVIDENCE_NS + term), term).toBe(true);
    const shapes = readFileSync(SHAPES_URL, "utf8");
    const list = shapes.match(/sh:in \(([^)]*)\)/)![1].match(/"([^"]+)"/g)!.map((s) => s.slice(1, -1));
    expect(list).toEqual([...FRAGMENT_KINDS]);
  });
});
