// slugify and normalizeWhitespace take shortcuts (ASCII labels in one pass; text already normal
// returned as is). The reference fragmenter imports both, so the address golden test cannot see a
// shortcut that drifts: here they are compared with their definitions, kept verbatim, on every
// ASCII character, on generated labels with every whitespace kind, and on every label of the
// real documents.
import fc from "fast-check";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { normalizeWhitespace, slugify } from "../../ts/evidence/text.js";

/** The definitions (ts/evidence/text.ts before the shortcuts). */
const referenceNormalize = (text: string) => text.replace(/\s+/gu, " ").trim();
const referenceSlug = (label: string) => referenceNormalize(label.normalize("NFC").toLowerCase().replace(/[^\p{L}\p{M}\p{N}\p{Pc}\-\s]/gu, "")).replace(/ /g, "-");

const FIXTURES = new URL("../fixtures/evidence/", import.meta.url);
const MARKDOWN = new URL("../../../shared/data/markdown/", import.meta.url);

// Every whitespace kind `\s` matches, characters it does not, ASCII punctuation, letters with and without case, a combining mark.
const UNITS = [..." \t\n\r\v\f\u00a0\u1680\u2000\u200a\u2028\u2029\u202f\u205f\u3000\ufeff\u001c\u0085", "\0", "a", "Z", "9", "_", "-", ".", "~", "|", "(", "é", "E\u0301", "İ", "Σ", "ß", "\ud83d\ude00", "\ud83d"];
const label = fc.array(fc.constantFrom(...UNITS), { maxLength: 40 }).map((a) => a.join(""));

describe("slugify and normalizeWhitespace keep their definitions", () => {
  it("on every ASCII character, alone and between words and spaces", () => {
    for (let c = 0; c < 0x80; c++) {
      const ch = String.fromCharCode(c);
      for (const t of [ch, `a${ch}b`, ` ${ch} X `, `${ch}${ch}`, `Word${ch}`]) {
        expect(slugify(t), JSON.stringify(t)).toBe(referenceSlug(t));
        expect(normalizeWhitespace(t), JSON.stringify(t)).toBe(referenceNormalize(t));
      }
    }
  });

  it("on generated labels", () => {
    fc.assert(
      fc.property(label, (t) => {
        expect(slugify(t)).toBe(referenceSlug(t));
        expect(normalizeWhitespace(t)).toBe(referenceNormalize(t));
      }),
      { numRuns: 3000 },
    );
    // Past the one-pass path's 256 units.
    const long = "Word  and\tpunctuation, ".repeat(40);
    expect(slugify(long)).toBe(referenceSlug(long));
  });

  it("on every heading and table line of the real documents", () => {
    const docs = readdirSync(FIXTURES).filter((n) => n.endsWith(".md")).map((n) => readFileSync(new URL(n, FIXTURES), "utf8"));
    let real = 0; // ../shared/data is absent in a user's clone: then the fixtures alone (68 labels)
    for (const p of ["commonmark/spec.txt", "system-design-primer/v039.md", "awesome/v039.md"]) {
      const url = new URL(p, MARKDOWN);
      if (existsSync(url)) docs.push(readFileSync(url, "utf8")), real++;
    }
    let labels = 0;
    for (const doc of docs) {
      for (const line of doc.split("\n")) {
        if (!/^\s*(?:#|\|)/.test(line)) continue;
        for (const t of [line, ...line.split("|")]) {
          expect(slugify(t)).toBe(referenceSlug(t));
          expect(normalizeWhitespace(t)).toBe(referenceNormalize(t));
          labels++;
        }
      }
    }
    expect(labels, `labels checked (${real} real documents)`).toBeGreaterThan(real === 3 ? 1000 : 60);
  });
});
