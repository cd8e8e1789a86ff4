// Regions of top-level blocks that only micromark reads exactly, longer than MAX_MICROMARK_LENGTH:
// micromarkLargeRegion reads them in pieces (between top-level blocks, and across the rows of a
// top-level table), so a large table with a tab in a cell or a row without a pipe is fragmented
// as the reference fragmenter (one micromark parse of the whole document) fragments it, where
// it was refused with MarkdownSizeError; one top-level block over the bound that is not a table is
// still refused, naming its line. docs/evidence.md, "Limits" (what micromark reads).
import { describe, expect, it, vi } from "vitest";
import { fragmentMarkdown, MarkdownSizeError, MAX_MICROMARK_LENGTH, type Fragment } from "../../ts/evidence/index.js";
import { micromarkLoad } from "../../ts/evidence/fragment/index.js";
import { fragmentMarkdown as referenceFragmentMarkdown } from "./reference-fragmenter.js";
import { largeListDocument } from "./large-list-document.js";
import { DEEP, spread } from "../depth.js";
import { referenceResults } from "../reference-results.js";

// Each case reads documents over 256 KiB with micromark twice (ours in pieces, the reference whole):
// 10–20 s alone on 2 cores, up to 40 s beside other suites. The suite's 60 s leaves too little room.
vi.setConfig({ testTimeout: 180_000 });
// npm test: the line-ending family and the breakers' cases (it.each) keep one fixed member each (the
// lone CR, the one-item lists: lists read in pieces, an item holding a table), and of the single
// cases the table read in pieces, the refusal and the linear probes run, so tables, lists and the
// refusal still go through the pieces; npm run test:deep (test/depth.ts): every case and every
// member, the one list of 3,800 items carried from piece to piece (10 s a member) among them.

const address = (f: Fragment) => [f.fragmentId, f.contentHash, f.path, f.kind, f.start, f.end, f.line].join(" ");

/**
 * The reference's cells, as GFM renders a row (issue 15): as many cells as the header, a missing
 * one empty at the row's end; the reference keeps the cells as written.
 */
function renderedCells(f: Fragment, width: number): Fragment["cells"] {
  if (!f.cells) return f.cells;
  const cells = f.cells.slice(0, width);
  while (cells.length < width) cells.push({ text: "", start: f.end, end: f.end });
  return cells;
}

// npm test compares with the digest of the reference's reading stored in
// test/fixtures/reference/large-regions.json (test/reference-results.ts); npm run test:deep
// reads every document with the reference too, and checks the stored digests.
const references = referenceResults("large-regions");

/** Expects fragmentMarkdown's fragments of `text` to be the reference fragmenter's, cells as GFM renders them. */
function expectReferenceReading(text: string): readonly Fragment[] {
  const fragments = fragmentMarkdown("d", text);
  references.expectEqual(text, { addresses: fragments.map(address), cells: fragments.map((f) => f.cells) }, () => {
    const reference = referenceFragmentMarkdown("d", text);
    let width = 0;
    const expected = reference.map((f, i) => {
      if (f.kind === "table") width = reference[i + 1]?.cells?.length ?? 0;
      return renderedCells(f, width);
    });
    return { addresses: reference.map(address), cells: expected };
  });
  return fragments;
}

/** A seeded linear congruential generator (Numerical Recipes' constants): the same documents on every run. */
function generator(seed: number): () => number {
  let state = seed >>> 0;
  return () => (state = (Math.imul(state, 1664525) + 1013904223) >>> 0) / 2 ** 32;
}

/**
 * A document whose first region (no blank line in it) is over MAX_MICROMARK_LENGTH: tables that only
 * micromark reads exactly (a tab in a cell), one after another with a heading, a thematic break or a
 * closed fence between them and no blank line; rows with footnote calls, escaped pipes, markup, and
 * lines without a pipe; then blocks after blank lines that run on (a list item, a footnote, a quote,
 * HTML), more tables, and the definitions.
 */
function largeRegionDocument(seed: number, rows: number): string {
  const random = generator(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)];
  const lines: string[] = ["# T", "", "lead line"];
  const head = () => lines.push(...pick([["| name | qty | note |", "| --- | --- | --- |"], ["name | qty", "---|---"], [" | a | b | c |", "|:-|-:|--|"], ["x|y", " -- | -- "]]));
  head();
  for (let i = 0; i < rows; i++) {
    const x = random();
    if (x < 0.996) lines.push(`| item\t${i} | ${i} | [^f${i % 3}] |`);
    else if (x < 0.998) lines.push(pick([`plain ${i}`, "    code", "[a]: /u", "| *em* | `c` |", "a \\| b | c", "| [x][a] | ~~s~~ |"]));
    else if (i < rows * 0.95) {
      lines.push(...pick([["# h"], ["***"], ["```", "code | x", "```"], ["## sub *em*"]]));
      head();
    } else {
      lines.push(...pick([[""], ["- item", "  more"], ["[^f1]: foot"], ["> quote"], ["<div>", "x"]]), "");
      head();
    }
  }
  lines.push("", "[^f0]: zero", "[^f1]: one", "[^f2]: two", "[a]: /x");
  return `${lines.join("\n")}\n`;
}

describe("a region over MAX_MICROMARK_LENGTH read in pieces", () => {
  it("a top-level table with a tab in one cell and a row without a pipe: every row as the reference reads it, cells as GFM renders them", () => {
    const rows = ["| name | qty |", "| --- | --- |"];
    for (let i = 0; i < 9_500; i++) rows.push(i === 5 ? `| a\tb | ${i} |` : i === 7_000 ? "plain text row" : `| item number ${i} | ${i * 7} |`);
    const text = `${rows.join("\n")}\n\nafter\n`;
    expect(text.length).toBeGreaterThan(MAX_MICROMARK_LENGTH);
    const fragments = expectReferenceReading(text);
    const table = fragments.find((f) => f.kind === "table")!;
    expect([table.start, table.end, table.line]).toEqual([0, text.indexOf("\n\nafter"), 1]);
    const body = fragments.filter((f) => f.kind === "row");
    expect(body.length).toBe(9_501);
    expect(body[9_000].text).toBe("| item number 8999 | 62993 |");
    expect(body[9_000].line).toBe(9_002);
    expect(body[9_000].cells!.map((c) => c.text)).toEqual(["item number 8999", "62993"]);
    expect(body[6].cells!.map((c) => text.slice(c.start, c.end))).toEqual(["a\tb", "5"]);
    const plain = body[7_001];
    expect([plain.text, plain.line]).toEqual(["plain text row", 7_003]);
    expect(plain.cells).toEqual([{ text: "plain text row", start: plain.start, end: plain.end }, { text: "", start: plain.end, end: plain.end }]);
    expect(fragments.at(-1)!.text).toBe("after");
  });

  // the slowest case (about 10 CPU-s: footnote calls in 10,000 rows); each kind it mixes has a case of
  // its own below and above (tables with a tab, blocks between tables, definitions and footnotes in
  // pieces), so npm test leaves it to npm run test:deep (test/depth.ts)
  it.skipIf(!DEEP).each([1])("seeded document %i: tables, blocks between them, footnote calls and definitions, as the reference reads them", (seed) => {
    const text = largeRegionDocument(seed, 10_000);
    expect(text.indexOf("\n\n", 20)).toBeGreaterThan(MAX_MICROMARK_LENGTH);
    const fragments = expectReferenceReading(text);
    expect(fragments.filter((f) => f.kind === "row").length).toBeGreaterThan(8_000);
  });

  it.skipIf(!DEEP)("a block longer than a piece but under the bound, between tables, is read in one piece", () => {
    const table = (n: number, tab: number) => ["| a | b |", "|---|---|", ...Array.from({ length: n }, (_, i) => (i === tab ? `| x\t${i} | y |` : `| cell ${i} | ${i} |`))];
    const paragraph = Array.from({ length: 5_000 }, (_, i) => `paragraph line ${i} with *some* text`);
    const text = `${[...table(4_000, 3), "# between", ...paragraph, "***", ...table(3_000, 2_999)].join("\n")}\n`;
    expect(text.length).toBeGreaterThan(MAX_MICROMARK_LENGTH);
    const fragments = expectReferenceReading(text);
    expect(fragments.filter((f) => f.kind === "table").map((f) => f.line)).toEqual([1, 9_005]);
    const long = fragments.find((f) => f.kind === "paragraph")!;
    expect([long.line, long.end - long.start]).toEqual([4_004, paragraph.join("\n").length]);
    expect(long.end - long.start).toBeGreaterThan(1 << 16);
  });

  it.skipIf(!DEEP)("the definitions in a large region are found in pieces too, and resolve references elsewhere", () => {
    const rows = ["| name | qty |", "| --- | --- |"];
    for (let i = 0; i < 9_500; i++) rows.push(i === 5 ? `| a\tb | ${i} |` : i === 9 ? "| [x]: y | z |" : `| item number ${i} | ${i} |`);
    const text = `${rows.join("\n")}\n# h\n[a]: /u\n[^n]: x\n\n# [see][a] [^n]\n`;
    const fragments = expectReferenceReading(text);
    // `[see][a]` a link and `[^n]` a call: the heading's text is "see" (unresolved, "[see][a] [^n]")
    expect(fragments.filter((f) => f.kind !== "row" && f.kind !== "table").map((f) => f.path)).toEqual(["section:h", "section:h/definition:a", "section:h/footnote:n", "section:h/footnote:n/paragraph:1", "section:see"]);
  });

  /** A table whose third line has a tab in a cell, then `n` rows, every line ended by `eol`. */
  const crTable = (n: number, eol: string) => `| a | b |${eol}|---|---|${eol}| x\ty | z |${eol}${`| item | 1 |${eol}`.repeat(n)}`;
  it.each(spread([
    // one lone CR: every row after the first cut was a line low
    ["one lone CR", () => `| a | b |\n|---|---|\n| x\ty | z |\r${"| item | 1 |\n".repeat(20_500)}\nafter\n`],
    // all lone CR: refused (no LF to cut at)
    ["all lone CR", () => crTable(20_500, "\r")],
    ["CR LF", () => crTable(20_500, "\r\n")],
    // a CR before a piece's last block: the heading came twice
    ["a CR before a piece's last block", () => `${crTable(4_000, "\n")}# hx\r${"para line\n".repeat(2_000)}${crTable(15_000, "\n")}\nafter\n`],
  ] as const, 1))("lone CR and CR LF line endings: pieces cut, lines counted and heads taken at every line ending (a breaker's case: %s)", (_, make) => {
    const text = make();
    expect(text.length).toBeGreaterThan(MAX_MICROMARK_LENGTH);
    expectReferenceReading(text);
  });

  it.skipIf(!DEEP)("an unclosed fence after a table's end in a piece does not swallow the piece's definitions (a breaker's case)", () => {
    const text = `[a]: /u\n\n| a | b |\n|---|---|\n| x\ty | z |\n${"| [x][a] | 1 |\n".repeat(18_000)}` + "```\ncode\n";
    expect(text.length).toBeGreaterThan(MAX_MICROMARK_LENGTH);
    const fragments = expectReferenceReading(text);
    expect(fragments.filter((f) => f.kind === "row").at(-1)!.path).toBe("table:a-b/row:x~18000");
  });

  // 10 s a member, the slowest case npm test ran: npm test reads lists in pieces in the breakers'
  // one-item lists below (a piece ending in a list, an item holding a table) and leaves one list
  // carried from piece to piece to npm run test:deep (test/depth.ts)
  it.skipIf(!DEEP).each([
    ["one list of 3,800 items, LF", 5, 3_800, "\n"],
    ["one list of 3,800 items, CR LF", 6, 3_800, "\r\n"],
  ] as const)("a top-level list over the bound that micromark reads (an item holds a table): %s, read between its items as the reference reads it", (_, seed, items, eol) => {
    const text = largeListDocument(seed, items, false).replace(/\n/g, eol);
    // one top-level list from line 5 to the paragraph after it, all of it micromark's
    const listEnd = text.indexOf(`${eol}${eol}after the lists`);
    expect(listEnd - text.indexOf(`${eol}-`)).toBeGreaterThan(MAX_MICROMARK_LENGTH);
    const fragments = expectReferenceReading(text);
    const lists = fragments.filter((f) => f.kind === "list" && f.depth === 1);
    expect(lists.map((f) => f.line)).toEqual([5]);
    expect(lists[0].end - lists[0].start).toBeGreaterThan(MAX_MICROMARK_LENGTH);
    // (an item indented 2–3 columns is a child of the one before it)
    expect(fragments.filter((f) => f.kind === "item" && f.parentId === lists[0].fragmentId).length).toBeGreaterThan(items - 40);
  });

  /** A region micromark reads (item 3 holds a table) of `item(i)` lines until over `size` code units. */
  const tableItemList = (item: (i: number) => string, size = 270_000) => {
    const lines = ["# T", "", "intro", ""];
    for (let i = 0, n = 0; n < size; i++) {
      const piece = i === 3 ? `- Table ${i}\n\n  | a | b |\n  | - | - |\n  | ${i} | x |\n` : item(i);
      lines.push(piece);
      n += piece.length + 1;
    }
    return `${lines.join("\n")}\nafter\n`;
  };
  it.each(spread([
    // every item opens a list of its own: a piece's last block was a one-item list after the piece's
    // start, and taking its last item left the list empty (TypeError)
    ["one-item lists, the marker alternating", () => tableItemList((i) => `${i % 2 ? "*" : "-"} item ${i} with some text`)],
    // the last piece was under the bound, with the definitions it uses over it (MarkdownSizeError)
    ["reference links defined after the list", () => {
      const lines = ["# Awesome", "", "intro", ""];
      for (let i = 0; i < 9_000; i++) {
        if (i === 3) lines.push("- Table", "", "  | a | b |", "  | - | - |", "  | 1 | 2 |", "");
        else lines.push(`- [Project ${i}][p${i}] - thing`);
      }
      lines.push("", "after", "", ...Array.from({ length: 9_000 }, (_, i) => `[p${i}]: https://example.org/${i}`));
      return `${lines.join("\n")}\n`;
    }],
    // a title on the line after the destination, cut by a piece: the definition lost its title and
    // the rest of the region became one paragraph
    ["definitions whose title starts on the next line", () => {
      const pad = "x".repeat(120);
      const lines = ["# T", "", "Use [a1] and [a20].", ""];
      for (let i = 0; i < 1_100; i++) lines.push(`[a${i}]: https://example.org/${i}`, `"title of ${i} ${pad}`, `second line ${i} ${pad}"`);
      return `${lines.join("\n")}\n[^f]: a footnote\n\ncall [^f]\n`;
    }],
  ] as const, 1))("a breaker's case (session 10): %s, as the reference reads it", (_, make) => {
    const text = make();
    expect(text.length).toBeGreaterThan(MAX_MICROMARK_LENGTH);
    expectReferenceReading(text);
  });

  it("one top-level block over the bound that is not a table is still refused, with its line", () => {
    const paragraph = "a long paragraph line\n".repeat(Math.ceil(MAX_MICROMARK_LENGTH / 22) + 10);
    const text = `# T\n\n${paragraph}| a | b |\n| - | - |\n| x\ty | z |\n`;
    let error: unknown;
    try {
      fragmentMarkdown("d", text);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(MarkdownSizeError);
    expect((error as MarkdownSizeError).line).toBe(3);
    expect((error as Error).message).toMatch(/^a block of [\d,]+ UTF-16 code units at line 3 that only micromark reads exactly .*a paragraph or list against a table.* over the limit of 262,144/);
  });
});

describe("groups micromark reads together because a block runs on past a blank line", () => {
  it.each([
    ["an HTML block of kind 1 that interrupts each paragraph", "<x-y>\n<pre>\n\nx\n</pre>\n", 400],
    ["a list item markdown-it ended at a lazy line", "  c\n\n", 1_000],
  ])("%s: each probe reads from the last block's first line, so the input micromark gets is linear", (_, unit, n) => {
    const text = `| a |\n|-|\n| b\t|\n${unit === "  c\n\n" ? "- a\nb\n\n" : ""}${unit.repeat(n)}`;
    const before = micromarkLoad();
    expectReferenceReading(text);
    // probing from the region's start each time handed micromark 1,788,382 code units for the first (8,816)
    expect(micromarkLoad() - before).toBeLessThan(8 * text.length);
  });
});

