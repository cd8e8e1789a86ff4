// Content hashes of long fragments (over 16,384 code units: large sections, lists, code blocks)
// are streamed: `finish` feeds the text to each open long fragment's hasher a window (or a
// stretch between windows) at a time. Whatever the cut points, the hash must be the one-shot
// definition, contentHashOf(kind, text) = sha256 over the kind and normalizeWhitespace(text):
// these documents put whitespace runs, NUL, CR LF, tabs, NBSP and astral characters at every
// kind of window edge (generated, so every edge is hit many times over).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { contentHashOf, fragmentMarkdown, fragmentPlainText, type Fragment } from "../../ts/evidence/index.js";
import { fcRuns, spread } from "../depth.js";

/** Words and the characters a reader's normalization must treat exactly: whitespace of every kind, NUL, an astral character. */
const PIECES = ["alpha", "beta", "γάμμα", "😀", " ", "  ", "\t", "\u00a0", "\u2003", "\0", "\r\n", "\n", "\n\n", " \n  ", "x\u0301"];

/** A paragraph of about `units` code units drawn from PIECES by `seed` (deterministic). */
function paragraph(seed: number, units: number): string {
  let s = seed >>> 0;
  const out: string[] = [];
  let n = 0;
  while (n < units) {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    const piece = PIECES[s % PIECES.length];
    // No blank line inside a paragraph: it would end it (the structure is not what is tested here).
    const p = piece.includes("\n\n") || piece === " \n  " ? " " : piece;
    out.push(p);
    n += p.length;
  }
  return `word${out.join("")}end`;
}

/** A document whose top section (and some subsections) are far longer than a window, with small blocks between. */
function longDocument(seed: number, paragraphs: number, size: number): string {
  const parts = ["# Top heading with  spaces\t"];
  for (let i = 0; i < paragraphs; i++) {
    if (i % 7 === 0) parts.push(`## Part ${i}\u00a0`);
    if (i % 11 === 5) parts.push("```\n" + paragraph(seed + i, size * 2).replace(/\n/g, " ") + "\n```");
    else if (i % 17 === 8) parts.push(quote(seed + i, size));
    else if (i % 13 === 3) parts.push(`- ${paragraph(seed + i, size)}\n- item  two\n\n  continued`);
    else parts.push(paragraph(seed + i, size));
  }
  return `${parts.join(i2(seed))}\n`;
}

/**
 * A block quote of paragraphs, one line and several lines by turns: the one-line ones are hashed
 * from windows, the others by the block-quote rule, so the text between windows holds `>` markers
 * right after a line end (whitespace at a stretch's start, content after it).
 */
function quote(seed: number, size: number): string {
  const paras: string[] = [];
  for (let k = 0; k < 8; k++) {
    const p = paragraph(seed * 31 + k, size / 2).replace(/\n/g, " ");
    paras.push(k % 2 ? p.replace(/(.{60}\S*) /g, "$1\n> ") : p);
  }
  return paras.map((p) => `> ${p}`).join("\n>\n");
}

/** The separator between blocks: blank lines, some with trailing whitespace. */
function i2(seed: number): string {
  return seed % 2 ? "\n\n" : " \n \t\n";
}

/** The number of block quotes enclosing a fragment (quote segments above its own in its path). */
function quoteDepth(f: Fragment): number {
  return f.path.split("/").slice(0, -1).filter((segment) => segment.startsWith("quote:")).length;
}

function expectDefinition(fragments: readonly Fragment[], minLong: number): void {
  let long = 0;
  for (const f of fragments) {
    if (f.text.length > 1 << 14) long++;
    expect(f.contentHash, `${f.path}`).toBe(contentHashOf(f.kind, f.text, quoteDepth(f)));
  }
  expect(long).toBeGreaterThanOrEqual(minLong);
}

describe("long fragments: streamed content hashes equal the one-shot definition", () => {
  it("markdown sections, lists and code blocks longer than a window", () => {
    // npm test: seeds 1 and 3; npm run test:deep (test/depth.ts): 1, 2 and 3
    for (const seed of spread([1, 2, 3], 2)) {
      const text = longDocument(seed, 60, 3000);
      const fragments = fragmentMarkdown("long.md", text);
      // The top section, most `## Part` sections and the long code blocks.
      expectDefinition(fragments, 5);
      expect(fragments[0].text).toBe(text.slice(0, text.length - 1));
    }
  });

  it("generated documents: paragraph sizes around the window size", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1e6 }), fc.integer({ min: 3, max: 30 }), fc.integer({ min: 200, max: 9000 }), (seed, paragraphs, size) => {
        const fragments = fragmentMarkdown("gen.md", longDocument(seed, paragraphs, size));
        for (const f of fragments) expect(f.contentHash).toBe(contentHashOf(f.kind, f.text, quoteDepth(f)));
      }),
      // npm test: 8 documents; npm run test:deep (test/depth.ts): 25
      { numRuns: fcRuns(8, 25) },
    );
  });

  it("plain text: a paragraph longer than a window", () => {
    // One line per paragraph here: a whitespace-only line would end a plain-text paragraph.
    const text = `${paragraph(7, 40_000).replace(/\n/g, " ")}\n\n${paragraph(8, 300).replace(/\n/g, " ")}\n`;
    const fragments = fragmentPlainText("long.txt", text);
    expect(fragments.map((f) => f.kind)).toEqual(["paragraph", "paragraph"]);
    expectDefinition(fragments, 1);
  });

  it("a lone high surrogate then a surrogate pair across a 1 MiB hashing slice", () => {
    // The normalized text is UTF-8 encoded a slice (1 << 20 units) at a time. A slice must not
    // end between a pair's halves, but a lone high surrogate before the cut is no pair: moving the
    // cut past it split the 😀 after it (hashed as two U+FFFD instead of F0 9F 98 80).
    // The double spaces make the normalized copy's first piece run past 1 << 20 units, so the
    // cut falls inside one slice; unit 2^20 − 1 of the normalized text is the lone surrogate.
    const head = "a  ".repeat(10);
    for (const middle of ["\ud800😀", "😀", "\ud800x", "\ud800\ud800😀"]) {
      const text = head + "b".repeat((1 << 20) - 1 - "a ".repeat(10).length) + middle + "c".repeat(40_000);
      const fragments = fragmentMarkdown("surrogates.md", text);
      expect(fragments.map((f) => f.kind)).toEqual(["paragraph"]);
      expectDefinition(fragments, 1);
    }
  });
});
