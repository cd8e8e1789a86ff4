// GFM 0.29 "Tables (extension)": a `\|` in a cell is a `|` before the inline constructs are read,
// so inside a code span or emphasis too (spec example 200: `` | b `\|` az | `` is the code `|`).
// A cell's text is the one micromark + mdast-util-gfm give (the oracle: mdast-util-gfm-table
// unescapes the pipe in code text); the row's span, anchor and version id are the source's and
// do not change with the reading.
import { describe, expect, it } from "vitest";
import { fromMarkdown } from "mdast-util-from-markdown";
import { gfmFromMarkdown } from "mdast-util-gfm";
import { gfm } from "micromark-extension-gfm";
import { toString } from "mdast-util-to-string";
import type { Table } from "mdast";
import { fragmentMarkdown } from "../../ts/evidence/index.js";

/** Each body row's cell texts by micromark + mdast-util-gfm, the first table of `markdown`. */
function oracleCells(markdown: string): string[][] {
  const tree = fromMarkdown(markdown, { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] });
  const table = tree.children.find((n) => n.type === "table") as Table;
  return table.children.slice(1).map((row) => row.children.map((cell) => toString(cell)));
}

function rows(markdown: string) {
  return fragmentMarkdown("t.md", markdown)
    .filter((f) => f.kind === "row")
    .slice(1)
    .map((f) => ({ anchor: f.anchor, versionId: f.versionId, start: f.start, end: f.end, cells: f.cells!.map((c) => c.text), spans: f.cells!.map((c) => [c.start, c.end]) }));
}

const CASES: Array<[string, string, string[][]]> = [
  ["spec example 200 (code span, strong)", "| f\\|oo  |\n| ------ |\n| b `\\|` az |\n| b **\\|** im |\n", [["b | az"], ["b | im"]]],
  ["a code span alone, first and second cell", "| a | b |\n| - | - |\n| `x\\|y` | `p\\|q` |\n", [["x|y", "p|q"]]],
  ["an escaped backslash then an escaped pipe in code: `\\\\\\|` is `\\\\|`", "| a |\n| - |\n| `\\\\\\|` |\n", [["\\\\|"]]],
  ["a code span with two pipes and emphasis", "| a |\n| - |\n| `a\\|b\\|c` *e\\|f* |\n", [["a|b|c e|f"]]],
  ["a link text and a code span in one cell", "| a |\n| - |\n| [x\\|y](http://e/) `\\|` |\n", [["x|y |"]]],
  ["micromark's own reading (a footnote call in the cell)", "| a | b |\n| - | - |\n| `x\\|y` ~q~ | c[^1] `p\\|q` |\n\n[^1]: note\n", [["x|y q", "c p|q"]]],
  ["no code span: an escaped pipe is text (unchanged)", "| a |\n| - |\n| x\\|y |\n", [["x|y"]]],
];

describe("table cells: `\\|` inside code spans and other inline spans", () => {
  it.each(CASES)("%s", (_name, markdown, expected) => {
    expect(oracleCells(markdown)).toEqual(expected);
    expect(rows(markdown).map((r) => r.cells)).toEqual(expected);
  });

  it("the row's span, cell spans, anchor and version id are the source's (pinned)", () => {
    expect(rows("| `x\\|y` | z |\n| - | - |\n| `a\\|b` | `\\\\\\|` |\n")).toEqual([
      {
        anchor: "ab",
        versionId: "0bb50e0d0d2db860d33c36506823e8181cdbf53c2a105a77503cbf9549870a50#sha256:912544a4cf2bcf5a94cad3a951680ae31a08e0c48ce4379379c5fa0537d34683",
        start: 25,
        end: 44,
        cells: ["a|b", "\\\\|"],
        spans: [[27, 33], [36, 42]],
      },
    ]);
    const ex200 = rows("| f\\|oo  |\n| ------ |\n| b `\\|` az |\n| b **\\|** im |\n");
    expect(ex200.map((r) => [r.anchor, r.start, r.end, r.spans])).toEqual([["b-az", 22, 35, [[24, 33]]], ["b-im", 36, 51, [[38, 49]]]]);
    expect(ex200[0].versionId).toBe("df1b795a567640b59ec6497d1388e47f8a0279bbd1dd77d73f737352d7107840#sha256:de6ac0d0996f00b8f76b96e9c3f858a72d4a036fc2fead8aee60c154f72495fe");
  });
});

describe("a header's `\\\\|` is an escaped backslash and a cell delimiter (GFM), not an escaped pipe (markdown-it)", () => {
  it.each([
    ["| a\\\\|b |\n| - |\n| z |\n", null],
    ["| `a\\\\|b` |\n| - |\n| z |\n", null],
    ["| a\\\\|b |\n| - | - |\n| z | y |\n", [["z", "y"]]],
    ["a\\\\\\\\|b\n-|-\nz | y\n", [["z", "y"]]],
  ] as const)("%j", (markdown, expected) => {
    const tree = fromMarkdown(markdown, { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] });
    expect(tree.children.some((n) => n.type === "table")).toBe(expected !== null);
    const fragments = fragmentMarkdown("t.md", markdown);
    expect(fragments.some((f) => f.kind === "table")).toBe(expected !== null);
    if (expected) {
      expect(oracleCells(markdown)).toEqual(expected);
      expect(rows(markdown).map((r) => r.cells)).toEqual(expected);
    } else expect(fragments.map((f) => f.kind)).toEqual(["paragraph"]);
  });
});
