// Addresses do not change: fragmentMarkdown (markdown-it block pass + offsets, micromark where needed)
// against the micromark → mdast fragmenter it replaced (test/evidence/reference-fragmenter.ts), over every
// real file: fragmentId, contentHash, path, kind, start, end and line byte for byte, and the cells of every
// table row whose cell count matches its header (other rows now get GFM's cells, see source-offsets.test.ts).
// Each document is also fragmented in 3-line chunks (the cuts a 50 MB document gets every ~20,000 lines).
//
// npm test: of the 652 CommonMark spec examples, 4 of each of the spec's 26 sections (spread over
// the section, so every section keeps its first and last); of the 40 versions of each markdown
// history, 3 (the first, the middle one and the last: consecutive versions differ by a few lines);
// every other case in full (the fixtures, spec.txt, the minimized and divergence cases).
// npm run test:deep (test/depth.ts): every example and every version.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { fragmentMarkdown, type Fragment } from "../../ts/evidence/index.js";
import { setMarkdownChunkLines } from "../../ts/evidence/fragment/index.js";
import { fragmentMarkdown as referenceFragmentMarkdown } from "./reference-fragmenter.js";
import { DEEP, spread, spreadEach } from "../depth.js";

/** npm test: how many versions of each history, and how many spec examples of each section (see above). */
const VERSIONS = 3, EXAMPLES_PER_SECTION = 4;

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

  // Minimized from the random differential (reference-differential.test.ts); each was a difference before.
  const MINIMIZED: [string, string[]][] = [
    ["a table without body rows spans its delimiter row", ["|x|\n|-|\n", "| a | b |\n|---|---|\n\n", "# T\n\n| a |\n| - |\n\ntext\n"]],
    ["GFM task list items: the check is not paragraph content (micromark decides when it holds)", [
      "- [ ] task\n", "- [x] done\n", "- [X] Done *em*\n", "- [ ] a\n  - [x] b\n", "1. [ ] ordered\n", "1) [X] paren\n", "> - [x] quoted\n", "- [ ]  two spaces\n",
      "- [ ]\ttab after\n", "- [ ] `code`\n", "- [ ] www.x.com\n", "- [ ] a@b.co\n", "- [ ]\n  next line\n", "- [ ]\n", "- [ ]x\n", "- a [ ] b\n", "- [\tx] odd\n", "- [x] crlf\r\n", "- [ ] a\n- [x] b\n\n  more\n",
    ]],
    ["what follows a definition without a blank line is its paragraph's, unless it may interrupt one", [
      "[ref]: http://x\n    indented\n", "[ref]: http://x\n\t| tab | t |\n", "[ref]: /u\n<custom-tag>\n", "[ref]: /u\n2. two\n", "[ref]: /u\n-\n", "[ref]: /u\n- item\n",
      "> [q]: /q\ncontinuation\n", "- [li]: /li\ntext[^n]\n", "[d]: /u 'title'\nnext\n", "[t2]: /url\n  'title on next'\n", "[a]: /a\n[b]: /b\n    c\n", "> [d]: /u\n> next\n> ---\n",
    ]],
    ["a footnote definition goes on after a blank line with indented lines", ["[^n]: foot\n\n    indented\n", "[^n]: foot\n| a | b |\n|---|---|\n\n\t| tab | t |\n"]],
    ["a region read by micromark is never front matter in the middle of a document", ["para\n\n---\n[^a]: x\n---\n"]],
    ["a quote or list closed by a quote or list inside a quote (micromark's end is the new one's start)", ["> > deeper\n> - item\n", "> - a\n> > q\n", "> 1. a\n> - b\n", "> > q\n> > > r\n> - s\n"]],
    ["indented lines after a block quote: lazy paragraph lines, or code", ["> >   more\n    - a [ ] b\n", "> > b\n    ***\n", "> \t\tq\n    > quote\n", "> \t\tq\n    | a | b |\n    |---|---|\n"]],
    ["a table header row that opens a list item, a quote or a heading", ["- a | b\n  --|--\n", "> a | b\n--|--\n", "# a | b\n--|--\n", "1. a | b\n---|---\n"]],
    ["micromark's reading of a group that goes on past markdown-it's", ["[x]: javascript:y\n<custom-tag>\n<pre>\n\n</pre>\n", "- [li]: /li\n|---|---|\n\n- [\tx] odd\n", "- [ref]: http://x\n| 1 | 2 |\n  - l\n\n  ===\n", "- [ref]: http://x\r\n| 1 | 2 |\r\n\r\n  ===\r\n"]],
    ["a line indented four columns or more, but less than the item's content column, after an item's paragraph is a lazy line of it", [
      " -   [ ] a\n    > b\n", "-    [ ]\n    > b", "-    [x]\n    ```", "  1. [X]\n    ---", "  2) [X]\n    >", " -   [ ] a\n    # b", " -   [ ] a\n    <div>", " -   [ ] a\n    ***",
      "  1.  [ ] a\n     > b", ">  -   [x]\n>     <div", " -   a\n    > b\n", "  1. a\n    ---\n", "- a\n  -    b\n      > c\n", "- [ ] a\n  -    [x] b\n      # c\n", "0.   [x] a\n    1. b\n",
    ]],
    ["indented code after blank lines after a list whose item's content column is past it (micromark ends the code after its first line)", [
      "-    a\n\n    x\n    y\n", "-    a\n\n    x\n\n    y\n", "-    ```\n     ```\n\n    x\n    y\n    z\n", " 10. [ ]\n      ```\n      ```\n    *\n    [", "1.   [x] a\n\n\n    x\n    y\n\n- b\n",
    ]],
    ["footnote labels are definitions only where a definition may start", ["[ref]: http://x\r\n    - [^h]: in list\r\n-\r\n"]],
  ];
  for (const [name, docs] of MINIMIZED) {
    it(name, () => {
      for (const [i, text] of docs.entries()) expectSameAddresses(`${name} ${i}`, text);
    });
  }

  describe("deliberate divergences: micromark bugs, where fragmentMarkdown reads as CommonMark does (commonmark.js 0.31.2)", () => {
    const shape = (fragments: readonly Fragment[]) => fragments.map((f) => `${f.path} ${f.start}-${f.end}`);
    it("an unclosed `---` first line: micromark-extension-frontmatter's failed attempt leaves no list, quote or footnote in the document", () => {
      // Without the front matter extension micromark reads these as CommonMark does: a `***` in its place shows it.
      for (const text of ["---\n- item\n", "---\n  - nested\n", "---\n> quote\n", "---\n1. one\n", "---\n\npara\n\n- item\n\n> q\n", "---  \n- a\n", "+++\n- item\n", "---\n[^n]: foot\n"]) {
        const commonmark = (text.startsWith("-") ? "***" : "aaa") + text.slice(3);
        const ours = fragmentMarkdown("d", text);
        expect(shape(ours), text).toEqual(shape(referenceFragmentMarkdown("d", commonmark)));
        expect(shape(ours), text).not.toEqual(shape(referenceFragmentMarkdown("d", text)));
      }
      expect(fragmentMarkdown("d", "---\n- item\n").map((f) => f.path)).toEqual(["break:1", "list:1", "list:1/item:1", "list:1/item:1/paragraph:1"]);
    });

    it("a lazy line opening an HTML block of kind 7 after a paragraph in a quote or item is paragraph text", () => {
      expect(shape(referenceFragmentMarkdown("d", "> quote\n<custom-tag>\n"))).toEqual(["quote:1 0-20", "quote:1/paragraph:1 2-7", "quote:1/html:1 8-20"]);
      expect(shape(fragmentMarkdown("d", "> quote\n<custom-tag>\n"))).toEqual(["quote:1 0-20", "quote:1/paragraph:1 2-20"]);
      expect(shape(fragmentMarkdown("d", "2. two\n<custom-tag>\n"))).toEqual(["list:1 0-19", "list:1/item:1 0-19", "list:1/item:1/paragraph:1 3-19"]);
    });

    it("a list that may not interrupt a paragraph, after indented code or first in an item that interrupted one, is a list", () => {
      expect(shape(referenceFragmentMarkdown("d", "    code\n2. two\n"))).toEqual(["code:1 0-8", "paragraph:1 9-15"]);
      expect(shape(fragmentMarkdown("d", "    code\n2. two\n"))).toEqual(["code:1 0-8", "list:1 9-15", "list:1/item:1 9-15", "list:1/item:1/paragraph:1 12-15"]);
      expect(shape(fragmentMarkdown("d", "\tcode tab\n-\n"))).toEqual(["code:1 0-9", "list:1 10-11", "list:1/item:1 10-11"]);
      expect(shape(fragmentMarkdown("d", "text\n- -\n"))).toEqual(["paragraph:1 0-4", "list:1 5-8", "list:1/item:1 5-8", "list:1/item:1/list:1 7-8", "list:1/item:1/list:1/item:1 7-8"]);
      // An ordered list starting at 0 after indented code, and empty items first in an item or quote that interrupted a paragraph.
      expect(shape(referenceFragmentMarkdown("d", "    >\n0. [X] task\n"))).toEqual(["code:1 0-5", "paragraph:1 6-17"]);
      expect(shape(fragmentMarkdown("d", "    >\n0. [X] task\n"))).toEqual(["code:1 0-5", "list:1 6-17", "list:1/item:1 6-17", "list:1/item:1/paragraph:1 13-17"]);
      expect(shape(fragmentMarkdown("d", "    -\n0. [x]"))).toEqual(["code:1 0-5", "list:1 6-12", "list:1/item:1 6-12", "list:1/item:1/paragraph:1 9-12"]);
      expect(shape(fragmentMarkdown("d", "    >\n0. a"))).toEqual(["code:1 0-5", "list:1 6-10", "list:1/item:1 6-10", "list:1/item:1/paragraph:1 9-10"]);
      for (const [text, empty] of [["- [x] a\n  1. *\n", "13-14"], ["- a\n  1. *", "9-10"]]) {
        expect(shape(referenceFragmentMarkdown("d", text)).at(-1), text).toBe(`list:1/item:1/list:1/item:1/paragraph:1 ${empty}`);
        expect(shape(fragmentMarkdown("d", text)).slice(-2), text).toEqual([`list:1/item:1/list:1/item:1/list:1 ${empty}`, `list:1/item:1/list:1/item:1/list:1/item:1 ${empty}`]);
      }
      expect(shape(referenceFragmentMarkdown("d", "0. [x]\n   >1.")).at(-1)).toBe("list:1/item:1/quote:1/paragraph:1 11-13");
      expect(shape(fragmentMarkdown("d", "0. [x]\n   >1.")).slice(-2)).toEqual(["list:1/item:1/quote:1/list:1 11-13", "list:1/item:1/quote:1/list:1/item:1 11-13"]);
    });
  });

  describe.skipIf(!existsSync(MARKDOWN))("real files in ../shared/data/markdown (skipped: ../shared/data is absent)", () => {
    it(`every CommonMark 0.31.2 example (spec.json)${DEEP ? "" : ": a fixed sample of each section in npm test"}`, () => {
      const examples = JSON.parse(readFileSync(new URL("commonmark/spec.json", MARKDOWN), "utf8")) as { markdown: string; example: number; section: string }[];
      expect(examples.length).toBe(652);
      for (const e of spreadEach(examples, (x) => x.section, EXAMPLES_PER_SECTION)) expectSameAddresses(`spec-example-${e.example}`, e.markdown);
    });

    it("the CommonMark spec source (spec.txt)", () => {
      expectSameAddresses("spec.txt", readFileSync(new URL("commonmark/spec.txt", MARKDOWN), "utf8"));
    });

    // One test per file: the reference fragmenter takes seconds per version on a loaded machine.
    for (const history of ["awesome", "system-design-primer"]) {
      const dir = new URL(`${history}/`, MARKDOWN);
      const names = existsSync(dir) ? readdirSync(dir).filter((n) => n.endsWith(".md")).sort() : [];
      it(`${history}: every version is there`, () => expect(names.length).toBe(40));
      for (const n of spread(names, VERSIONS)) {
        it(`${history}/${n}`, () => expectSameAddresses(`${history}/${n}`, readFileSync(new URL(n, dir), "utf8")));
      }
    }
  });
});
