// paragraphsOf over a range of a book searches that range only (a search running on to the
// text's end made cutting a book of one long line quadratic: a 15 MB line took minutes). The
// paragraphs are those the whole-text search gave: checked against it on random ranges of the
// bundled books, ranges ending inside a run of blank lines, and a book of one line.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { paragraphsOf, type Paragraph } from "../../ts/moot/book-text.js";
import { mulberry32 } from "../prng.js";

/** The search as it was: over the whole text from `start`, stopping at the first blank run at or past `end`. */
function reference(text: string, start: number, end: number): Paragraph[] {
  const out: Paragraph[] = [];
  const blank = /\n[ \t]*(?:\n[ \t]*)+/g;
  blank.lastIndex = start;
  let from = start;
  const push = (a: number, b: number) => {
    const raw = text.slice(a, b);
    const lead = raw.length - raw.trimStart().length;
    const body = raw.trim();
    if (!body) return;
    out.push({ text: body.replace(/[ \t]*\n[ \t]*/g, " "), raw: body, start: a + lead, end: a + lead + body.length, lines: body.split("\n").length });
  };
  for (let m = blank.exec(text); m && m.index < end; m = blank.exec(text)) {
    push(from, m.index);
    from = m.index + m[0].length;
  }
  push(from, end);
  return out;
}

describe("paragraphsOf over a range", () => {
  it("gives the whole-text search's paragraphs on random ranges of the bundled books", () => {
    const rand = mulberry32(14);
    for (const file of ["novel__frankenstein.txt", "diary__pepys-1660.txt"]) {
      const text = readFileSync(new URL(`../../data/books/${file}`, import.meta.url), "utf8").replace(/\r\n?/g, "\n");
      for (let i = 0; i < 200; i++) {
        const start = Math.floor(rand() * text.length);
        const end = Math.min(text.length, start + Math.floor(rand() * 5000));
        expect(paragraphsOf(text, start, end)).toEqual(reference(text, start, end));
      }
    }
  });

  it("a range ending inside a run of blank lines, and a book of one line", () => {
    const text = "One.\n\n  \n\nTwo, of\ntwo lines.\n \n\t\nThree.";
    for (let start = 0; start < text.length; start++) for (let end = start; end <= text.length; end++) expect(paragraphsOf(text, start, end)).toEqual(reference(text, start, end));
    const line = "word ".repeat(20_000);
    expect(paragraphsOf(line, 5, line.length)).toEqual([{ text: line.slice(5).trim(), raw: line.slice(5).trim(), start: 5, end: line.length - 1, lines: 1 }]);
  });
});
