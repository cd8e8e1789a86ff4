// ts/match/long-ratio.ts against the references it stands in for: `matchingCharactersLong` (suffix
// automaton for large sub-problems, the DP for small ones) gives the DP's M — so `sequenceRatio`'s
// ratio, bit for bit — on seeded random texts over 1–6 letters (many ties: the tie-breaking of the
// longest block decides M) and on real markdown sections edited in place; with `atLeast` it either
// gives the exact M or a number below `atLeast` only when M is below it; `lcsOf` equals a textbook
// LCS and is never below M.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { codePoints, createLcsRun, lcsOf, longSequenceRatio, matchingCharactersLong, sequenceRatio } from "../../ts/match/index.js";
import { matchingCharacters } from "../../ts/match/sequence-match.js";
import { depth } from "../depth.js";

function random(seed: number) {
  let s = seed;
  return () => ((s = (Math.imul(s, 1103515245) + 12345) & 0x7fffffff) / 0x7fffffff);
}

/** A random text over `sigma` letters, or an edit of `base` (deletions, insertions) when given. */
function text(rnd: () => number, sigma: number, length: number, base?: number[]): number[] {
  if (!base) return Array.from({ length }, () => Math.floor(rnd() * sigma));
  const out: number[] = [];
  for (const c of base) {
    const r = rnd();
    if (r < 0.05) continue;
    if (r < 0.1) out.push(Math.floor(rnd() * sigma));
    out.push(c);
  }
  return out;
}

function lcsTextbook(a: readonly number[], b: readonly number[]): number {
  let prev = new Int32Array(b.length + 1);
  let cur = new Int32Array(b.length + 1);
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) cur[j] = a[i - 1] === b[j - 1] ? prev[j - 1] + 1 : Math.max(prev[j], cur[j - 1]);
    [prev, cur] = [cur, prev];
  }
  return prev[b.length];
}

describe("long-ratio: difflib's M by suffix automaton, and the LCS bound", () => {
  it("equals the DP's M on seeded random texts (automaton always, and at the default split)", () => {
    const rnd = random(36);
    const cases = depth(600, 6000);
    for (let t = 0; t < cases; t++) {
      const sigma = 1 + Math.floor(rnd() * 6);
      const a = text(rnd, sigma, Math.floor(rnd() * 300));
      const b = rnd() < 0.5 ? text(rnd, sigma, 0, a) : text(rnd, sigma, Math.floor(rnd() * 300));
      const want = matchingCharacters(a, 0, a.length, b, b.length);
      expect(matchingCharactersLong(a, b, 0, 0), `case ${t}`).toBe(want);
      expect(matchingCharactersLong(a, b), `case ${t}`).toBe(want);
      // stopping early: exact at or above the floor, below it only when M is
      const floor = Math.floor(rnd() * (Math.min(a.length, b.length) + 2));
      const got = matchingCharactersLong(a, b, floor, 0);
      if (want >= floor) expect(got, `case ${t} floor ${floor}`).toBe(want);
      else expect(got, `case ${t} floor ${floor}`).toBeLessThan(floor);
      const l = lcsOf(createLcsRun(b, sigma), a);
      expect(l, `case ${t}`).toBe(lcsTextbook(a, b));
      expect(l).toBeGreaterThanOrEqual(want);
    }
  });

  it("gives sequenceRatio's ratio on real markdown sections edited in place", () => {
    const newer = readFileSync(new URL("../fixtures/evidence/awesome-v002.md", import.meta.url), "utf8");
    const older = readFileSync(new URL("../fixtures/evidence/awesome-v001.md", import.meta.url), "utf8");
    const pairs: [string, string][] = [
      [older, newer],
      [newer, older],
      [newer.slice(0, 2000), newer.slice(0, 2000).replace(/the /g, "a ")],
      [newer.slice(1000, 3000), older.slice(500, 2500)],
      ["", newer.slice(0, 300)],
    ];
    for (const [a, b] of pairs) {
      expect(longSequenceRatio(a, b)).toBe(sequenceRatio(a, b));
      const ids = new Map<number, number>();
      const intern = (s: string) => codePoints(s).map((c) => ids.get(c) ?? (ids.set(c, ids.size), ids.size - 1));
      const ca = intern(a), cb = intern(b);
      expect(lcsOf(createLcsRun(cb, ids.size), ca)).toBeGreaterThanOrEqual(matchingCharacters(ca, 0, ca.length, cb, cb.length));
    }
  });
});
