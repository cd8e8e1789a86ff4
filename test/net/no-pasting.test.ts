// Documents built from input escape what they carry (issue 12 item 5's sweep). A critique's
// correctValue is parsed under the graph's prefixes: a namespace holding ">" (a Graph's
// prefixes are a plain record anyone can fill) used to end its IRIREF and add triples of its own.
import { describe, expect, it } from "vitest";
import { parseGraph } from "../../ts/rdf/index.js";
import { applyCritique, buildTripleIndex, renderListing } from "../../ts/triple-index/index.js";

describe("no text pasted from input", () => {
  it("a hostile namespace in the graph's prefixes cannot inject triples through a critique's correctValue", () => {
    const g = parseGraph(`@prefix ex: <http://e.example/> .\nex:a ex:b ex:c .\n`, { format: "turtle" });
    g.prefixes.evil = "urn:x> . <urn:injected> <urn:p> <urn:o> . @prefix z: <urn:z";
    const index = buildTripleIndex(g);
    const id = Number(/^\[(\d+)\]/.exec(renderListing(index).split("\n").find((l) => l.startsWith("["))!)![1]);
    const report = applyCritique(g, index, [{ op: "replace", tripleIds: [id], correctValue: "ex:a ex:b ex:d ." }]);
    const added = report.applied.flatMap((a) => a.added.map((q) => q.subject.value));
    expect(added).not.toContain("urn:injected");
    expect(g.store.getQuads(null, null, null, null).map((q) => q.subject.value)).not.toContain("urn:injected");
  });
});
