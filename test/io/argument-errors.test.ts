// Refusals that name what is wrong: required arguments missing or mistyped are ArgumentErrors
// naming the function and the argument (never a TypeError from inside, a URIError, "Cannot read
// properties of null"); a citation with an empty quote is malformed like one with an empty
// address; a handle with surrounding space is not a handle the envelope displayed.
import { describe, expect, it } from "vitest";
import * as pkg from "../../ts/node.js";

const FRAGMENT = "a".repeat(64);
const HASH = `sha256:${"b".repeat(64)}`;

/** [call, the function's name, the argument the message must name]. */
const CASES: Array<[string, () => unknown, string, string]> = [
  ["createOxigraphStore()", () => (pkg.createOxigraphStore as (g?: unknown) => unknown)(), "createOxigraphStore", "graph"],
  ["createOxigraphStore(null)", () => pkg.createOxigraphStore(null as never), "createOxigraphStore", "graph"],
  ["createOxigraphStore(42)", () => pkg.createOxigraphStore(42 as never), "createOxigraphStore", "graph"],
  ["renderNeighborhood(null, null)", () => pkg.renderNeighborhood(null as never, null as never), "renderNeighborhood", "neighborhood"],
  ["renderNeighborhood({nodes:[],edges:[]}, null)", () => pkg.renderNeighborhood({ nodes: [], edges: [] }, null as never), "renderNeighborhood", "nodeStatus"],
  ["renderNeighborhood(\"x\", new Map())", () => pkg.renderNeighborhood("x" as never, new Map()), "renderNeighborhood", "neighborhood"],
  ["createArtifact(null)", () => pkg.createArtifact(null as never), "createArtifact", "input"],
  ["createArtifact({})", () => pkg.createArtifact({} as never), "createArtifact", "sourceObjectId"],
  ["createArtifact with artifactId \\uD800", () => pkg.createArtifact({ sourceObjectId: "a.md", content: "x", artifactId: "\uD800" }), "createArtifact", "artifactId"],
  ["createArtifact with a sourceObjectId holding a line break", () => pkg.createArtifact({ sourceObjectId: "a\nb.md", content: "x" }), "createArtifact", "sourceObjectId"],
  ["createArtifact with content 42", () => pkg.createArtifact({ sourceObjectId: "a.md", content: 42 as never }), "createArtifact", "content"],
  ["artifactIri(\"\\uD800\")", () => pkg.artifactIri("\uD800"), "artifactIri", "artifactId"],
  ["artifactIri(null)", () => pkg.artifactIri(null as never), "artifactIri", "artifactId"],
  ["resolveHandle(null, \"n1\")", () => pkg.resolveHandle(null as never, "n1"), "resolveHandle", "envelope"],
  ["resolveHandle(envelope, 1)", () => pkg.resolveHandle({ nodes: [] } as never, 1 as never), "resolveHandle", "handle"],
  ["resolveAffordance(undefined, \"n1\")", () => pkg.resolveAffordance(undefined as never, "n1"), "resolveAffordance", "envelope"],
];

describe("missing or mistyped required arguments are ArgumentErrors naming function and argument", () => {
  it.each(CASES)("%s", (_name, call, fn, argument) => {
    let error: unknown;
    try {
      call();
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(pkg.ArgumentError);
    expect(error).toMatchObject({ code: "bad_request", status: 400, fn, argument });
    expect((error as Error).message).toMatch(new RegExp(`^${fn}: ${argument} must be `));
  });
});

describe("citations and handles that must be refused", () => {
  const fragments = pkg.fragmentMarkdown("doc.md", "# Title\n\nSome text here.\n");
  const at = fragments[1];

  it("a citation whose quote is empty is a CitationFormatError, as an empty address is", () => {
    for (const text of ["", "   "]) {
      expect(() => pkg.citationStatus({ fragmentId: at.fragmentId, contentHash: at.contentHash, text }, fragments)).toThrow(pkg.CitationFormatError);
    }
    expect(() => pkg.citationStatus({ fragmentId: "", contentHash: HASH }, fragments)).toThrow(pkg.CitationFormatError);
    expect(() => pkg.citationStatus({ fragmentId: FRAGMENT, contentHash: "" }, fragments)).toThrow(pkg.CitationFormatError);
    expect(() => pkg.citationStatus(`${at.fragmentId}#`, fragments)).toThrow(pkg.CitationFormatError);
    // a well-formed citation with a quote still resolves
    expect(pkg.citationStatus({ ...pkg.citeFragment(at) }, fragments).status).toBe("current");
  });

  it("a fragment whose text is white space CommonMark does not count as blank is cited and resolves: the quote check refuses only what no fragment holds", () => {
    for (const space of ["\v", "\f", "\u00a0", "\u3000", "\v \f"]) {
      const doc = pkg.fragmentMarkdown("doc.md", `para\n\n${space}\n`);
      const last = doc[doc.length - 1];
      expect(last.text, JSON.stringify(space)).toBe(space);
      const report = pkg.citationStatus(pkg.citeFragment(last), doc);
      expect(report.status, JSON.stringify(space)).toBe("current");
      // stale against another version, the suggestions run on a text that normalizes to nothing
      const other = pkg.fragmentMarkdown("doc.md", "para\n\nnew text\n");
      const stale = pkg.citationStatus(pkg.citeFragment(last), other);
      expect(["stale", "lost"], JSON.stringify(space)).toContain(stale.status);
    }
  });

  it("resolveHandle(envelope, \" n2\") is refused: not a handle the envelope displayed", () => {
    const A = "http://example.org/a";
    const B = "http://example.org/b";
    const env = pkg.renderNeighborhood(
      { nodes: [{ token: A, kind: "k", title: "a", body: "" }, { token: B, kind: "k", title: "b", body: "" }], edges: [] },
      new Map([[A, new pkg.StatusVerdict("asserted")]]),
    );
    expect(pkg.resolveHandle(env, "n2").token).toBe(B);
    for (const h of [" n2", "n2 ", " n2 ", "\tn2", "n2\n"]) expect(() => pkg.resolveHandle(env, h)).toThrow(pkg.HandleError);
    expect(() => pkg.resolveGaps(env, " n2")).toThrow(pkg.HandleError);
  });
});
