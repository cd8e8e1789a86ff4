/**
 * Near misses for an unknown name: `closest` (Levenshtein, a transposition counted as one edit).
 */
import { levenshtein } from "../../deps/levenshtein.js";

/**
 * Up to 3 names within edit distance 2 (3 for names of 12+ characters), best first.
 * Distance: Levenshtein (fastest-levenshtein) — except that a swap of two neighbouring
 * characters counts as one edit (optimal string alignment), because a typed near miss
 * is as often a transposition as a wrong letter. A case-only difference counts as near.
 * Ties: the longer common prefix, then the closer length, then by code unit order.
 */
export function closest(word: string, pool: string[], options: { variables?: boolean } = {}): string[] {
  const limit = word.length >= 12 ? 3 : 2;
  const scored: [number, number, number, string][] = [];
  const lower = word.toLowerCase();
  const distance = levenshtein();
  for (const w of pool) {
    if (w === word) continue;
    if (Math.abs(w.length - word.length) > limit) continue;
    let d = distance(word, w);
    // OSA ≥ Levenshtein / 2, so only pairs within 2×limit can still be near with swaps
    if (d > limit && d <= 2 * limit) d = Math.min(d, osaDistance(word, w));
    if (d > limit) {
      if (w.toLowerCase() === lower) d = limit;
      else continue;
    }
    // a variable name of one or two letters is "near" every other: only suggest a real near miss
    if (options.variables && d * 2 >= word.length) continue;
    let prefix = 0;
    while (prefix < w.length && prefix < word.length && w[prefix] === word[prefix]) prefix++;
    scored.push([d, -prefix, Math.abs(w.length - word.length), w]);
  }
  scored.sort((a, b) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2] || (a[3] < b[3] ? -1 : a[3] > b[3] ? 1 : 0));
  return [...new Set(scored.map((s) => s[3]))].slice(0, 3);
}

/** Optimal string alignment distance (Levenshtein plus adjacent transposition), O(|a|·|b|), over UTF-16 code units. */
function osaDistance(a: string, b: string): number {
  const n = a.length;
  const m = b.length;
  let prev2 = new Array<number>(m + 1).fill(0);
  let prev = Array.from({ length: m + 1 }, (_, j) => j);
  let cur = new Array<number>(m + 1).fill(0);
  for (let i = 1; i <= n; i++) {
    cur[0] = i;
    for (let j = 1; j <= m; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, prev2[j - 2] + 1);
      cur[j] = v;
    }
    [prev2, prev, cur] = [prev, cur, prev2];
  }
  return prev[m];
}
