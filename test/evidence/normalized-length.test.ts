// The suggestion index orders fragments by the length of their normalized text without building
// it (ts/evidence/suggest.ts): that length must be the code points of normalizeWhitespace's result.
import fc from "fast-check";
import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { fragmentMarkdown } from "../../ts/evidence/index.js";
import { normalizedLength, normalizeWhitespace } from "../../ts/evidence/text.js";

// Every code unit JS `\s` matches (tabs, CR, LF, NBSP, U+2028, BOM, the Unicode spaces), some that
// it does not (NUL, U+FFFD, U+200B), paired and lone surrogates, and plain letters.
const UNITS = [..." \t\n\r\v\f\u00a0\u1680\u2000\u200a\u2028\u2029\u202f\u205f\u3000\ufeff", "\0", "\ufffd", "\u200b", "\ud83d", "\ude00", "\ud83d\ude00", "a", "é", "#"];
const text = fc.array(fc.constantFrom(...UNITS), { maxLength: 80 }).map((a) => a.join(""));
const codePoints = (s: string) => [...s].length; // a lone surrogate is one, as a pair is

describe("normalizedLength", () => {
  it("is the code points of normalizeWhitespace(text) on generated texts", () => {
    fc.assert(fc.property(text, (t) => normalizedLength(t) === codePoints(normalizeWhitespace(t))), { numRuns: 2000 });
  });

  it("on the edges: empty, all whitespace, runs at both ends, a pair and lone surrogates", () => {
    expect(normalizedLength("")).toBe(0);
    expect(normalizedLength(" \t\n\u3000")).toBe(0);
    expect(normalizedLength("  a \n\t b  ")).toBe(3); // "a b"
    expect(normalizedLength("\ud83d\ude00 x")).toBe(3); // "😀 x"
    expect(normalizedLength("\ud83d \ude00")).toBe(3); // lone, space, lone
    expect(normalizedLength("\ude00\ud83d")).toBe(2); // low then high: two lone surrogates
  });

  it("on every fragment of the markdown fixtures (READMEs and a setup guide)", () => {
    const dir = new URL("../fixtures/evidence/", import.meta.url);
    let checked = 0;
    for (const name of readdirSync(dir).filter((f) => f.endsWith(".md") && f !== "NOTICE.md")) {
      for (const f of fragmentMarkdown(name, readFileSync(new URL(name, dir), "utf8"))) {
        expect([name, f.path, normalizedLength(f.text)]).toEqual([name, f.path, codePoints(normalizeWhitespace(f.text))]);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(100);
  });
});
