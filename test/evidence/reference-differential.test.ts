// A seeded random differential: small documents made of block atoms (tables, task items, definitions,
// footnotes, HTML blocks, nested quotes and lists, tabs, CR LF, lone CR, setext headings, indented code),
// some wrapped in a quote, a list item or indentation, must get the same addresses from fragmentMarkdown
// as from the micromark → mdast fragmenter (test/evidence/reference-fragmenter.ts): fragmentId,
// contentHash, path, kind, start, end, line. Deliberate divergences are handled explicitly:
//   - an unclosed `---` / `+++` first line (micromark-extension-frontmatter then reads no list, block
//     quote or footnote anywhere): compared with the reference on `***` / `aaa` in its place, which is the
//     CommonMark reading (the first block's hash aside);
//   - a lone CR (an intended difference, source-offsets.test.ts): compared with the reference on LF;
//   - two micromark bugs where fragmentMarkdown reads as CommonMark (commonmark.js 0.31.2) does, listed in
//     `MICROMARK_BUGS` (skipped, counted, and the count bounded so a broken predicate cannot hide all).
// Failures shrink (fast-check) to the atoms that cause them. docs/evidence.md, "The addresses are the
// reference fragmenter's".
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fragmentMarkdown, type Fragment } from "../../ts/evidence/index.js";
import { fragmentMarkdown as referenceFragmentMarkdown } from "./reference-fragmenter.js";
import { fcRuns } from "../depth.js";

// npm test: the first 300 of the seeded documents; npm run test:deep (test/depth.ts): all 3,000.
const RUNS = Number(process.env.GROUNDWIRE_DIFF_RUNS ?? fcRuns(300, 3000));

const ATOMS = [
  // tables, top level and nested, header-only, ragged, with tabs, next to other blocks
  "| a | b |\n|---|---|\n| 1 | 2 |\n", "| a | b |\n| - | :-: |\n| x |\n| y | z | w |\n", "a | b\n--|--\nc | d\n", "|x|\n|-|\n", "| a |\n|---|\n| `|` \\| b |\n",
  "| a | b |\n|---|---|\n\n", "|a|b|\n|--|--|\n|c|d|\nnext line\n", "> | q | r |\n> |---|---|\n> | 1 | 2 |\n", "- | t | u |\n  |---|---|\n  | 5 | 6 |\n", "\t| tab | t |\n",
  "- a | b\n  --|--\n", "> a | b\n--|--\n", "# a | b\n--|--\n", "1. a | b\n---|---\n", "a | b\n- | -\n", "| c | r |\r\n|---|---|\r\n| 1 | 2 |\r\n", "> > | n | m |\n> > |---|---|\n",
  // headings, paragraphs, setext
  "# H\n", "## Sub *em*\n", "para text\n", "lazy\ncontinuation\n", "Setext\n===\n", "x\r\n===\r\n", "Foo *bar\nbaz*\n====\n", "  ## indented heading\n", "# h #\n", "#\n", "text  \nhard break\n", "~~del~~ and ~one~\n",
  // lists, quotes, breaks, code
  "- item\n", "  - nested\n", "1. one\n", "2. two\n", "-\n", "> quote\n", "> > nested quote\n", "> - quoted item\n>   more\n", "- > item quote\n", "> lazy\nline\n", "- a\n- b\n\n  para in b\n",
  // lines holding only quote markers, which close nested quotes and lists (session 11: nested-quote-ends.test.ts)
  ">\n", "> >\n", ">>\n", "> > >\n", "> \n", "> > - x\n",
  "- after list\nSetext after\n---\n", "- l\n\nSetext two\n===\n", "- a\n===\n", "1. a\n---\n", "- a\n\n---\n", "***\n---\n", "---\n", "***\n", "> - a\n\n  b\n", "  - deep\n\n    cont\n",
  "```\ncode | x\n```\n", "    indented\n", "    more indented\n", "\tcode tab\n", "-\ttab item\n", ">\ttab quote\n", "> \t\tq\n", "  \t- tab mix\n", " \tx\n", "- \tcode in item\n", "    > indented marker\n",
  "para\r\nwith crlf\r\n", "- crlf item\r\n", "> a\r\n> b\r\n", "a\rb\r", "\n", "\n\n",
  // task list items
  "- [ ] task\n", "- [x] done\n", "- [X] Done *em*\n", "  - [ ] sub task\n", "1. [ ] ordered task\n", "> - [x] quoted task\n", "- [ ]\n", "- [ ]x\n", "- a [ ] b\n", "* [ ]  two spaces\n", "- [ ] `code`\n",
  "- [ ] www.x.com\n", "- [ ] a@b.co\n", "- [ ] a\n  - [x] b\n", "- [ ]\n  next line\n", "- [\tx] odd\n", "- [ ]\ttab after\n", "- [x]  *em*\n", "+ [ ] plus\n", "1) [X] paren\n", "> - [ ] q task\n>   more\n", "- [x] crlf task\r\n",
  // items whose content column is 5 or more, then a line indented 4 to content-1 columns opening a block
  // (a lazy line of the item's paragraph: indented code may not interrupt one); lists starting at 0; empty items `*`
  " -   [ ] a\n    > b\n", "-    [x]\n    ```\n", "  1. [X]\n    ---\n", "  2) [X]\n    >\n", " -   a\n    # b\n", "  1.  [ ] a\n     > b\n", " -   [ ] a\n    <div>\n", " 10. a\n     ***\n",
  "-     five\n    - six\n", "0. [x] zero\n", "0. a\n", "- [x] a\n  1. *\n", "*\n", "  1. *\n", "0. [x]\n   >1.\n", "    -\n0. [x]\n",
  "-    a\n\n    x\n    y\n", " 10. [ ]\n      ```\n      ```\n    *\n    [\n",
  // definitions
  "[ref]: http://x\n", "[t]: /url \"title\"\n", "[t2]: /url\n  'title on next'\n", "[t3]:\n/url\n", "[a]: /a\n[b]: /b\n", "> [q]: /q\n", "- [li]: /li\n", "[x]: javascript:y\n", "[r]: /u\r\n",
  "[d]: /u 'title'\nnext\n", "[e]:\n  /u\n  \"t\"\n", "[f]: /u\n\"t\" tail\n", "[ a\nb ]: /u\n", "  [g]: /g\n", "- [h]: /h\n  more\n", "> [i]: /i\n> > deeper\n",
  // footnotes
  "[^n]: foot\n", "text[^n]\n", "[^f]: foot def\n    continued\n", "[^g]:\n    indented foot\n", "- [^h]: in list\n", "[^a]: one\n\n    two paragraphs\n", "[^b]: x\n> q\n", "> [^c]: in quote\n", "[^z]: z\n\n  lazy z\n",
  // footnote calls in headings and cells, and `[^n]: x` lines that are (nested) or are not (`***`, code, HTML) definitions
  "# [^n] *h*\n", "| [^n] |\n|---|\n", "***[^n]: not one\n", "```\n[^n]: in fence\n```\n", "<div>\n[^n]: in html\n", "[^a]: [^n]: nested\n",
  // HTML blocks
  "<div>\n| h |\n</div>\n", "<!-- comment -->\n", "<div>\n\ntext\n", "<custom-tag>\n", "<?php x ?>\n", "<script>\nx\n</script>\n", "<pre>\n\n</pre>\n", "<div>\n", "</div>\n", "<!-- open\n", "-->\n", "<pre>\n", "</pre>\n",
  "```\n", "~~~ x\n", "www.example.com\n",
];

/** How an atom is placed: as is, or each line quoted, indented by 2 (an item's content) or 4, or as a list item. */
const WRAPS: ((atom: string) => string)[] = [
  (a) => a,
  (a) => a.replace(/^(?=.)/gm, "> "),
  (a) => a.replace(/^(?=.)/gm, "  "),
  (a) => `- ${a.replace(/\n(?=.)/g, "\n  ")}`,
  (a) => a.replace(/^(?=.)/gm, "    "),
  (a) => a.replace(/^(?=.)/gm, "> > "),
  (a) => `> - ${a.replace(/\n(?=.)/g, "\n>   ")}`,
  (a) => `- > ${a.replace(/\n(?=.)/g, "\n  > ")}`,
  (a) => a.replace(/^(?=.)/gm, ">\t"),
];

const piece = fc.record({ atom: fc.constantFrom(...ATOMS), wrap: fc.oneof({ weight: 16, arbitrary: fc.constant(0) }, { weight: 5, arbitrary: fc.integer({ min: 1, max: WRAPS.length - 1 }) }) });
const documents = fc.record({ pieces: fc.array(piece, { minLength: 1, maxLength: 10 }), crlf: fc.integer({ min: 0, max: 19 }) }).map(({ pieces, crlf }) => {
  const text = pieces.map((p) => WRAPS[p.wrap](p.atom)).join("");
  return crlf === 0 ? text.replace(/\r?\n/g, "\r\n") : text;
});

const address = (f: Fragment, hashFrom = 0) => [f.fragmentId, f.start < hashFrom ? "(first block)" : f.contentHash, f.path, f.kind, f.start, f.end, f.line].join(" ");

const UNCLOSED_FENCE = /^(---|\+\+\+)[ \t]*(?:\r?\n|$)/;

/**
 * The addresses fragmentMarkdown must give: the reference's, with the deliberate divergences of
 * docs/evidence.md applied (an unclosed `---`/`+++` first line, a lone CR).
 */
function expectedAddresses(text: string): { lines: string[]; hashFrom: number } {
  const reading = text.replace(/\r(?!\n)/g, "\n"); // same length: offsets carry over
  const reference = referenceFragmenterOf(reading);
  const fence = UNCLOSED_FENCE.exec(reading);
  if (fence && reference[0]?.kind !== "frontmatter") {
    // micromark-extension-frontmatter's failed attempt: read the same text without it (a thematic
    // break or a paragraph line of the same length in its place; the first block's hash aside).
    const commonmark = (fence[1] === "---" ? "***" : "aaa") + reading.slice(3);
    return { lines: referenceFragmenterOf(commonmark).map((f) => address(f, 3)), hashFrom: 3 };
  }
  return { lines: reference.map((f) => address(f)), hashFrom: 0 };
}

const referenceFragmenterOf = (text: string) => referenceFragmentMarkdown("d", text);

const LIST_MARKER_LINE = /^(?:[-+*]|\d{1,9}[.)])(?:[ \t\r\n]|$)/;
const HTML_KIND_1_TO_6 = /^[ \t>]*<(?:(?:script|pre|style|textarea)(?:[\s>]|$)|!--|\?|![A-Za-z]|!\[CDATA\[|\/?(?:address|article|aside|base|basefont|blockquote|body|caption|center|col|colgroup|dd|details|dialog|dir|div|dl|dt|fieldset|figcaption|figure|footer|form|frame|frameset|h[1-6]|head|header|hr|html|iframe|legend|li|link|main|menu|menuitem|nav|noframes|ol|optgroup|option|p|param|search|section|summary|table|tbody|td|tfoot|th|thead|title|tr|track|ul)(?:[\s>]|\/>|$))/i;

/**
 * micromark (with or without its front matter extension) reads these unlike CommonMark, and
 * fragmentMarkdown reads them as CommonMark (commonmark.js 0.31.2) does where markdown-it reads the
 * group (docs/evidence.md). Each is recognized in the reference's reading.
 */
const MICROMARK_BUGS: Record<string, (reference: readonly Fragment[], i: number, previous: Fragment | undefined, up: Fragment | undefined) => boolean> = {
  // `> quote\n<custom-tag>`: a lazy line opening an HTML block of kind 7 (which may not interrupt a
  // paragraph) after a paragraph in a quote or item: micromark starts an HTML block in the container.
  "lazy HTML of kind 7": (r, i, previous, up) =>
    r[i].kind === "html" && (up?.kind === "quote" || up?.kind === "item") && previous?.kind === "paragraph" && !HTML_KIND_1_TO_6.test(r[i].text),
  // `    code\n2. two`, `para\n- 2. two`, `text\n- -`, `0. [x]\n   >1.`: a list that may not interrupt a paragraph (an empty item, an
  // ordered list not starting at 1) after indented code or on the first line of an item or quote that interrupted a
  // paragraph: micromark's "interrupt" flag stays set and it reads a paragraph (a setext heading when a
  // `-` line follows: `    code\n-\n-` is a section `-` to micromark, two empty items to CommonMark).
  "list after interrupt": (r, i, previous) =>
    (r[i].kind === "paragraph" || r[i].kind === "section") && LIST_MARKER_LINE.test(r[i].text) && previous?.kind !== "definition" && previous?.kind !== "paragraph",
};

function micromarkBug(reference: readonly Fragment[]): string | null {
  const byId = new Map(reference.map((f) => [f.fragmentId, f]));
  const previousSibling = new Map<string | null, Fragment>();
  for (let i = 0; i < reference.length; i++) {
    const f = reference[i];
    let up = f.parentId ? byId.get(f.parentId) : undefined;
    while (up?.kind === "section") up = up.parentId ? byId.get(up.parentId) : undefined;
    const previous = previousSibling.get(f.parentId);
    for (const [name, test] of Object.entries(MICROMARK_BUGS)) if (test(reference, i, previous, up)) return name;
    previousSibling.set(f.parentId, f);
  }
  return null;
}

describe("random documents: fragmentMarkdown keeps the reference fragmenter's addresses", () => {
  it(`${RUNS.toLocaleString("en")} seeded documents of block atoms, deliberate divergences excluded explicitly`, () => {
    const skipped = new Map<string, number>();
    let runs = 0;
    fc.assert(
      fc.property(documents, (text) => {
        runs++;
        const expected = expectedAddresses(text);
        const actual = fragmentMarkdown("d", text).map((f) => address(f, expected.hashFrom));
        if (actual.join("\n") === expected.lines.join("\n")) return;
        const bug = micromarkBug(referenceFragmenterOf(text.replace(/\r(?!\n)/g, "\n")));
        if (bug !== null) {
          skipped.set(bug, (skipped.get(bug) ?? 0) + 1);
          return;
        }
        expect(actual, JSON.stringify(text)).toEqual(expected.lines);
      }),
      // GROUNDWIRE_DIFF_SEED / GROUNDWIRE_DIFF_RUNS explore further (the suite keeps its seed).
      { seed: Number(process.env.GROUNDWIRE_DIFF_SEED ?? 152026), numRuns: RUNS, endOnFailure: false },
    );
    // Found this way: about 3 % of the documents (seeded, so the same each run; the atoms for lists starting
    // at 0 and empty items `*` meet "list after interrupt" on purpose); a predicate that matched everything
    // would show here.
    const total = [...skipped.values()].reduce((a, b) => a + b, 0);
    if (process.env.GROUNDWIRE_DIFF_SEED) console.log("skipped", runs, JSON.stringify(Object.fromEntries(skipped)));
    expect(total, JSON.stringify(Object.fromEntries(skipped))).toBeLessThan(runs * 0.05);
  }, 60_000);
});
