// CommonMark conformance sweep: every spec example fragments without error,
// deterministically, with offsets that slice back to the source and nest.
import { existsSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { fragmentMarkdown, type Fragment } from "../../ts/evidence/index.js";

interface Example {
  markdown: string;
  example: number;
  section: string;
}

const SHARED = new URL("../../../shared/data", import.meta.url);
const SPEC = new URL("../../../shared/data/markdown/commonmark/spec.json", import.meta.url);
const SPEC_TXT = new URL("../../../shared/data/markdown/commonmark/spec.txt", import.meta.url);
const FIXTURE = new URL("../fixtures/evidence/commonmark-examples.json", import.meta.url);

/** Every structural promise a fragment list makes about its source. */
function checkFragments(source: string, fragments: readonly Fragment[], where: string): void {
  const byId = new Map(fragments.map((f) => [f.fragmentId, f]));
  expect(byId.size, `${where}: unique fragment ids`).toBe(fragments.length);
  fragments.forEach((f, i) => {
    expect(f.sequence, where).toBe(i);
    expect(f.start >= 0 && f.start <= f.end && f.end <= source.length, `${where} ${f.path}: offsets in range`).toBe(true);
    expect(source.slice(f.start, f.end), `${where} ${f.path}: slice`).toBe(f.text);
    if (i > 0) expect(f.start >= fragments[i - 1].start, `${where} ${f.path}: document order`).toBe(true);
    if (f.parentId) {
      const p = byId.get(f.parentId)!;
      expect(p.sequence < f.sequence && p.start <= f.start && f.end <= p.end, `${where} ${f.path}: inside its parent`).toBe(true);
      expect(f.path.startsWith(`${p.path}/`), `${where} ${f.path}: path extends the parent's`).toBe(true);
      expect(f.depth).toBe(p.depth + 1);
    }
    // The offsets point at the construct itself, not somewhere near it.
    if (f.kind === "quote") expect(f.text, `${where} ${f.path}`).toMatch(/^ {0,3}>/);
    if (f.kind === "item") expect(f.text, `${where} ${f.path}`).toMatch(/^(?:[-+*]|\d{1,9}[.)])/);
    if (f.kind === "code" && /^(?:`{3,}|~{3,})/.test(f.text)) expect(f.text[0]).toMatch(/[`~]/);
    if (f.kind === "definition") expect(f.text.startsWith("[")).toBe(true);
  });
}

function sweep(examples: Example[]): void {
  for (const ex of examples) {
    const where = `example ${ex.example} (${ex.section})`;
    const a = fragmentMarkdown("spec", ex.markdown);
    const b = fragmentMarkdown("spec", ex.markdown);
    expect(b.map((f) => f.versionId), `${where}: deterministic`).toEqual(a.map((f) => f.versionId));
    checkFragments(ex.markdown, a, where);
  }
}

describe("CommonMark examples copied into the fixtures (always on)", () => {
  const examples = JSON.parse(readFileSync(FIXTURE, "utf8")) as Example[];
  it(`${examples.length} examples fragment cleanly`, () => {
    expect(examples.length).toBe(16);
    sweep(examples);
  });
  it("block quote example 228 gives a quote with a heading section and a paragraph inside", () => {
    const ex = examples.find((e) => e.example === 228)!;
    expect(fragmentMarkdown("spec", ex.markdown).map((f) => f.path)).toEqual(["quote:1", "quote:1/section:foo", "quote:1/section:foo/paragraph:1"]);
  });
});

describe.skipIf(!existsSync(SHARED))("CommonMark spec 0.31.2, all 652 examples (needs ../shared/data; skipped when it is absent)", () => {
  it("every example fragments without error, deterministically, offsets slicing back to the source", () => {
    const examples = JSON.parse(readFileSync(SPEC, "utf8")) as Example[];
    expect(examples.length).toBe(652);
    sweep(examples);
  });

  it("the spec's own source (spec.txt, 205 KB) fragments the same way", () => {
    const source = readFileSync(SPEC_TXT, "utf8");
    const fragments = fragmentMarkdown("commonmark/spec.txt", source);
    checkFragments(source, fragments, "spec.txt");
    expect(fragments.length).toBeGreaterThan(1000);
  });
});
