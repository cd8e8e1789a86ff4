// Addresses do not change: fragmentMarkdown (markdown-it block pass + offsets, micromark where needed)
// against the micromark → mdast fragmenter it replaced (test/evidence/reference-fragmenter.ts), over every
// real file: fragmentId, contentHash, path, kind, start, end and line byte for byte, and the cells of every
// table row whose cell count matches its header (other rows now get GFM's cells, see source-offsets.test.ts).
// Each document is also fragmented in 3-line chunks (the cuts a 50 MB document gets every ~20,000 lines).
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { fragmentMarkdown, type Fragment } from "../../ts/evidence/index.js";
import { setMarkdownChunkLines } from "../../ts/evidence/fragment.js";
import { fragmentMarkdown as referenceFragmentMarkdown } from "./reference-fragmenter.js";

const FIXTURES = new URL("../fixtures/evidence/", import.meta.url);
const MARKDOWN = new URL("../../../shared/data/markdown/", import.meta.url);

/** The fields a stored citation depends on, one line per fragment, so a failure shows the first difference. */
function addressLines(fragments: readonly Fragment[], widths: (number | undefined)[] | null): string[] {
  return fragments.map((f, i) => {
    const row = [f.fragmentId, f.contentHash, f.path, f.kind, f.start, f.end, f.line].join(" ");
    const width = widths ? widths[i] : undefined;
    const cells = f.cells && width === f.cells.length ? ` cells=${JSON.stringify(f.cells)}` : "";
    return row + cells;
  });
}

/** Per fragment: the header width of its table when it is a row whose written cell count equals it. */
function comparableWidths(reference: readonly Fragment[]): (number | undefined)[] {
  const headerWidth = new Map<string, number>();
  return reference.map((f) => {
    if (f.kind !== "row" || !f.cells) return undefined;
    if (!headerWidth.has(f.parentId!)) headerWidth.set(f.parentId!, f.cells.length);
    return f.cells.length === headerWidth.get(f.parentId!) ? f.cells.length : undefined;
  });
}

function expectSameAddresses(name: string, text: string): void {
  const reference = referenceFragmentMarkdown(name, text);
  const widths = comparableWidths(reference);
  const expected = addressLines(reference, widths);
  const actual = addressLines(fragmentMarkdown(name, text), widths);
  expect(actual, name).toEqual(expected);
  // Chunks of 3 lines: markdown-it cut before nearly every eligible heading, and re-tokenized where a block ran on.
  const previous = setMarkdownChunkLines(3);
  try {
    expect(addressLines(fragmentMarkdown(name, text), widths), `${name} (3-line chunks)`).toEqual(expected);
  } finally {
    setMarkdownChunkLines(previous);
  }
}

describe("fragmentMarkdown keeps every address of the micromark fragmenter", () => {
  it("the fixtures (test/fixtures/evidence/*.md)", () => {
    const names = readdirSync(FIXTURES).filter((n) => n.endsWith(".md") && n !== "NOTICE.md");
    expect(names.length).toBeGreaterThanOrEqual(3);
    for (const n of names) expectSameAddresses(n, readFileSync(new URL(n, FIXTURES), "utf8"));
  });

  it("every CommonMark example in the fixture set", () => {
    const examples = JSON.parse(readFileSync(new URL("commonmark-examples.json", FIXTURES), "utf8")) as { markdown: string; example: number }[];
    expect(examples.length).toBeGreaterThan(10);
    for (const e of examples) expectSameAddresses(`example-${e.example}`, e.markdown);
  });

  it("headings and cells with inline markup: markdown-it's reading where it agrees, micromark's where GFM differs", () => {
    // Tildes in link destinations and code (markdown-it reads them, as the primer's tables need), single-tilde
    // strikethrough and footnote calls (micromark), autolinks written with percent escapes, entities, escapes,
    // reference links resolved against definitions further down, emphasis, images, inline HTML.
    const doc = [
      "# *look for* `link~` or [image](/u~rl)",
      "",
      "## ~gone~ and ~~struck~~ [^1] <http://a.example/%7Ex>",
      "",
      "Setext &amp; \\*escaped\\* [ref][r~1]",
      "===",
      "",
      "| site | papers |",
      "| --- | --- |",
      "| [harvard.edu](http://www.read.seas.harvard.edu/~kohler/class/cs239-w08/chang06bigtable.pdf) | [a](http://x/~b)<br/>[c](http://y/~d) |",
      "| ~single~ tilde | ~~double~~ tilde |",
      "| `code ~x` | ![alt ~t](/img~.png) |",
      "| <http://a.example/%7Ex> | [^1] call |",
      "| &copy; *em* [ref][r~1] | a~b [c](d) |",
      "",
      "[r~1]: /target",
      "[^1]: A note.",
      "",
    ].join("\n");
    expectSameAddresses("inline-readings", doc);
    const rows = fragmentMarkdown("inline-readings", doc).filter((f) => f.kind === "row");
    expect(rows.map((r) => r.cells!.map((c) => c.text))).toEqual([
      ["site", "papers"],
      ["harvard.edu", "ac"],
      ["single tilde", "double tilde"],
      ["code ~x", "alt ~t"],
      ["http://a.example/%7Ex", " call"], // the footnote call reads as nothing, as in mdast
      ["© em ref", "a~b c"],
    ]);
  });

  it("an empty list item followed by two or more blank lines: one list, as micromark (and CommonMark) read it", () => {
    // markdown-it's item reader stops at the second blank line after an empty item and starts a new list
    const cases = ["- \n\n \n  - a\n", "-\n\n\n- a\n", "1.\n\n\n\n2. b\n\ntext\n", "# T\n\n- x\n  -\n\n\n  - y\n\n-\n\n\nafter\n"];
    for (const [i, text] of cases.entries()) expectSameAddresses(`empty item ${i}`, text);
    expect(fragmentMarkdown("d", "-\n\n\n- a\n").map((f) => f.path)).toEqual(["list:1", "list:1/item:1", "list:1/item:2", "list:1/item:2/paragraph:1"]);
  });

  it("links, definitions and autolinks with URLs markdown-it's defaults refuse or rewrite (micromark reads them all)", () => {
    // markdown-it's validateLink refuses javascript:, vbscript:, file: and most data: URLs (a definition
    // became a paragraph, a link its literal text) and normalizeLinkText percent-decodes autolinks; the
    // fragmenter's instance does neither, as micromark does not.
    const doc = [
      "# [x](javascript:alert(1)) and <vbscript:y~z>",
      "",
      "[safe]: javascript:void(0)",
      "[img]: data:text/html;base64,xx~",
      "",
      "## ![alt](file:///etc/passwd) <http://a.example/%7Ex> <a@b.example>",
      "",
      "| site | link |",
      "| --- | --- |",
      "| [j](javascript:x) | <javascript:z> |",
      "| [ref][safe] ![i][img] | <http://a.example/%E2%82%AC/~u> |",
      "",
      "Paragraph [x](JAVASCRIPT:y) [z][safe].",
      "",
    ].join("\n");
    expectSameAddresses("refused-urls", doc);
    const fragments = fragmentMarkdown("refused-urls", doc);
    expect(fragments.filter((f) => f.kind === "definition").map((f) => f.path)).toEqual(["section:x-and-vbscriptyz/definition:safe", "section:x-and-vbscriptyz/definition:img"]);
    expect(fragments.filter((f) => f.kind === "row").map((r) => r.cells!.map((c) => c.text))).toEqual([
      ["site", "link"],
      ["j", "javascript:z"],
      ["ref i", "http://a.example/%E2%82%AC/~u"],
    ]);
  });

  describe.skipIf(!existsSync(MARKDOWN))("real files in ../shared/data/markdown (skipped: ../shared/data is absent)", () => {
    it("every CommonMark 0.31.2 example (spec.json)", () => {
      const examples = JSON.parse(readFileSync(new URL("commonmark/spec.json", MARKDOWN), "utf8")) as { markdown: string; example: number }[];
      expect(examples.length).toBe(652);
      for (const e of examples) expectSameAddresses(`spec-example-${e.example}`, e.markdown);
    });

    it("the CommonMark spec source (spec.txt)", () => {
      expectSameAddresses("spec.txt", readFileSync(new URL("commonmark/spec.txt", MARKDOWN), "utf8"));
    });

    // One test per file: the reference fragmenter takes seconds per version on a loaded machine.
    for (const history of ["awesome", "system-design-primer"]) {
      const dir = new URL(`${history}/`, MARKDOWN);
      const names = existsSync(dir) ? readdirSync(dir).filter((n) => n.endsWith(".md")).sort() : [];
      it(`${history}: every version is there`, () => expect(names.length).toBe(40));
      for (const n of names) {
        it(`${history}/${n}`, () => expectSameAddresses(`${history}/${n}`, readFileSync(new URL(n, dir), "utf8")));
      }
    }
  });
});
