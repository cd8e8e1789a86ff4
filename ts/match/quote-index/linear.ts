/** The linear pass of the search: chunked scans over word segments, threshold levels best first, checking the time budget between chunks. */
import { type ChunkScan } from "./backend.js";
import { Budget, Pacer } from "./budget.js";
import { aboveOf, rankHits } from "./rank.js";
import { searchPaths } from "./tuning.js";
import { type IndexedQuote, type IndexedText, type WindowHit } from "./types.js";

/**
 * A word range [from, to) of one source and the threshold `t` it has been searched at completely
 * (every window ending in it with ratio ≥ t is known; Infinity: not searched yet).
 */
interface Segment {
  from: number;
  to: number;
  t: number;
}

/** One segment per source searched (every source, or `onlySource`), each searched at `t`. */
export function wholeSegments(ix: IndexedText, onlySource: number, t: number): Segment[] {
  const out: Segment[] = [];
  for (let s = 0; s + 1 < ix.sourceWords.length; s++) {
    if (onlySource >= 0 && s !== onlySource) continue;
    if (ix.sourceWords[s + 1] > ix.sourceWords[s]) out.push({ from: ix.sourceWords[s], to: ix.sourceWords[s + 1], t });
  }
  return out;
}

/**
 * Thresholds the linear search of `linearBest` steps down through when the k-th best span is
 * unknown: the pass costs little above ~0.7 and grows steeply below (bounds 2–4 stop pruning and
 * difflib runs on most windows: measured on the bundled books, a 20-word quote took 0.5 s at 0.5
 * and 12 s at 0.4), so a search whose k-th span scores ≥ L stops after the pass at L.
 */
export const LEVELS = [0.7, 0.5, 0.45, 0.4, 0.35, 0.3, 0.25, 0.2, 0.15, 0.1, 0.05];

/**
 * The first `limit` spans of the full answer at `minRatio` (rankHits order and overlap rule), by
 * linear passes over the segments (`scanChunked`), best first. Proof (as searchBest's "why a higher
 * threshold is enough"): let Tmax be the largest threshold any segment was searched at; every
 * window ≥ Tmax is then in `found` (a segment searched at t ≤ Tmax holds all its windows ≥ t), so
 * the windows of `found` ≥ Tmax are a prefix of the full order and their greedy pass gives the
 * first spans of the full answer: when it keeps `limit`, that is the answer. Else the next pass
 * runs at a lower threshold: the k-th kept ratio of all of `found` (it is < Tmax: the greedy pass
 * over `found` keeps < k spans ≥ Tmax), or the next of LEVELS below Tmax when that is higher, never
 * below minRatio; segments searched above it are searched again (windows found twice count once).
 * Within a pass the threshold rises after each chunk to the k-th kept ratio among the windows
 * found ≥ it: the segments searched after that are searched at the higher threshold, which only
 * raises Tmax. Thresholds fall strictly from pass to pass and are ratios of `found`, LEVELS or
 * minRatio, so the loop ends; at Tmax = minRatio it is the full scan's answer.
 * `t0`: the first pass's threshold (-1: none given, the rule above picks it).
 */
export function linearBest(
  ix: IndexedText, quote: IndexedQuote, found: Map<number, WindowHit>, segments: Segment[], t0: number, minRatio: number,
  limit: number, overlapping: boolean, chunkScan: ChunkScan, budget: Budget,
): WindowHit[] {
  const kth = (t: number) => {
    const kept = rankHits(ix, aboveOf(found, t), overlapping, limit);
    return kept.length >= limit ? kept[limit - 1].ratio : -1;
  };
  const levelBelow = (x: number) => {
    for (const l of LEVELS) if (l < x) return Math.max(l, minRatio);
    return minRatio;
  };
  let T = t0;
  let searchedAt = -Infinity; // the highest threshold any segment is searched at (Infinity: not searched)
  for (const g of segments) searchedAt = Math.max(searchedAt, g.t);
  if (T < 0) T = Math.max(kth(minRatio), levelBelow(searchedAt), minRatio);
  // a first pass far below the top level: start at the top level (cheap), step down from there
  else if (limit !== Infinity && T < LEVELS[0]) T = Math.max(T, Math.min(LEVELS[0], searchedAt));
  for (;;) {
    searchPaths.passes++;
    segments = scanChunked(ix, quote, segments, T, chunkScan, budget, limit === 1, (hits, t) => {
      for (const h of hits) found.set(h.word * 256 + h.size, h);
      if (limit === Infinity) return t;
      return Math.max(t, kth(t));
    });
    let tMax = minRatio;
    for (const g of segments) tMax = Math.max(tMax, g.t);
    const ranked = rankHits(ix, aboveOf(found, tMax), overlapping, limit);
    if (ranked.length >= limit || tMax <= minRatio) return ranked;
    T = Math.max(kth(minRatio), levelBelow(tMax), minRatio);
  }
}

/**
 * Search `segments` at threshold t (those already searched at ≤ t are kept as they are): each one
 * in chunks of words [a, b) (windows ending there; phase A from a − n − 1), sized by a `Pacer` so a
 * chunk takes ~CHUNK_MS; after each, `onChunk(hits, t)` gives the threshold for the next chunk (≥ t)
 * and the budget is checked. `raise` (limit 1): within a chunk each window found raises t (the WASM
 * scan's `raise`; exact for one span: a window ≥ the final t is never skipped). Returns the segments
 * with the threshold each part was searched at.
 */
function scanChunked(
  ix: IndexedText, quote: IndexedQuote, segments: Segment[], t: number, chunkScan: ChunkScan, budget: Budget, raise: boolean,
  onChunk: (hits: WindowHit[], t: number) => number,
): Segment[] {
  const n = quote.words;
  const out: Segment[] = [];
  let total = 0, done = 0;
  for (const g of segments) if (g.t > t) total += g.to - g.from;
  const pace = new Pacer(quote.ids.length, t);
  for (const g of segments) {
    if (g.t <= t) {
      out.push(g);
      continue;
    }
    // the segment's source: phase A may start before the segment but never before its source
    let lo = 0, hi = ix.sourceWords.length - 2;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (ix.sourceWords[mid] <= g.from) lo = mid;
      else hi = mid - 1;
    }
    const first = ix.sourceWords[lo];
    // no window ends before its source's word n − 3 (sizes ≥ n − 2): words before it cost nothing, so
    // the pacer counts (and sizes chunks in) the words after it
    const firstEnd = first + Math.max(1, n - 2) - 1;
    for (let a = g.from; a < g.to; ) {
      const b = Math.min(g.to, Math.max(a, firstEnd) + pace.words);
      const start = budget.now();
      // a chunk the WASM scan cut short at its work cap ends at `reached` (> a): the next one goes on from there
      const { hits, reached } = chunkScan(Math.max(first, a - n - 1), a, b, t, raise);
      pace.done(reached - Math.max(a, firstEnd), budget.now() - start);
      searchPaths.chunks++;
      let t1 = t;
      if (raise) for (const h of hits) t1 = Math.max(t1, h.ratio);
      out.push({ from: a, to: reached, t: t1 });
      done += reached - a;
      t = onChunk(hits, t1);
      a = reached;
      budget.check(done, total, t, "words");
    }
  }
  return out;
}
