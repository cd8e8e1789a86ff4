// The TS twin of the WASM lanes pass (assembly/quote-index/lanes.ts qiScanLanes): the same marks, ranges
// and windows, scalar, in 32-bit words; the oracle of test/match/quote-index-lanes.test.ts. Kept in
// the test tree: the TS backend's linear pass at T is scanPrefixTs (ts/match/quote-index/scan.ts).
import { __quoteIndexInternals, type IndexedQuote, type IndexedText, type WindowHit } from "../../ts/match/quote-index/index.js";

const { firstAtLeast, WindowScanner } = __quoteIndexInternals;

/**
 * The TS twin of the WASM lanes pass (bindings/quote-index.ts `scanLanes`, assembly/quote-index/lanes.ts
 * `qiScanLanes`; proof at `searchBest` (h), (i) and in the kernel): all texts' characters cut into
 * 16 shares of ⌈C/16⌉, each run from its first character with the semi-global indel distance of
 * b1 = the quote's first m = min(lb, width) characters (width 16 or 32, as the kernel's) over
 * character codes min(id, 254) (the kernel's byte codes); every character e1 scoring ≤ D
 * marks the words of characters [e1 − m − D + 1, e1 + (lb − m) + D] of its text, and so does every
 * character of [c − lb + m − D − 1, c + m + D] around each share's start c (the windows straddling
 * it); those ranges are scanned with the whole quote. (The kernel at 32 bits also drops the runs of
 * marks whose ranges hold nothing within D of the whole quote, markHolds: fewer ranges, the same
 * windows; the twin keeps every mark.) The windows ≥ minRatio (the exhaustive
 * scan's), or null past `maxMarks` marks or `maxRanges` ranges. `slack` widens (or, in the tests,
 * narrows) the runs around the share starts; anything below 0 is unsound, as the tests show.
 */
export function scanLanesTs(
  ix: IndexedText, quote: IndexedQuote, minRatio: number, width: 16 | 32, D: number, maxMarks = Infinity, maxRanges = Infinity, slack = 0,
): WindowHit[] | null {
  const lb = quote.ids.length;
  if (lb === 0) return [];
  const { chars, charStart, charEnd, sourceWords } = ix;
  const C = chars.length;
  if (C === 0) return [];
  const share = (C + 15) >>> 4;
  const m = Math.min(lb, width);
  const code = (id: number) => Math.min(id, 254);
  const peq = new Int32Array(256);
  for (let j = 0; j < m; j++) peq[code(quote.ids[j])] |= 1 << j;
  const top = 1 << (m - 1);
  const marked = new Uint8Array(C);
  let marks = 0;
  for (let l = 0; l < 16; l++) {
    let Pv = -1, Mv = 0, score = m;
    for (let p = l * share, end = Math.min(C, (l + 1) * share); p < end; p++) {
      const Eq = peq[code(chars[p])];
      const Xv = Eq | Mv;
      const Xh = ((((Eq & Pv) + Pv) | 0) ^ Pv) | Eq;
      const Mh = Pv & Xh;
      // the kernel's indel recurrences (assembly/quote-index/lanes.ts): Ph = G | Pr & ((G + (G | Pr)) ^ Pr)
      const G = Mv | ~(Xh | Pv), Pr = Pv & ~Xh;
      const Ph = G | (Pr & ((((G + (G | Pr)) | 0) ^ Pr)));
      if (Ph & top) score++;
      else if (Mh & top) score--;
      const Ps = Ph << 1, Ms = Mh << 1;
      Pv = Ms | (~Xv & (~Ps | Pv));
      Mv = Ps & Xv;
      if (score <= D) {
        marked[p] = 1;
        if (++marks > maxMarks) return null;
      }
    }
  }
  for (let l = 1; l < 16 && l * share < C; l++) {
    const c = l * share;
    for (let p = Math.max(0, c - lb + m - D - 1 - slack), z = Math.min(C - 1, c + m + D + slack); p <= z; p++) marked[p] = 1;
  }
  const ranges: number[] = [];
  for (let s = 0; s + 1 < sourceWords.length; s++) {
    const w0 = sourceWords[s], w1 = sourceWords[s + 1];
    if (w0 === w1) continue;
    const first = ranges.length;
    for (let e1 = charStart[w0], c1 = charEnd[w1 - 1]; e1 < c1; e1++) {
      if (!marked[e1]) continue;
      const from = firstAtLeast(charStart, w0, w1, e1 - m - D + 1);
      const to = Math.min(w1, firstAtLeast(charEnd, from, w1, e1 + (lb - m) + D + 1) + 1);
      if (from >= to) continue;
      const last = ranges.length - 1;
      if (last > first && from < ranges[last]) ranges[last] = Math.max(ranges[last], to);
      else ranges.push(from, to);
      if (ranges.length > 2 * maxRanges) return null;
    }
  }
  return new WindowScanner(ix, quote).scanRanges(Int32Array.from(ranges), minRatio, false);
}

