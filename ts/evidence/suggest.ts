/**
 * Similarity suggestions for stale and lost citations (`citationStatus`), through a
 * candidate index built once per version and kind.
 *
 * The contract (unchanged): among the fragments of the citation's kind (all fragments when it
 * has none), every fragment whose score — difflib's ratio `2·M / (|a|+|b|)` of the
 * whitespace-normalized texts over code points (`sequenceRatio`) — is ≥ `minRatio`, sorted by
 * score (highest first) then document order, the first `max` of them.
 *
 * The index skips fragments that cannot be in that answer without scoring them. For a candidate
 * text a and the cited text b (lengths in code points, total T = |a| + |b|), difflib's matching
 * characters M satisfy
 *
 *   M ≤ I = Σ_c min(count_a(c), count_b(c))   (the matching blocks pair equal characters, each
 *                                              character of a and of b in at most one block)
 *   I ≤ min(|a|, |b|)
 *
 * so score = 2M/T ≤ 2I/T (difflib's `quick_ratio`) ≤ 2·min(|a|,|b|)/T (`real_quick_ratio`), and
 * the three are computed with the same expression `2x/T` in doubles, so the order holds for the
 * computed values too (division by the same positive T is monotone). Hence:
 *
 * 1. Length range. 2·min(|a|,|b|)/T ≥ minRatio only for |a| in [|b|·r/(2−r), |b|·(2−r)/r]
 *    (r = minRatio); the fragments of a kind are kept sorted by length and only those in a
 *    slightly wider range (rounded outwards) are looked at, each still tested with the exact
 *    bound, so the range only saves work and never drops a fragment the bound would keep.
 * 2. Multiset bound. A fragment with quick_ratio < minRatio scores < minRatio: skipped.
 * 3. Best first. The rest are scored in order of decreasing quick_ratio; once `max` fragments
 *    are scored ≥ minRatio, a fragment whose quick_ratio is < the lowest of the best `max` scores
 *    so far scores below all of them and cannot enter the answer (it would sort after them
 *    whatever its document order: its score is strictly lower), so the scan stops.
 * 4. LCS bound. The matching blocks lie in increasing order in both texts, so they form a common
 *    subsequence: M ≤ LCS(a, b), and score ≤ 2·LCS/T (same expression, same T). With `need` the
 *    least M whose score is ≥ minRatio (and ≥ the lowest of the best `max` once there are `max`;
 *    `leastMatches`), a fragment whose LCS is < `need` is skipped: its score is below that bar
 *    (equivalently 2·LCS/T < bar: `need` is the least integer with 2·need/T ≥ bar). The LCS
 *    is bit-parallel (ts/match/lcs-bound.ts: WASM, 64 positions a word, or the TS twin, 30) and
 *    answers only that question: the LCS when it is ≥ `need`, else a number below `need` (over the
 *    diagonal band every common subsequence of length ≥ `need` lies in, stopped once a bound of it
 *    is below `need`: `lcsAtLeast`, where both are proved), so the same skip. It is computed when both texts are at
 *    most LCS_TEXT_MAX code points (LCS_TEXT_MAX_WASM on WASM) and the quick_ratio is below
 *    LCS_SKIP_QUICK_RATIO (near-copies, which it does not reject); the others go straight to 5.
 * 5. Early stop. The exact M is counted by difflib's recursion (`matchingCharactersLong`, the
 *    same M as `sequenceRatio`'s; on WASM a small pair goes whole to the kernel's difflib DP, the
 *    same M: ts/match/lcs-bound.ts `matching`), told the least M that could still enter the answer (score ≥
 *    minRatio, and ≥ the lowest of the best `max` once there are `max`); it stops once the blocks
 *    found plus, per part still to search, the shorter of its ranges fall below that, which bounds
 *    M from above. A fragment with score equal to the lowest of the best `max` is still scored in
 *    full (it may enter by document order).
 * An entry's length is counted from the fragment's text without normalizing it (`normalizedLength`);
 * its normalized text and character counts are made when it is first within a cited text's length
 * range (the cited text's code points are interned first, so an id means one code point for every
 * text of the version); that changes no number above.
 * Every fragment that can be in the answer is scored exactly, and the answer is sorted by the
 * same key as before, so the result is the linear scan's, fragment for fragment and score for
 * score (test/evidence/citation-suggest.test.ts compares them over real histories, and the WASM
 * and TS backends, which differ in LCS_TEXT_MAX, over whole version pairs; test/match/long-ratio.test.ts
 * compares `matchingCharactersLong` with the DP and `lcsOf` with a textbook LCS;
 * test/match/lcs-bound.test.ts the LCS bound's two backends with each other and a textbook LCS).
 */
import type { Fragment, FragmentKind } from "./fragment/index.js";
import { normalizedLength, normalizeWhitespace } from "./text.js";
import { createLcsBound, type LcsBound } from "../match/index.js";

/** A fragment as the index holds it: normalized text, code-point length, character counts. */
interface Entry {
  fragment: Fragment;
  /**
   * `normalizeWhitespace(fragment.text)`: null until the entry is first counted (the length range
   * and the order read only `length`, and most entries are never counted).
   */
  text: string | null;
  /** Code points of the normalized text (`normalizedLength`: counted without building it). */
  length: number;
  /**
   * Distinct code points of `text` (interned ids of the version) and their counts, side by side;
   * null until the entry is first within a cited text's length range (most never are).
   */
  ids: Int32Array | null;
  counts: Int32Array | null;
  /** `text` as interned ids, one per code point (kept while the index holds at most SEQ_CACHE_BUDGET of them). */
  seq: Int32Array | null;
}

/**
 * The id sequences the index keeps, in code points (4 bytes each: 16 MiB): an entry counted while
 * the index holds fewer keeps its sequence; later ones are decoded again each time they are scored.
 */
const SEQ_CACHE_BUDGET = 1 << 22;
/**
 * A candidate whose multiset bound (quick_ratio) is at least this goes straight to the exact count
 * (5. in the header), without the LCS bound (4.): the LCS bound only saves work when it rejects,
 * and pairs whose characters agree this closely are nearly always near-copies, where it rejects
 * nothing and costs more than the exact count (difflib's blocks are long). Which path runs changes
 * no result: both skip only what cannot enter the answer. Of the pairs at ≥ 0.95 that reached the
 * LCS bound over the shared histories, it rejected none of 610 (system-design-primer; their LCS
 * bounds ~0.3 s of a 2.7 s whole-history run) and 1 of 1,247 (awesome; ~0.25 s).
 */
const LCS_SKIP_QUICK_RATIO = 0.95;
/**
 * The LCS bound is computed on the TS backend when the cited text and the candidate have at most
 * this many code points (≤ 0.56 M word steps); longer pairs go straight to the exact count with
 * its early stop, which on the shared histories rejects long unrelated sections for less than the
 * LCS costs (whole-history CPU at 16384 / 4096 / 2048 / 1024: system-design-primer 16.3 / 10.3 /
 * 12.2 / 11.1 s, awesome 14.3 / 8.5 / 7.2 / 8.3 s, one noisy run each on a shared machine).
 */
const LCS_TEXT_MAX = 4096;
/**
 * The same limit on the WASM backend (≤ 16.8 M word steps of 64 positions): there the LCS rejects
 * the long sections of the shared histories whose score is just below minRatio (11,000–20,000 code
 * points, M within a few % of the bar) for less than the exact count spends to find M; past it, the
 * long texts left are mostly versions of one section (the score near 1: the LCS rejects nothing)
 * — system-design-primer, whole-history CPU at 16384 / 32768 / unlimited: 6.1 / 5.9 / 17.7 s,
 * one noisy run each, before the lazy counts.
 */
const LCS_TEXT_MAX_WASM = 32768;

function lcsTextMax(lcs: LcsBound): number {
  return lcs.backend === "wasm" ? LCS_TEXT_MAX_WASM : LCS_TEXT_MAX;
}

/** The candidates of one kind (or of every kind: key ""), sorted by length then document order. */
interface KindList {
  entries: Entry[];
  lengths: Float64Array;
}

/** The suggestion index of one version: entries per kind, built on first use. */
export interface SuggestIndex {
  /** Code point → interned id (ids 0, 1, 2, … in order of first use). */
  readonly alphabet: Map<number, number>;
  /** The ids of code points below 128, -1 for none yet (the alphabet's fast path). */
  readonly ascii: Int32Array;
  readonly byKind: Map<string, KindList>;
  readonly entries: Map<Fragment, Entry>;
  /** Counts by id while one text is counted (zero between uses), grown with the alphabet. */
  scratch: Int32Array;
  /** Code points of the id sequences kept in entries (at most SEQ_CACHE_BUDGET). */
  seqKept: number;
}

export function createSuggestIndex(): SuggestIndex {
  return { alphabet: new Map(), ascii: new Int32Array(128).fill(-1), byKind: new Map(), entries: new Map(), scratch: new Int32Array(256), seqKept: 0 };
}

/** The interned id of code point `cp` (a new one when the version has not met it). */
function intern(ix: SuggestIndex, cp: number): number {
  if (cp < 128) {
    const id = ix.ascii[cp];
    if (id >= 0) return id;
  }
  let id = ix.alphabet.get(cp);
  if (id === undefined) {
    ix.alphabet.set(cp, (id = ix.alphabet.size));
    if (cp < 128) ix.ascii[cp] = id;
  }
  return id;
}

/** The entry's normalized text, made (and kept) on first use. */
function textOf(e: Entry): string {
  return (e.text ??= normalizeWhitespace(e.fragment.text));
}

function entryOf(ix: SuggestIndex, f: Fragment): Entry {
  let e = ix.entries.get(f);
  if (e) return e;
  e = { fragment: f, text: null, length: normalizedLength(f.text), ids: null, counts: null, seq: null };
  ix.entries.set(f, e);
  return e;
}

/**
 * Fill `e`'s interned ids and counts (and its id sequence when it is kept): one pass over the
 * text. Returns the id sequence.
 */
function countEntry(ix: SuggestIndex, e: Entry): Int32Array {
  const seq = new Int32Array(e.length);
  const touched: number[] = [];
  let scratch = ix.scratch;
  let k = 0;
  const text = textOf(e);
  for (let i = 0; i < text.length; i++) {
    let cp = text.charCodeAt(i);
    if (cp >= 0xd800 && cp <= 0xdbff && i + 1 < text.length) {
      const v = text.charCodeAt(i + 1);
      if (v >= 0xdc00 && v <= 0xdfff) {
        cp = ((cp - 0xd800) << 10) + (v - 0xdc00) + 0x10000;
        i++;
      }
    }
    const id = intern(ix, cp);
    if (id >= scratch.length) {
      const grown = new Int32Array(Math.max(2 * scratch.length, id + 1));
      grown.set(scratch);
      ix.scratch = scratch = grown;
    }
    if (scratch[id]++ === 0) touched.push(id);
    seq[k++] = id;
  }
  const ids = Int32Array.from(touched);
  const counts = new Int32Array(ids.length);
  for (let j = 0; j < ids.length; j++) {
    counts[j] = scratch[ids[j]];
    scratch[ids[j]] = 0;
  }
  e.ids = ids;
  e.counts = counts;
  if (ix.seqKept + e.length <= SEQ_CACHE_BUDGET) {
    e.seq = seq;
    ix.seqKept += e.length;
  }
  return seq;
}

function listOf(ix: SuggestIndex, fragments: readonly Fragment[], kind: FragmentKind | undefined): KindList {
  const key = kind ?? "";
  let list = ix.byKind.get(key);
  if (list) return list;
  const entries: Entry[] = [];
  for (const f of fragments) if (!kind || f.kind === kind) entries.push(entryOf(ix, f));
  // stable: equal lengths keep document order
  entries.sort((a, b) => a.length - b.length);
  list = { entries, lengths: Float64Array.from(entries, (e) => e.length) };
  ix.byKind.set(key, list);
  return list;
}

/** The interned ids of `text` (every code point interned: the cited text's own are ids of the version from then on). */
function idsOf(ix: SuggestIndex, text: string, length: number): Int32Array {
  const out = new Int32Array(length);
  let k = 0;
  for (const ch of text) out[k++] = intern(ix, ch.codePointAt(0)!);
  return out;
}

function seqOf(ix: SuggestIndex, e: Entry): Int32Array {
  if (e.seq) return e.seq;
  return idsOf(ix, textOf(e), e.length);
}

/** The least integer M with (2·M)/total ≥ ratio, as the score is computed (total > 0). */
function leastMatches(ratio: number, total: number): number {
  if (!(ratio > 0)) return 0;
  if (ratio > 1) return total + 1; // more than any M: no score reaches it
  let m = Math.max(0, Math.ceil((ratio * total) / 2));
  while (m > 0 && (2 * (m - 1)) / total >= ratio) m--;
  while ((2 * m) / total < ratio) m++;
  return m;
}

/** First index of `xs` (ascending) with a value ≥ x. */
function lowerBound(xs: Float64Array, x: number): number {
  let lo = 0, hi = xs.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (xs[mid] < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Scored candidate (the public Candidate shape). */
export interface Scored {
  fragment: Fragment;
  score: number;
}

/**
 * The suggestions for a cited text: see the header for the contract and why the skips are exact.
 * `kind` undefined = every kind.
 */
export function suggestFrom(
  ix: SuggestIndex, fragments: readonly Fragment[], kind: FragmentKind | undefined,
  citedText: string, max: number, minRatio: number,
): Scored[] {
  const list = listOf(ix, fragments, kind);
  const want = normalizeWhitespace(citedText);
  const lb = normalizedLength(citedText); // as the entries' lengths are counted
  // the cited text's code points are interned (ids of the version from then on): an entry counted
  // later that holds one of them shares its id
  const wantSeq = idsOf(ix, want, lb);
  const wantCounts = new Int32Array(ix.alphabet.size);
  for (let j = 0; j < lb; j++) wantCounts[wantSeq[j]]++;
  const alphabetSize = ix.alphabet.size; // ids ≥ this are not in the cited text
  // the length range, rounded outwards (the exact bound is applied to each entry below)
  let from = 0, to = list.entries.length;
  if (minRatio > 0 && minRatio < 2) {
    from = lowerBound(list.lengths, Math.floor((lb * minRatio) / (2 - minRatio)) - 1);
    to = lowerBound(list.lengths, Math.ceil((lb * (2 - minRatio)) / minRatio) + 2);
  }
  const open: { e: Entry; bound: number }[] = [];
  for (let k = from; k < to; k++) {
    const e = list.entries[k];
    const total = e.length + lb;
    if (total === 0) {
      open.push({ e, bound: 1 });
      continue;
    }
    if ((2 * Math.min(e.length, lb)) / total < minRatio) continue; // real_quick_ratio
    if (!e.ids) countEntry(ix, e);
    let inter = 0;
    const ids = e.ids!, counts = e.counts!;
    for (let j = 0; j < ids.length; j++) {
      if (ids[j] >= alphabetSize) continue; // not in the cited text
      const w = wantCounts[ids[j]];
      inter += w < counts[j] ? w : counts[j];
    }
    const bound = (2 * inter) / total; // quick_ratio
    if (bound < minRatio) continue;
    open.push({ e, bound });
  }
  open.sort((a, b) => b.bound - a.bound);
  const scored: Scored[] = [];
  // the best `max` scores so far, ascending (top[0] = the lowest of them)
  const top: number[] = [];
  let lcs: LcsBound | null = null;
  for (const { e, bound } of open) {
    if (top.length === max && bound < top[0]) break;
    const seq = seqOf(ix, e);
    const total = lb + e.length;
    let score = 1; // two empty texts: difflib's ratio is 1
    if (total > 0) {
      // the least M that could enter the answer: score ≥ minRatio, and ≥ the lowest of the best `max` once there are `max`
      const need = leastMatches(top.length === max && top[0] > minRatio ? top[0] : minRatio, total);
      lcs ??= createLcsBound(wantSeq, alphabetSize);
      if (bound < LCS_SKIP_QUICK_RATIO && lb <= lcsTextMax(lcs) && e.length <= lcsTextMax(lcs)) {
        // the LCS bound (4. in the header): below `need`, it cannot enter
        if (lcs.atLeast(seq, need) < need) continue;
      }
      // the exact count (5. in the header) stops below `need`
      const matches = lcs.matching(seq, need);
      if (matches < need) continue;
      score = (2 * matches) / total;
    }
    if (!(score >= minRatio)) continue;
    scored.push({ fragment: e.fragment, score });
    if (top.length < max) {
      top.push(score);
      top.sort((a, b) => a - b);
    } else if (score > top[0]) {
      top[0] = score;
      top.sort((a, b) => a - b);
    }
  }
  scored.sort((a, b) => b.score - a.score || a.fragment.sequence - b.fragment.sequence);
  return scored.slice(0, max);
}
