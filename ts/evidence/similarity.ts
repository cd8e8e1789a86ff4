/**
 * Similarity of a cited text to a candidate fragment, for the suggestions a stale
 * or lost citation carries (never applied automatically).
 *
 * STAND-IN: the quote matcher's ratio (`sequenceRatio`, difflib's
 * `SequenceMatcher(None, a, b, autojunk=False).ratio()`, from ts/moot) was not yet
 * exported when this part was written, and parts must not reach into each other's
 * internals. Until it is, the score is the Indel ratio `2·LCS(a, b) / (|a| + |b|)`
 * over code points (RapidFuzz `fuzz.ratio` / 100), computed with Hyyrö's
 * bit-parallel LCS in O(⌈|a|/32⌉·|b|). It is an upper bound of difflib's ratio
 * (difflib's matching blocks are a common subsequence, not always a longest one)
 * and equals it whenever difflib's greedy blocks are a longest common subsequence,
 * which is the usual case for prose edits. Both are 1 for equal strings.
 */

/** The two cheap upper bounds difflib itself offers, then the score. */
export function similarityRatio(a: string, b: string): number {
  const x = Array.from(a);
  const y = Array.from(b);
  const total = x.length + y.length;
  if (total === 0) return 1;
  return (2 * lcsLength(x, y)) / total;
}

/**
 * difflib's `real_quick_ratio`: `2·min(|a|,|b|) / (|a|+|b|)` over code points, an
 * upper bound of any ratio above; used to skip hopeless candidates before scoring.
 */
export function ratioUpperBound(aLength: number, bLength: number): number {
  const total = aLength + bLength;
  return total === 0 ? 1 : (2 * Math.min(aLength, bLength)) / total;
}

/** Length of a longest common subsequence of two code-point arrays (Hyyrö 2004, multiword). */
function lcsLength(a: string[], b: string[]): number {
  if (a.length === 0 || b.length === 0) return 0;
  if (a.length > b.length) [a, b] = [b, a];
  const m = a.length;
  const words = Math.ceil(m / 32);
  const peq = new Map<string, Uint32Array>();
  for (let i = 0; i < m; i++) {
    let row = peq.get(a[i]);
    if (!row) peq.set(a[i], (row = new Uint32Array(words)));
    row[i >>> 5] |= 1 << (i & 31);
  }
  // V: a 1 bit at position i means a[i] is not (yet) matched; V' = (V + (V & M)) | (V & ~M).
  const v = new Uint32Array(words).fill(0xffffffff);
  const zero = new Uint32Array(words);
  for (const ch of b) {
    const match = peq.get(ch) ?? zero;
    let carry = 0;
    for (let w = 0; w < words; w++) {
      const vw = v[w];
      const u = (vw & match[w]) >>> 0;
      const sum = vw + u + carry; // up to 2^33 - 1: exact in a double
      carry = sum > 0xffffffff ? 1 : 0;
      v[w] = ((sum >>> 0) | (vw & ~match[w])) >>> 0;
    }
  }
  let unmatched = 0;
  for (let i = 0; i < m; i++) if (v[i >>> 5] & (1 << (i & 31))) unmatched++;
  return m - unmatched;
}
