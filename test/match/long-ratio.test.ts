// ts/match/long-ratio.ts against the references it stands in for: `matchingCharactersLong` (suffix
// automaton for large sub-problems, the DP for small ones) gives the DP's M — so `sequenceRatio`'s
// ratio, bit for bit — on seeded random texts over 1–6 letters (many ties: the tie-breaking of the
// longest block decides M) and on real markdown sections edited in place; with `atLeast` it either
// gives the exact M or a number below `atLeast` only when M is below it; `lcsOf` equals a textbook
// LCS and is never below M. The sampled s-gram search of long blocks (any floor of s, down to 1)
// gives the DP's M on the random texts, and the automaton's on the sections of the real edit
// histories in ../shared/data (every other pair of consecutive versions in the deep run, two in
// `npm test`).
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { codePoints, createLcsRun, lcsOf, longSequenceRatio, matchingCharactersLong, sequenceRatio } from "../../ts/match/index.js";
import { matchingCharacters } from "../../ts/match/sequence-match.js";
import { fragmentMarkdown, normalizeWhitespace } from "../../ts/evidence/index.js";
import { depth, spread } from "../depth.js";

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

  it("sampled s-grams give the DP's M on seeded random texts, whatever the least s", () => {
    const rnd = random(3617);
    const cases = depth(300, 3000);
    for (let t = 0; t < cases; t++) {
      const sigma = 1 + Math.floor(rnd() * 8);
      const a = text(rnd, sigma, Math.floor(rnd() * 400));
      const b = rnd() < 0.7 ? text(rnd, sigma, 0, a) : text(rnd, sigma, Math.floor(rnd() * 400));
      const want = matchingCharacters(a, 0, a.length, b, b.length);
      for (const least of [1, 2, 3, 8]) {
        expect(matchingCharactersLong(a, b, 0, 0, least), `case ${t} least s ${least}`).toBe(want);
        const floor = Math.floor(rnd() * (Math.min(a.length, b.length) + 2));
        const got = matchingCharactersLong(a, b, floor, 0, least);
        if (want >= floor) expect(got, `case ${t} least s ${least} floor ${floor}`).toBe(want);
        else expect(got, `case ${t} least s ${least} floor ${floor}`).toBeLessThan(floor);
      }
    }
  });

  const MARKDOWN = new URL("../../../shared/data/markdown/", import.meta.url);
  const histories = ["system-design-primer", "awesome"].filter((d) => existsSync(new URL(`${d}/`, MARKDOWN)));
  it.skipIf(histories.length === 0)("sampled s-grams give the automaton's M on the sections of real edit histories", { timeout: 600_000 }, () => {
    const cp = (s: string) => codePoints(normalizeWhitespace(s));
    for (const name of histories) {
      const dir = new URL(`${name}/`, MARKDOWN);
      const files = readdirSync(dir).filter((f) => /^v\d+\.md$/.test(f)).sort();
      const steps = spread(files.slice(1).map((f, i) => [files[i], f] as const), depth(2, 20));
      for (const [older, newer] of steps) {
        const sections = (f: string) => [...fragmentMarkdown(name, readFileSync(new URL(f, dir), "utf8"))]
          .filter((x) => x.kind === "section").map((x) => cp(x.text)).sort((x, y) => y.length - x.length);
        const olds = sections(older), news = sections(newer);
        // the longest sections of each version against each other (near-identical and different), both ways
        const count = depth(2, 5);
        for (let x = 0; x < Math.min(count, olds.length); x++) {
          for (let y = 0; y < Math.min(count, news.length); y++) {
            const a = olds[x], b = news[y];
            const want = matchingCharactersLong(a, b, 0, undefined, Infinity);
            expect(matchingCharactersLong(a, b), `${name} ${older}→${newer} ${x} ${y}`).toBe(want);
            expect(matchingCharactersLong(b, a), `${name} ${newer}→${older} ${y} ${x}`).toBe(matchingCharactersLong(b, a, 0, undefined, Infinity));
            expect(matchingCharactersLong(a, b, 0, undefined, 2), `${name} ${older}→${newer} ${x} ${y} least s 2`).toBe(want);
          }
        }
      }
    }
  });
});
