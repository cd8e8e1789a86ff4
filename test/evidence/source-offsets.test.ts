// Inputs the parser rewrites before it reads (BOM, NUL, CR / CR LF, tabs), GFM's cells for rows with
// the wrong number of cells, and nesting depth: offsets index the string as given, hashes cover what a
// reader sees, and a deep document is refused with a typed error instead of a stack overflow.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fragmentMarkdown, MarkdownNestingError, MAX_MARKDOWN_NESTING, MAX_MICROMARK_NESTING, type Fragment } from "../../ts/evidence/index.js";
import { fcRuns } from "../depth.js";

const shape = (fs: readonly Fragment[]) => fs.map((f) => `${f.path} ${f.kind} ${f.contentHash}`);

function expectSound(source: string, fragments: readonly Fragment[]): void {
  for (const f of fragments) {
    expect(f.start).toBeGreaterThanOrEqual(0);
    expect(f.end).toBeGreaterThanOrEqual(f.start);
    expect(f.end).toBeLessThanOrEqual(source.length);
    expect(source.slice(f.start, f.end)).toBe(f.text);
  }
}

describe("offsets index the string as given", () => {
  it("a leading byte-order mark is not content: spans start after it, and the last character is covered", () => {
    const source = "\uFEFF# Pricing\n\nThe fee is 10\n";
    const fragments = fragmentMarkdown("doc", source);
    const paragraph = fragments.find((f) => f.kind === "paragraph")!;
    expect(paragraph.text).toBe("The fee is 10");
    expect(paragraph.start).toBe(12);
    expect(fragments[0]).toMatchObject({ kind: "section", text: "# Pricing\n\nThe fee is 10", start: 1, end: 25, path: "section:pricing" });
    // A change of the last character changes the content hash (it kept a citation current before).
    const edited = fragmentMarkdown("doc", source.replace("10", "11")).find((f) => f.kind === "paragraph")!;
    expect(edited.contentHash).not.toBe(paragraph.contentHash);
  });

  it("CR LF and lone CR end lines as LF does; the CR is never inside a block's end", () => {
    const lf = "# A\n\n> quote\n> more\n\n- one\n- two\n\n```\ncode\n```\n\n| a | b |\n|---|---|\n| 1 | 2 |\n";
    const crlf = lf.replace(/\n/g, "\r\n");
    const fragments = fragmentMarkdown("doc", crlf);
    expectSound(crlf, fragments);
    expect(shape(fragments)).toEqual(shape(fragmentMarkdown("doc", lf)));
    for (const f of fragments) expect(f.text.endsWith("\r")).toBe(false);
    expect(shape(fragmentMarkdown("doc", lf.replace(/\n/g, "\r")))).toEqual(shape(fragmentMarkdown("doc", lf)));
  });

  it("NUL is read as U+FFFD: same fragments and hashes as the replacement character", () => {
    const withNul = "# Title\0\n\npara\0graph\n";
    const fragments = fragmentMarkdown("doc", withNul);
    expectSound(withNul, fragments);
    expect(shape(fragments)).toEqual(shape(fragmentMarkdown("doc", withNul.replace(/\0/g, "\uFFFD"))));
  });

  it("tabs in containers: the code block after a quote marker and a tab starts where micromark says", () => {
    const source = ">\t\tfoo\n";
    const code = fragmentMarkdown("doc", source).find((f) => f.kind === "code")!;
    expect(code).toMatchObject({ start: 2, end: 6, text: "\tfoo" });
  });

  it("property: BOM, NUL, CR, CR LF and tabs in every position keep slice(start, end) === text and the same tree as the LF / U+FFFD reading", () => {
    const piece = fc.constantFrom(
      "# Head", "## Sub", "text", "more words", "> ", ">", "- ", "1. ", "    ", "\t", "  ", "```", "~~~", "| a | b |", "|---|---|",
      "***", "<div>", "[x]: /u", "[^n]: note", "\n", "\n", "\n", "\r\n", "\r\n", "\r", "\0", "\uFEFF", "é", "`c`", "*e*",
      // a U+FEFF opening a line of a block micromark reads (a table with a tab, a footnote)
      "\n\n\uFEFF", "\n\uFEFFw | b\n-|-\n\tc | d\n", "\uFEFF[^n]: fee 10\n",
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 40 }), fc.boolean(), (pieces, bom) => {
        const body = pieces.join("");
        const source = (bom ? "\uFEFF" : "") + body;
        const fragments = fragmentMarkdown("doc", source);
        expectSound(source, fragments);
        // One leading BOM shifts every offset by one and changes nothing else.
        if (bom && !body.startsWith("\uFEFF")) {
          const bare = fragmentMarkdown("doc", body);
          expect(shape(fragments)).toEqual(shape(bare));
          expect(fragments.map((f) => [f.start - 1, f.end - 1])).toEqual(bare.map((f) => [f.start, f.end]));
        }
        // A U+FEFF after the first code unit is an ordinary character wherever it stands, even first in
        // a piece micromark reads alone (session 11: `# T\n\n\uFEFFword | b\n-|-\n\tc | d` ended the
        // table a code unit early): the same blocks, at the same offsets, as with a letter in its place.
        const ordinary = source.slice(0, 1) + source.slice(1).replace(/\uFEFF/g, "x");
        expect(fragments.map((f) => [f.kind, f.start, f.end, f.line])).toEqual(fragmentMarkdown("doc", ordinary).map((f) => [f.kind, f.start, f.end, f.line]));
        // CR LF / CR → LF (offsets move, structure and hashes do not); NUL → U+FFFD (nothing moves).
        const lf = source.replace(/\r\n?/g, "\n");
        expect(shape(fragments)).toEqual(shape(fragmentMarkdown("doc", lf)));
        const replaced = source.replace(/\0/g, "\uFFFD");
        expect(shape(fragments)).toEqual(shape(fragmentMarkdown("doc", replaced)));
      }),
      // npm test: 300 runs; npm run test:deep (test/depth.ts): 1,500
      { numRuns: fcRuns(300, 1500) },
    );
  }, 60_000);
});

describe("a U+FEFF that is not the document's first code unit is text, wherever micromark reads it", () => {
  it("first in a table micromark reads: the table and its last cell keep their last character (session 11)", () => {
    const source = "# T\n\n\uFEFFword | b\n-|-\n\tc | d\n";
    const got = fragmentMarkdown("doc", source).map((f) => [f.path, f.start, f.end]);
    expect(got).toEqual([["section:t", 0, 25], ["section:t/table:word-b", 5, 18], ["section:t/table:word-b/row:word", 5, 14], ["section:t/code:1", 19, 25]]);
    const edited = fragmentMarkdown("doc", source.replace("c | d", "c | e"));
    expect(edited.find((f) => f.kind === "code")!.contentHash).not.toBe(fragmentMarkdown("doc", source).find((f) => f.kind === "code")!.contentHash);
  });

  it("a second BOM after the first is a paragraph of its own; the footnote after it keeps its offsets", () => {
    const source = "\uFEFF\uFEFF\n[^n]: fee 10\n";
    expect(fragmentMarkdown("doc", source).map((f) => [f.path, f.start, f.end, f.text])).toEqual([
      ["paragraph:1", 1, 2, "\uFEFF"],
      ["footnote:n", 3, 15, "[^n]: fee 10"],
      ["footnote:n/paragraph:1", 9, 15, "fee 10"],
    ]);
    const footnote = (text: string) => fragmentMarkdown("doc", text).find((f) => f.kind === "footnote")!.contentHash;
    expect(footnote(source.replace("10", "11"))).not.toBe(footnote(source));
  });
});

describe("table rows with the wrong number of cells get GFM's cells", () => {
  it("a short row is padded with empty cells, a long row cut to the header (the excess stays in the row's text)", () => {
    const source = "name | qty\n--- | ---\n| apples |\n| pears | 4 | spare |\n";
    const rows = fragmentMarkdown("doc", source).filter((f) => f.kind === "row");
    expect(rows.map((r) => r.cells!.map((c) => c.text))).toEqual([["name", "qty"], ["apples", ""], ["pears", "4"]]);
    expect(rows[2].text).toBe("| pears | 4 | spare |");
    for (const r of rows) for (const c of r.cells!) expect(source.slice(c.start, c.end)).toBe(c.text);
    // The missing cell is the empty spot at its row's end.
    expect(rows[1].cells![1]).toEqual({ text: "", start: rows[1].end, end: rows[1].end });
  });

  it("the same inside a block quote (parsed by micromark)", () => {
    const rows = fragmentMarkdown("doc", "> a | b\n> --|--\n> 1\n> 2 | 3 | 4\n").filter((f) => f.kind === "row");
    expect(rows.map((r) => r.cells!.map((c) => c.text))).toEqual([["a", "b"], ["1", ""], ["2", "3"]]);
  });
});

describe("nesting depth is bounded, with a typed error", () => {
  it.each([
    ["'> ' × 2000", `${"> ".repeat(2000)}x\n`, 1],
    ["'- ' × 2000", `${"- ".repeat(2000)}x\n`, 1],
    ["quotes deepening from line 3", `title\n\n${"> ".repeat(1500)}deep\n`, 3],
  ])("%s → MarkdownNestingError naming the line", (_, source, line) => {
    let error: unknown;
    try {
      fragmentMarkdown("doc", source);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(MarkdownNestingError);
    expect((error as Error).message).toBe(`nesting deeper than 1,000 at line ${line}`);
    expect((error as MarkdownNestingError).line).toBe(line);
  });

  it(`${MAX_MARKDOWN_NESTING} nested quotes are fragmented (iteratively), one level per quote`, () => {
    const fragments = fragmentMarkdown("doc", `${"> ".repeat(MAX_MARKDOWN_NESTING)}deep\n`);
    expect(fragments).toHaveLength(MAX_MARKDOWN_NESTING + 1);
    expect(fragments[fragments.length - 1]).toMatchObject({ kind: "paragraph", text: "deep", depth: MAX_MARKDOWN_NESTING });
  });
});

describe("lines the micromark routing inspects are read in linear time (no backtracking blow-up)", () => {
  const sliceHolds = (text: string) => {
    const fragments = fragmentMarkdown("doc", text);
    for (const f of fragments) expect(text.slice(f.start, f.end)).toBe(f.text);
    return fragments;
  };

  it("a quote's lazy line of 400,000 spaces (the four-column check before a `>`)", () => {
    const text = `> a\n${" ".repeat(400_000)}x\n`;
    const fragments = sliceHolds(text);
    expect(fragments.map((f) => f.kind)).toEqual(["quote", "paragraph"]);
    expect(fragments[1].end).toBe(text.length - 1);
  });

  it("a line of 200 nested quote markers with no footnote definition, after a footnote call (the footnote-label scan)", () => {
    const text = `[^a]\n\n${">  ".repeat(200)}z\n`;
    const fragments = sliceHolds(text);
    expect(fragments[0].kind).toBe("paragraph");
    expect(fragments.filter((f) => f.kind === "quote")).toHaveLength(200);
    expect(fragments.at(-1)).toMatchObject({ kind: "paragraph", text: "z" });
  });
});

describe("the nesting bound holds for groups read by micromark", () => {
  it("task items nested 600 deep (1,200 levels of list and item) → MarkdownNestingError naming a line", () => {
    const text = Array.from({ length: 600 }, (_, i) => `${"  ".repeat(i)}- [ ] x`).join("\n") + "\n";
    expect(() => fragmentMarkdown("doc", text)).toThrow(MarkdownNestingError);
    expect(() => fragmentMarkdown("doc", text)).toThrow(/nesting deeper than 1,000 at line \d+/);
  });

  // micromark's time grows with depth × size (a table in each of 300 nested items took 6 s), so a
  // group it reads is bounded lower: MAX_MICROMARK_NESTING levels of list, item and quote.
  const itemsWithTables = (depth: number) =>
    Array.from({ length: depth }, (_, i) => `${"  ".repeat(i)}- x\n${"  ".repeat(i)}  a | b\n${"  ".repeat(i)}  --|--\n`).join("");

  it(`list items nested ${MAX_MICROMARK_NESTING / 2} deep, a table in each (a group micromark reads) → MarkdownNestingError naming the line`, () => {
    let error: unknown;
    try {
      fragmentMarkdown("doc", itemsWithTables(MAX_MICROMARK_NESTING / 2));
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(MarkdownNestingError);
    // the 64th item opens on line 3·63 + 1 = 190, at level 126 (list 125 + item 126); its table's
    // paragraph-level tokens are the first at level 128
    expect((error as MarkdownNestingError).limit).toBe(MAX_MICROMARK_NESTING);
    expect((error as Error).message).toBe("nesting deeper than 128 at line 190 (around a table, footnote or other block read by micromark)");
  });

  it("list items nested 60 deep, a table in each, are fragmented: 60 lists, items, tables and rows", () => {
    const fragments = fragmentMarkdown("doc", itemsWithTables(60));
    const kinds = new Map<string, number>();
    for (const f of fragments) kinds.set(f.kind, (kinds.get(f.kind) ?? 0) + 1);
    expect(Object.fromEntries(kinds)).toMatchObject({ list: 60, item: 60, table: 60 });
    const deepest = fragments.filter((f) => f.kind === "table").at(-1)!;
    expect(deepest.line).toBe(3 * 59 + 2);
    expect(deepest.text).toBe("a | b\n" + "  ".repeat(59) + "  --|--");
  });

  it(`${MAX_MARKDOWN_NESTING / 2 - 1} nested task items (read natively) are still fragmented, not bounded by micromark's depth`, () => {
    const depth = MAX_MARKDOWN_NESTING / 2 - 1;
    const text = Array.from({ length: depth }, (_, i) => `${"  ".repeat(i)}- [ ] x${i}`).join("\n") + "\n";
    const paragraphs = fragmentMarkdown("doc", text).filter((f) => f.kind === "paragraph");
    expect(paragraphs).toHaveLength(depth);
    expect(paragraphs.at(-1)!.text).toBe(`x${depth - 1}`);
  });
});
