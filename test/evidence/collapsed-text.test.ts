// The document's whitespace-normalized copy: every fragment's content hash is read from it,
// so its spans must equal normalizing each slice alone, for every slice of every text.
import fc from "fast-check";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { CollapsedText, normalizeWhitespace } from "../../ts/evidence/text.js";

// Every code unit JS `\s` matches (tabs, CR, LF, NBSP, U+2028, BOM, the Unicode spaces), some that
// it does not (NUL, U+FFFD, U+200B, surrogates) and plain letters.
const UNITS = [..." \t\n\r\v\f\u00a0\u1680\u2000\u200a\u2028\u2029\u202f\u205f\u3000\ufeff", "\0", "\ufffd", "\u200b", "\ud83d", "\ude00", "a", "b", "é", "#"];
const text = fc.array(fc.constantFrom(...UNITS), { maxLength: 120 }).map((a) => a.join(""));

describe("CollapsedText", () => {
  it("gives normalizeWhitespace(text.slice(start, end)) for every slice of generated texts", () => {
    fc.assert(
      fc.property(text, (t) => {
        const c = new CollapsedText(t);
        expect(c.pieces.join("")).toBe(t.replace(/\s+/gu, " "));
        for (let start = 0; start <= t.length; start++) {
          for (let end = start; end <= t.length; end++) {
            const got = c.normalized(start, end);
            if (got !== normalizeWhitespace(t.slice(start, end))) expect([start, end, got]).toEqual([start, end, normalizeWhitespace(t.slice(start, end))]);
          }
        }
      }),
      { numRuns: 300 },
    );
  });

  it("holds across its 32-unit offset table on a real README (every line and paragraph span)", () => {
    const t = readFileSync(new URL("../fixtures/evidence/awesome-v000.input.md", import.meta.url), "utf8");
    const c = new CollapsedText(t);
    const cuts = [0, ...[...t.matchAll(/\n/g)].map((m) => m.index!), t.length];
    let checked = 0;
    for (let i = 0; i < cuts.length; i++) {
      for (let j = i; j < Math.min(cuts.length, i + 6); j++) {
        for (const [s, e] of [[cuts[i], cuts[j]], [cuts[i] + 1, cuts[j]], [cuts[i], Math.max(cuts[i], cuts[j] - 1)]]) {
          if (s > e || e > t.length) continue;
          expect(c.normalized(s, e)).toBe(normalizeWhitespace(t.slice(s, e)));
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(100);
  });

  it("keeps a text over 1 M code units in pieces that join to exactly what one replace gives (runs across the cuts included)", () => {
    const t = readFileSync(new URL("../fixtures/evidence/awesome-v000.input.md", import.meta.url), "utf8").replace(/\n/g, " \n\t ").repeat(2500);
    expect(t.length).toBeGreaterThan(2_000_000);
    const c = new CollapsedText(t);
    expect(c.pieces.length).toBe(2);
    expect(c.pieces[0].length).toBeGreaterThanOrEqual(2 ** 20);
    expect(c.pieces.join("")).toBe(t.replace(/\s+/gu, " "));
    for (const [s, e] of [[0, t.length], [1_048_570, 1_048_590], [2_097_150, t.length], [1_000_000, 2_000_001], [2_097_100, 2_097_200]]) {
      expect(c.normalized(s, e)).toBe(normalizeWhitespace(t.slice(s, e)));
    }
  });

  it("refuses a span outside the text, naming it", () => {
    const c = new CollapsedText("a  b");
    expect(() => c.span(2, 5)).toThrow(/2–5 is not within 0–4/);
    expect(() => c.span(3, 2)).toThrow(RangeError);
  });
});

describe("content hashes of long fragments", () => {
  it("a section over 1 M code units (hashed in pieces) keeps contentHashOf's digest, a surrogate pair at the cut included", async () => {
    const { contentHashOf, fragmentMarkdown } = await import("../../ts/evidence/index.js");
    // Emoji pairs throughout, shifted by one unit in the second document: one of the two puts a
    // piece boundary between the halves of a pair, which must not be cut.
    for (const lead of ["", "x"]) {
      const body = `${lead}${"😀".repeat(600_000)}\n\n${"The cache  holds\trecent answers. ".repeat(1_000)}`;
      const doc = `# Big\n\n${body}\n\n## Small\n\nText.\n`;
      const fragments = fragmentMarkdown("doc", doc);
      const big = fragments[0];
      expect(big.path).toBe("section:big");
      expect(big.text.length).toBeGreaterThan(1_200_000);
      expect(big.contentHash).toBe(contentHashOf("section", big.text));
      for (const f of fragments) expect(f.contentHash).toBe(contentHashOf(f.kind, f.text));
    }
  });
});
