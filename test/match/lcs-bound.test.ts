// The LCS bound of citationStatus's suggestions (ts/match/lcs-bound.ts): the WASM kernel
// (assembly/lcs-bound.ts) and the TS twin (`lcsAtLeast`) return the same number on the same inputs,
// and that number is ≥ `need` exactly when the textbook LCS is, and then equals it —
// on seeded random texts over small alphabets (edits of each other and unrelated), with b longer
// than 64 (several words, carries), ids outside the alphabet in a and b, one b against many a
// (its masks kept), b's changing between calls, and on real markdown sections; and `matching`
// (difflib's M, the kernel's DP on small pairs) against the TS DP.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { createLcsBound, createLcsRun, lcsAtLeast } from "../../ts/match/index.js";
import { matchingCharacters } from "../../ts/match/sequence-match.js";
import { fragmentMarkdown, normalizeWhitespace } from "../../ts/evidence/index.js";
import { depth } from "../depth.js";

function random(seed: number) {
  let s = seed;
  return () => ((s = (Math.imul(s, 1103515245) + 12345) & 0x7fffffff) / 0x7fffffff);
}

/** A random text over `sigma` letters (and, with `strays`, some ids outside [0, sigma)), or an edit of `base`. */
function text(rnd: () => number, sigma: number, length: number, base?: number[], strays = false): number[] {
  const letter = () => (strays && rnd() < 0.03 ? (rnd() < 0.5 ? -1 : sigma + Math.floor(rnd() * 3)) : Math.floor(rnd() * sigma));
  if (!base) return Array.from({ length }, letter);
  const out: number[] = [];
  for (const c of base) {
    const r = rnd();
    if (r < 0.1) continue;
    if (r < 0.2) out.push(letter());
    out.push(c);
  }
  return out;
}

function lcsTextbook(a: readonly number[], b: readonly number[], sigma: number): number {
  let prev = new Int32Array(b.length + 1);
  let cur = new Int32Array(b.length + 1);
  const valid = (c: number) => c >= 0 && c < sigma;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) cur[j] = a[i - 1] === b[j - 1] && valid(a[i - 1]) ? prev[j - 1] + 1 : Math.max(prev[j], cur[j - 1]);
    [prev, cur] = [cur, prev];
  }
  return prev[b.length];
}

describe("lcs-bound: the WASM kernel and the TS twin", () => {
  it("give the same number, ≥ `need` exactly when the LCS is, and then the LCS", () => {
    const rnd = random(36);
    let early = 0;
    for (let t = 0; t < depth(60, 400); t++) {
      const sigma = 1 + Math.floor(rnd() * 8);
      const lb = Math.floor(rnd() * (t % 3 === 0 ? 1500 : 300));
      const b = Int32Array.from(text(rnd, sigma, lb, undefined, t % 2 === 0));
      const wasm = createLcsBound(b, sigma, "wasm");
      const ts = createLcsBound(b, sigma, "ts");
      expect(wasm.backend).toBe("wasm");
      expect(ts.backend).toBe("ts");
      for (let u = 0; u < 4; u++) {
        const a = Int32Array.from(
          u % 2 === 0 ? text(rnd, sigma, 0, [...b], t % 2 === 0) : text(rnd, sigma, Math.floor(rnd() * 2 * lb + 1), undefined, t % 2 === 0),
        );
        const lcs = lcsTextbook([...a], [...b], sigma);
        for (const need of [0, Math.floor(lcs * rnd()), lcs, lcs + 1, lcs + 1 + Math.floor(rnd() * (a.length + 1)), a.length + lb + 1]) {
          const w = wasm.atLeast(a, need);
          expect(ts.atLeast(a, need), `case ${t}.${u}, need ${need}`).toBe(w);
          if (w >= need) expect(w, `case ${t}.${u}, need ${need}`).toBe(lcs);
          else {
            expect(lcs, `case ${t}.${u}, need ${need}`).toBeLessThan(need);
            if (w !== lcs) early++;
          }
        }
      }
    }
    expect(early).toBeGreaterThan(0); // the band or the early stop answered below the LCS
  });

  it("`matching` gives difflib's M (b as seq1) on both backends: the kernel's DP on small pairs, matchingCharactersLong on the others", () => {
    const rnd = random(11);
    let small = 0;
    for (let t = 0; t < depth(150, 1000); t++) {
      const sigma = 1 + Math.floor(rnd() * 6);
      const b = Int32Array.from(text(rnd, sigma, Math.floor(rnd() * (t % 4 === 0 ? 900 : 200))));
      const a = Int32Array.from(t % 2 === 0 ? text(rnd, sigma, 0, [...b]) : text(rnd, sigma, Math.floor(rnd() * 300)));
      const m = matchingCharacters(b, 0, b.length, a, a.length);
      const wasm = createLcsBound(b, sigma, "wasm");
      const ts = createLcsBound(b, sigma, "ts");
      expect(wasm.matching(a, 0), `case ${t}`).toBe(m);
      expect(ts.matching(a, 0), `case ${t}`).toBe(m);
      // at need = M the count is exact; above it, a number below need (the contract of matchingCharactersLong)
      expect(wasm.matching(a, m), `case ${t}`).toBe(m);
      expect(ts.matching(a, m), `case ${t}`).toBe(m);
      expect(wasm.matching(a, m + 1)).toBeLessThan(m + 1);
      expect(ts.matching(a, m + 1)).toBeLessThan(m + 1);
      if (a.length * b.length <= 128 * (a.length + b.length)) small++;
    }
    expect(small).toBeGreaterThan(0);
  });

  it("keeps each b's masks apart when calls for two b's interleave", () => {
    const rnd = random(7);
    const b1 = Int32Array.from(text(rnd, 5, 700));
    const b2 = Int32Array.from(text(rnd, 5, 90));
    const one = createLcsBound(b1, 5, "wasm");
    const two = createLcsBound(b2, 5, "wasm");
    for (let t = 0; t < 10; t++) {
      const a = Int32Array.from(text(rnd, 5, 50 + Math.floor(rnd() * 3000)));
      expect(one.atLeast(a, 0)).toBe(lcsTextbook([...a], [...b1], 5));
      expect(two.atLeast(a, 0)).toBe(lcsTextbook([...a], [...b2], 5));
    }
  });

  it("equal on real markdown sections (awesome fixtures), TS through createLcsRun as well", () => {
    const newer = readFileSync(new URL("../fixtures/evidence/awesome-v002.md", import.meta.url), "utf8");
    const older = readFileSync(new URL("../fixtures/evidence/awesome-v001.md", import.meta.url), "utf8");
    const ids = new Map<number, number>();
    const idsOf = (s: string) => Int32Array.from([...normalizeWhitespace(s)], (ch) => {
      const cp = ch.codePointAt(0)!;
      let id = ids.get(cp);
      if (id === undefined) ids.set(cp, (id = ids.size));
      return id;
    });
    const a = [...fragmentMarkdown("awesome", older)].map((f) => idsOf(f.text)).filter((x) => x.length > 0).slice(0, 40);
    const b = [...fragmentMarkdown("awesome", newer)].map((f) => idsOf(f.text)).filter((x) => x.length > 0).slice(0, 12);
    for (const y of b) {
      const wasm = createLcsBound(y, ids.size, "wasm");
      const run = createLcsRun(y, ids.size);
      for (const x of a) {
        const need = Math.ceil(0.6 * Math.min(x.length, y.length));
        const w = wasm.atLeast(x, need);
        expect(lcsAtLeast(run, x, need)).toBe(w);
        expect(createLcsBound(y, ids.size, "ts").atLeast(x, need)).toBe(w);
      }
    }
  });
});
