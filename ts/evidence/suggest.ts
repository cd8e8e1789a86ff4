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
 *    subsequence: M ≤ LCS(a, b), and score ≤ 2·LCS/T (same expression, same T). A fragment whose
 *    LCS bound is < minRatio, or (with `max` scored) < the lowest of the best `max`, is skipped.
 *    LCS is bit-parallel (ts/match/sequence-match.ts, |a|·⌈|b|/30⌉ word steps), computed when both
 *    texts are at most LCS_TEXT_MAX code points; longer ones go straight to 5.
 * 5. Early stop. The exact M is counted by difflib's recursion (`matchingCharactersLong`, the
 *    same M as `sequenceRatio`'s), told the least M that could still enter the answer (score ≥
 *    minRatio, and ≥ the lowest of the best `max` once there are `max`); it stops once the blocks
 *    found plus, per part still to search, the shorter of its ranges fall below that, which bounds
 *    M from above. A fragment with score equal to the lowest of the best `max` is still scored in
 *    full (it may enter by document order).
 * Every fragment that can be in the answer is scored exactly, and the answer is sorted by the
 * same key as before, so the result is the linear scan's, fragment for fragment and score for
 * score (test/evidence/citation-suggest.test.ts compares them over real histories; test/match/long-ratio.test.ts
 * compares `matchingCharactersLong` with the DP and `lcsOf` with a textbook LCS).
 */
import type { Fragment, FragmentKind } from "./fragment/index.js";
import { normalizeWhitespace } from "./text.js";
import { createLcsRun, lcsOf, matchingCharactersLong, type LcsRun } from "../match/index.js";

/** A fragment as the index holds it: normalized text, code-point length, character counts. */
interface Entry {
  fragment: Fragment;
  text: string;
  length: number;
  /** Distinct code points of `text` (interned ids of the version) and their counts, side by side. */
  ids: Int32Array;
  counts: Int32Array;
  /** `text` as interned ids, one per code point (kept for texts of at most SEQ_CACHE_MAX code points). */
  seq: Int32Array | null;
}

/** Texts up to this many code points keep their id sequence in the index (longer ones are re-read when scored). */
const SEQ_CACHE_MAX = 4096;
/**
 * The LCS bound is computed when the cited text and the candidate have at most this many code
 * points (≤ 0.56 M word steps); longer pairs go straight to the exact count with its early stop,
 * which on the shared histories rejects long unrelated sections for less than the LCS costs
 * (whole-history CPU at 16384 / 4096 / 2048 / 1024: system-design-primer 16.3 / 10.3 / 12.2 /
 * 11.1 s, awesome 14.3 / 8.5 / 7.2 / 8.3 s, one noisy run each on a shared machine).
 */
const LCS_TEXT_MAX = 4096;

/** The candidates of one kind (or of every kind: key ""), sorted by length then document order. */
interface KindList {
  entries: Entry[];
  lengths: Float64Array;
}

/** The suggestion index of one version: entries per kind, built on first use. */
export interface SuggestIndex {
  readonly alphabet: Map<number, number>;
  readonly byKind: Map<string, KindList>;
  readonly entries: Map<Fragment, Entry>;
}

export function createSuggestIndex(): SuggestIndex {
  return { alphabet: new Map(), byKind: new Map(), entries: new Map() };
}

function entryOf(ix: SuggestIndex, f: Fragment): Entry {
  let e = ix.entries.get(f);
  if (e) return e;
  const text = normalizeWhitespace(f.text);
  const counts = new Map<number, number>();
  let length = 0;
  for (const ch of text) {
    length++;
    const cp = ch.codePointAt(0)!;
    let id = ix.alphabet.get(cp);
    if (id === undefined) ix.alphabet.set(cp, (id = ix.alphabet.size));
    counts.set(id, (counts.get(id) ?? 0) + 1);
  }
  const ids = new Int32Array(counts.size);
  const cs = new Int32Array(counts.size);
  let k = 0;
  for (const [id, c] of counts) {
    ids[k] = id;
    cs[k++] = c;
  }
  e = { fragment: f, text, length, ids, counts: cs, seq: null };
  ix.entries.set(f, e);
  return e;
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

/** The interned ids of `text` (-1 for a code point the version does not hold: it equals no id). */
function idsOf(ix: SuggestIndex, text: string, length: number): Int32Array {
  const out = new Int32Array(length);
  let k = 0;
  for (const ch of text) out[k++] = ix.alphabet.get(ch.codePointAt(0)!) ?? -1;
  return out;
}

function seqOf(ix: SuggestIndex, e: Entry): Int32Array {
  if (e.seq) return e.seq;
  const seq = idsOf(ix, e.text, e.length);
  if (e.length <= SEQ_CACHE_MAX) e.seq = seq;
  return seq;
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
  const wantCounts = new Int32Array(ix.alphabet.size + 1);
  let lb = 0;
  for (const ch of want) {
    lb++;
    const id = ix.alphabet.get(ch.codePointAt(0)!);
    if (id !== undefined) wantCounts[id]++;
  }
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
    let inter = 0;
    const { ids, counts } = e;
    for (let j = 0; j < ids.length; j++) {
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
  const wantSeq = open.length ? idsOf(ix, want, lb) : null;
  let lcs: LcsRun | null = null;
  for (const { e, bound } of open) {
    if (top.length === max && bound < top[0]) break;
    const seq = seqOf(ix, e);
    const total = lb + e.length;
    if (lb <= LCS_TEXT_MAX && e.length <= LCS_TEXT_MAX && total > 0) {
      lcs ??= createLcsRun(wantSeq!, ix.alphabet.size);
      // the LCS bound (4. in the header): below minRatio, or below all of the best `max`, it cannot enter
      const lcsBound = (2 * lcsOf(lcs, seq)) / total;
      if (lcsBound < minRatio || (top.length === max && lcsBound < top[0])) continue;
    }
    let score = 1; // two empty texts: difflib's ratio is 1
    if (total > 0) {
      // the least M that could enter the answer (5. in the header): the exact count stops below it
      const need = leastMatches(top.length === max && top[0] > minRatio ? top[0] : minRatio, total);
      const matches = matchingCharactersLong(wantSeq!, seq, need);
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
