/**
 * The linear scan of the quote index (the TS twin of assembly/quote-index/scan.ts): every window
 * of a word range whose difflib ratio vs the quote is ≥ minRatio, skipping a window only on a
 * proven upper bound below minRatio.
 *
 * Bounds, cheapest first, per window W (la characters) and quote b (lb):
 * 1. real_quick_ratio: M ≤ min(la, lb), so ratio ≤ 2·min(la, lb)/(la+lb).
 * 2. Semi-global edit distance (Myers 1999, block form as in edlib): one
 *    bit-parallel pass over each text gives, after every character e,
 *    E(e) = min over substrings X ending at e of Levenshtein(X, b). For W
 *    ending at e: the matching blocks of difflib form a common subsequence,
 *    so M ≤ LCS(W, b); the indel distance la + lb − 2·LCS(W, b) is the cost
 *    of an edit script without substitutions, hence ≥ Levenshtein(W, b) ≥ E(e).
 *    So 2·M ≤ la + lb − E(e) and ratio ≤ (la + lb − E(e))/(la + lb).
 *    This one pass (O(text·⌈lb/w⌉) word operations) is what makes the index
 *    fast: on English text at minRatio 0.8 it leaves almost no window alive
 *    away from a true near-match (character multiset and q-gram counts do not:
 *    docs/moot.md as of commit a7407109ac, "Quote index (locate)"). The WASM
 *    pass cuts a text into 4 lanes run as two i64x2 vectors; each lane restarts
 *    the DP at t0, the start of the earliest window ending in its share, and computes
 *    E_t0(e) = min over X = text[s, e], s ≥ t0, of Levenshtein(X, b); every
 *    window W it bounds starts at s ≥ t0, so E_t0(e) ≤ Levenshtein(W, b) and
 *    the inequality above holds with E_t0 (assembly/quote-index/, phase A).
 * 3. quick_ratio: M ≤ Σ_c min(countW[c], countb[c]) (every matched character
 *    pairs one occurrence of c on each side), ratio ≤ 2·that/(la+lb).
 * 4. (WASM) LCS, bit-parallel (Hyyrö 2004): ratio ≤ 2·LCS(W, b)/(la+lb).
 * Each bound B is a double computed as `x/(la+lb)` with integer x ≥ 2·M, and
 * IEEE division is monotone, so `ratio ≥ minRatio` implies `B ≥ minRatio`:
 * skipping `B < minRatio` never drops a window the exhaustive scan keeps.
 */
import { createMatchScratch, ratioOf, matchingCharacters } from "../sequence-match.js";
import { firstAtLeast } from "./tuning.js";
import { type IndexedQuote, type IndexedText, type WindowHit } from "./types.js";

/**
 * Bit-parallel semi-global Levenshtein (Myers 1999; the block form of edlib's
 * `calculateBlock`) on 32-bit blocks: after `step(c)` for each text character,
 * `score` = min over substrings X ending there of Levenshtein(X, b). Row 0 of
 * the DP is all zeros (a match may start anywhere), so block 0 gets hin = 0.
 */
class Myers {
  readonly blocks: number;
  readonly peq: Int32Array;
  readonly pv: Int32Array;
  readonly mv: Int32Array;
  readonly lastBit: number;
  score = 0;
  constructor(b: Int32Array, alphabetSize: number) {
    this.blocks = (b.length + 31) >>> 5;
    this.peq = new Int32Array(alphabetSize * this.blocks);
    for (let j = 0; j < b.length; j++) this.peq[b[j] * this.blocks + (j >>> 5)] |= 1 << (j & 31);
    this.pv = new Int32Array(this.blocks);
    this.mv = new Int32Array(this.blocks);
    this.lastBit = 1 << ((b.length - 1) & 31);
  }
  /** Start a new text: D[j][0] = j (all vertical deltas +1), score = lb. */
  reset(lb: number): void {
    this.pv.fill(-1);
    this.mv.fill(0);
    this.score = lb;
  }
  /** Advance over text characters chars[from, to); with `marks`, push each p after which score ≤ `limit`. */
  run(chars: Int32Array, from: number, to: number, limit = -1, marks?: number[]): void {
    const blocks = this.blocks, peq = this.peq, pv = this.pv, mv = this.mv, lastBit = this.lastBit;
    let score = this.score;
    if (blocks === 1) {
      let Pv = pv[0], Mv = mv[0];
      for (let p = from; p < to; p++) {
        const Eq = peq[chars[p]];
        const Xv = Eq | Mv;
        const Xh = ((((Eq & Pv) + Pv) | 0) ^ Pv) | Eq;
        const Ph = Mv | ~(Xh | Pv);
        const Mh = Pv & Xh;
        if (Ph & lastBit) score++;
        else if (Mh & lastBit) score--;
        const Ph1 = Ph << 1;
        Pv = (Mh << 1) | ~(Xv | Ph1);
        Mv = Ph1 & Xv;
        if (score <= limit) marks!.push(p);
      }
      pv[0] = Pv;
      mv[0] = Mv;
    } else {
      for (let p = from; p < to; p++) {
        const row = chars[p] * blocks;
        let hin = 0;
        for (let k = 0; k < blocks; k++) {
          const Pv = pv[k], Mv = mv[k];
          let Eq = peq[row + k];
          const Xv = Eq | Mv;
          if (hin < 0) Eq |= 1;
          const Xh = ((((Eq & Pv) + Pv) | 0) ^ Pv) | Eq;
          let Ph = Mv | ~(Xh | Pv);
          let Mh = Pv & Xh;
          const high = k === blocks - 1 ? lastBit : 0x80000000 | 0;
          const hout = Ph & high ? 1 : Mh & high ? -1 : 0;
          Ph <<= 1;
          Mh <<= 1;
          if (hin < 0) Mh |= 1;
          else if (hin > 0) Ph |= 1;
          pv[k] = Mh | ~(Xv | Ph);
          mv[k] = Ph & Xv;
          hin = hout;
        }
        score += hin;
        if (score <= limit) marks!.push(p);
      }
    }
    this.score = score;
  }
}

const la0 = (charStart: Int32Array, e: number, u: number) => e - charStart[u];

/**
 * Windows of one word range, with the bounds of the header: the TS scan's inner loop, run over a
 * whole source (`scanTs`) or over the small ranges the best-first search verifies (`searchBest`).
 * Built once per quote (the Myers pattern, the quote's character counts, difflib's scratch).
 */
export class WindowScanner {
  private readonly myers: Myers;
  private readonly countB: Int32Array;
  private readonly countA: Int32Array;
  private readonly scratch: ReturnType<typeof createMatchScratch>;
  constructor(private readonly ix: IndexedText, private readonly quote: IndexedQuote) {
    const b = quote.ids;
    this.myers = new Myers(b, quote.alphabetSize);
    this.countB = new Int32Array(quote.alphabetSize);
    for (let j = 0; j < b.length; j++) this.countB[b[j]]++;
    this.countA = new Int32Array(quote.alphabetSize);
    this.scratch = createMatchScratch(b.length);
  }
  /**
   * Push to `out` every window lying inside words [w0, w1) (all of one source) whose ratio is
   * ≥ minRatio, with its exact ratio. The Myers pass restarts at w0: every window it bounds starts
   * at or after w0, so E_w0(e) ≤ Levenshtein(W, b) (the header's bound 2, as the WASM lanes use it).
   * Only windows ending at a word ≥ `emitFrom` are scored (a chunk of `scanChunked`: the twin of
   * the WASM qiScanChunk; the earlier ones belong to the chunk before).
   */
  scan(w0: number, w1: number, minRatio: number, out: WindowHit[], raise = false, emitFrom = w0): number {
    const b = this.quote.ids;
    const lb = b.length;
    if (lb === 0 || w1 <= w0) return minRatio; // every ratio is 2·0/la = 0
    const n = this.quote.words;
    const { chars, charStart, charEnd } = this.ix;
    const { myers, countA, countB, scratch } = this;
    const lo = Math.max(1, n - 2);
    myers.reset(lb);
    let p = charStart[w0];
    for (let v = w0; v < w1; v++) {
      const e = charEnd[v];
      myers.run(chars, p, e);
      p = e;
      if (v < emitFrom) continue;
      // bound 2 for the largest window ending at v first: (T − E)/T grows with T, so when it fails
      // for the largest T it fails for every smaller window ending here (and rounding is monotone)
      const widest = la0(charStart, e, Math.max(w0, v - n - 1)) + lb;
      if ((widest - myers.score) / widest < minRatio) continue;
      for (let size = lo; size <= n + 2 && v - size + 1 >= w0; size++) {
        const start = charStart[v - size + 1];
        const la = e - start;
        const total = la + lb;
        if ((2 * Math.min(la, lb)) / total < minRatio) continue; // bound 1: real_quick_ratio
        if ((total - myers.score) / total < minRatio) continue; // bound 2: semi-global edit distance
        let inter = 0;
        for (let i = start; i < e; i++) if (countA[chars[i]]++ < countB[chars[i]]) inter++;
        for (let i = start; i < e; i++) countA[chars[i]] = 0;
        if ((2 * inter) / total < minRatio) continue; // bound 3: quick_ratio
        const ratio = ratioOf(matchingCharacters(chars, start, la, b, lb, scratch), total);
        if (ratio >= minRatio) {
          out.push({ word: v - size + 1, size, ratio });
          if (raise) minRatio = ratio;
        }
      }
    }
    return minRatio;
  }
  /**
   * `scan` over word ranges (pairs [from, to), ascending, disjoint, each inside one source), the
   * threshold carried from range to range: the TS twin of the WASM `qiScanRanges`
   * (assembly/quote-index/scan.ts), same windows in the same order, so `raise` raises alike.
   */
  scanRanges(ranges: Int32Array, minRatio: number, raise: boolean): WindowHit[] {
    const out: WindowHit[] = [];
    for (let r = 0; r + 1 < ranges.length; r += 2) minRatio = this.scan(ranges[r], ranges[r + 1], minRatio, out, raise);
    return out;
  }
}

/** Every window inside `ranges` (as WindowScanner.scanRanges) with ratio ≥ minRatio: the TS backend's range scan. */
export function scanRangesTs(ix: IndexedText, quote: IndexedQuote, ranges: Int32Array, minRatio: number, raise = false): WindowHit[] {
  if (quote.ids.length === 0) return [];
  return new WindowScanner(ix, quote).scanRanges(ranges, minRatio, raise);
}

/**
 * The TS twin of the WASM prefix pass (bindings/quote-index.ts `scanPrefix`; proof at `searchBest`
 * (h)): the semi-global edit distance of b1 = the quote's first m characters over each source
 * (32-bit blocks, from the source's start, so never above the lanes' E_t0), every character e1 with
 * E1(e1) ≤ `limit` marking the words of characters [e1 − m − limit + 1, e1 + (lb − m) + limit]
 * (one word wider at the end), and those ranges scanned with the whole quote. The windows ≥ minRatio,
 * or null when the marks give more than `maxRanges` ranges.
 */
export function scanPrefixTs(
  ix: IndexedText, quote: IndexedQuote, minRatio: number, onlySource: number, m: number, limit: number, maxRanges: number,
): WindowHit[] | null {
  const lb = quote.ids.length;
  if (lb === 0) return [];
  const { chars, charStart, charEnd, sourceWords } = ix;
  const myers = new Myers(quote.ids.subarray(0, m), quote.alphabetSize);
  const ranges: number[] = [];
  const marks: number[] = [];
  for (let s = 0; s + 1 < sourceWords.length; s++) {
    if (onlySource >= 0 && s !== onlySource) continue;
    const w0 = sourceWords[s], w1 = sourceWords[s + 1];
    if (w0 === w1) continue;
    myers.reset(m);
    marks.length = 0;
    myers.run(chars, charStart[w0], charEnd[w1 - 1], limit, marks);
    for (const e1 of marks) {
      const from = firstAtLeast(charStart, w0, w1, e1 - m - limit + 1);
      const to = Math.min(w1, firstAtLeast(charEnd, from, w1, e1 + (lb - m) + limit + 1) + 1);
      if (from >= to) continue;
      const last = ranges.length - 1;
      if (last > 0 && from < ranges[last]) ranges[last] = Math.max(ranges[last], to);
      else ranges.push(from, to);
      if (ranges.length > 2 * maxRanges) return null;
    }
  }
  return new WindowScanner(ix, quote).scanRanges(Int32Array.from(ranges), minRatio, false);
}

/**
 * The TS scan: every window of every source with ratio ≥ minRatio (in no
 * particular order). Bounds 1–3 of the header; survivors get difflib's exact M.
 * O(characters·⌈lb/32⌉) for the edit-distance pass plus O(la·lb) per surviving window.
 */
export function scanTs(ix: IndexedText, quote: IndexedQuote, minRatio: number, onlySource = -1): WindowHit[] {
  const out: WindowHit[] = [];
  if (quote.ids.length === 0) return out; // every ratio is 2·0/la = 0
  const scanner = new WindowScanner(ix, quote);
  const { sourceWords } = ix;
  for (let s = 0; s + 1 < sourceWords.length; s++) {
    if (onlySource >= 0 && s !== onlySource) continue;
    scanner.scan(sourceWords[s], sourceWords[s + 1], minRatio, out);
  }
  return out;
}

/**
 * The exhaustive reference: every window's exact ratio, no bound at all.
 * O(windows·la·lb); for tests and the bench's baseline only.
 */
export function scanExhaustive(ix: IndexedText, quote: IndexedQuote, minRatio: number): WindowHit[] {
  const out: WindowHit[] = [];
  const b = quote.ids;
  const lb = b.length;
  if (lb === 0) return out;
  const n = quote.words;
  const { chars, charStart, charEnd, sourceWords } = ix;
  const scratch = createMatchScratch(lb);
  for (let s = 0; s + 1 < sourceWords.length; s++) {
    const w0 = sourceWords[s];
    const nw = sourceWords[s + 1] - w0;
    for (let size = Math.max(1, n - 2); size <= n + 2 && size <= nw; size++) {
      for (let i = 0; i + size <= nw; i++) {
        const start = charStart[w0 + i];
        const la = charEnd[w0 + i + size - 1] - start;
        const ratio = ratioOf(matchingCharacters(chars, start, la, b, lb, scratch), la + lb);
        if (ratio >= minRatio) out.push({ word: w0 + i, size, ratio });
      }
    }
  }
  return out;
}
