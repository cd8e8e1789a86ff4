// Where a quote or list inside a block quote ends when lines holding only the enclosing quotes'
// markers follow it. micromark ends such a container before or after those lines
// depending on what it held and what comes next; markdown-it's map follows neither rule, so those
// groups go to micromark (`outerMarkersAfter`, ts/evidence/fragment/fallback-rules.ts). The oracle is the
// micromark → mdast fragmenter (test/evidence/reference-fragmenter.ts); the seeded sweep below is
// the one that found these cases. docs/evidence.md, "The addresses are the reference fragmenter's".
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fragmentMarkdown, type Fragment } from "../../ts/evidence/index.js";
import { fragmentMarkdown as referenceFragmentMarkdown } from "./reference-fragmenter.js";
import { fcRuns } from "../depth.js";

// npm test: the first 200 of the seeded documents; npm run test:deep (test/depth.ts): all 2,000.
const RUNS = fcRuns(200, 2000);

const address = (f: Fragment) => [f.fragmentId, f.contentHash, f.path, f.kind, f.start, f.end, f.line].join(" ");
const addresses = (text: string) => fragmentMarkdown("d", text).map(address);
const reference = (text: string) => referenceFragmentMarkdown("d", text).map(address);

describe("quotes and lists in a block quote, closed by marker-only lines", () => {
  it("end where micromark ends them (cases the sweep found)", () => {
    const cases = [
      "> >\n>\n", // the empty inner quote ends on its first line: [2, 3)
      "> > >\n>\n",
      ">> \n>\n",
      "> >\n>\n> b\n",
      "> >\n> \nx",
      "> > >\n> >\n>",
      "> > > - x\n>", // every inner container runs over the `>` line: [2, 11)
      "> > # h\n  >",
      ">> ***\n> >\n  >",
      ">> | a |\n> ",
      "   > >\n>",
      "> > > # h\n> > ",
      "> > > > \n>  \n>***\n",
      ">   lazy\n  ***\n>>\n   >  \n",
      ">   \n> > > >\n> \n",
      "| a |\n> > b c\n- > > \n   >  \n># h\n> > >  \n",
      "> > b c\n> > b c\n[x]: /u\n   > ",
    ];
    for (const text of cases) expect(addresses(text), JSON.stringify(text)).toEqual(reference(text));
    const inner = fragmentMarkdown("d", "> >\n>\n")[1];
    expect(inner).toMatchObject({ path: "quote:1/quote:1", start: 2, end: 3, text: ">" });
    const deep = fragmentMarkdown("d", "> > > - x\n>");
    expect(deep.map((f) => [f.path, f.end])).toEqual([
      ["quote:1", 11],
      ["quote:1/quote:1", 11],
      ["quote:1/quote:1/quote:1", 11],
      ["quote:1/quote:1/quote:1/list:1", 11],
      ["quote:1/quote:1/quote:1/list:1/item:1", 9],
      ["quote:1/quote:1/quote:1/list:1/item:1/paragraph:1", 9],
    ]);
  });

  // Lines of nested quotes and lists: marker-only, blank, lazy and content lines. No empty list item
  // (a bare marker): after a paragraph or code, micromark reads one in a new container as paragraph
  // text, against CommonMark (commonmark.js 0.31.2 and markdown-it read an empty item, as the
  // fragmenter does: the second test below).
  const PREFIXES = ["", "> ", ">", "> > ", ">> ", "> > > ", "- ", "  ", "- > ", "> - ", ">   ", "1. ", "   > "];
  const BODIES = ["", "a", "b c", "> ", ">", "- x", "# h", "***", "    code", "lazy", " ", "[x]: /u", "| a |"];
  const lines = fc
    .tuple(fc.constantFrom(...PREFIXES), fc.constantFrom(...BODIES))
    .filter(([p, b]) => !(/(?:^|[ >])(?:-|1\.) $/.test(p) && b.trim() === ""))
    .map(([p, b]) => p + b);
  const documents = fc.tuple(fc.array(lines, { minLength: 1, maxLength: 6 }), fc.boolean()).map(([ls, ending]) => ls.join("\n") + (ending ? "\n" : ""));

  it(`${RUNS.toLocaleString("en")} seeded documents of nested quotes and lists keep the reference's addresses`, () => {
    fc.assert(
      fc.property(documents, (text) => {
        expect(addresses(text), JSON.stringify(text)).toEqual(reference(text));
      }),
      { seed: Number(process.env.GROUNDWIRE_DIFF_SEED ?? 112026), numRuns: RUNS },
    );
  }, 60_000);

  it("a `>` four columns past an item's content after the quote's first line is indented code, not more of the quote (listQuoteIndents)", () => {
    // markdown-it continues the quote there; CommonMark and micromark read indented code in the item.
    for (const text of ["- > # h\n      > x\n", "- >   ## indented heading\r\n      > indented marker\r\n> Foo *bar\r\n> baz*\r\n> ====\r\n", "- > ***\n      > x\n", "  - > # h\n        > x\n", "1. > # h\n\t> x\n"]) {
      expect(addresses(text), JSON.stringify(text)).toEqual(reference(text));
    }
    expect(fragmentMarkdown("d", "- > # h\n      > x\n").map((f) => [f.path, f.start, f.end])).toEqual([
      ["list:1", 0, 17],
      ["list:1/item:1", 0, 17],
      ["list:1/item:1/quote:1", 2, 7],
      ["list:1/item:1/quote:1/section:h", 4, 7],
      ["list:1/item:1/code:1", 10, 17], // "    > x": the item's two columns are not the code's
    ]);
    // A quote whose later lines stand at its own marker's column stays markdown-it's (and is right).
    expect(addresses("- a\n  - > # h\n    > more\n")).toEqual(reference("- a\n  - > # h\n    > more\n"));
  });

  it("an empty list item in a new container after a paragraph or code is a list item, as CommonMark reads it (micromark reads text)", () => {
    // commonmark.js 0.31.2: <p>b c</p><blockquote><ul><li></li></ul></blockquote>, and a list
    // holding `lazy` after the code; micromark reads "- " and "-\n  lazy" as paragraphs.
    expect(fragmentMarkdown("d", "b c\n> - \n").map((f) => f.path)).toEqual(["paragraph:1", "quote:1", "quote:1/list:1", "quote:1/list:1/item:1"]);
    expect(fragmentMarkdown("d", "    code\n\n-\n  lazy\n").map((f) => f.path)).toEqual(["code:1", "list:1", "list:1/item:1", "list:1/item:1/paragraph:1"]);
    expect(referenceFragmentMarkdown("d", "b c\n> - \n").map((f) => f.path)).toEqual(["paragraph:1", "quote:1", "quote:1/paragraph:1"]);
  });
});

// A breaker's cases (session 11), each a golden divergence from the reference before: tables
// markdown-it reads or misses unlike GFM, and a paragraph markdown-it ended at a block it then did
// not read. Each now goes to micromark and keeps the reference's addresses.
describe("tables and lazy lines markdown-it reads unlike GFM", () => {
  it.each([
    ["a table head without a pipe (a table of one column to GFM)", "a\n|-\nb\n", ["table:a", "table:a/row:a", "table:a/row:b"]],
    ["the same after a paragraph line", "para\nb c\n:-\na\n", null],
    ["a delimiter row without a pipe is a setext underline", "| name |\n------\n| apples |\n", ["section:name", "section:name/paragraph:1"]],
    ["the same with one pipe in the head", "x|\n---\n", null],
    ["a no-break space before the head's first pipe: no table (two cells against one)", "\u00A0| a |\n|-|\n", ["paragraph:1"]],
    ["a no-break space after the head's last pipe", "| a |\u00A0\n|-|\n", ["paragraph:1"]],
    ["an ideographic space in the delimiter row", "| a |\n|-|\u3000\n", null],
    ["a lazy line with pipes, then an underline indented four columns, in an item", "- a\n | z |\n    ---\n", ["list:1", "list:1/item:1", "list:1/item:1/section:a-z"]],
    ["the same with tabs", "1.\ta\n | z |\n \t---\n", null],
  ])("%s", (_, text, paths) => {
    expect(addresses(text), JSON.stringify(text)).toEqual(reference(text));
    if (paths) expect(fragmentMarkdown("d", text).map((f) => f.path)).toEqual(paths);
  });
});
