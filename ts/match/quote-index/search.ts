/** The best-first search behind `locate(quote, {limit})` and bestSpan's pre-pass, with the proofs of every filter it uses ((a)–(j) below). */
import { type ChunkScan, type LanesScan, type PrefixScan, type RangeScan } from "./backend.js";
import { Budget, NO_BUDGET, Pacer } from "./budget.js";
import { gramRanges } from "./grams.js";
import { linearBest, wholeSegments } from "./linear.js";
import { choosePieces, type Piece, spaceFreeKeys, SUFFIX, type SuffixIndex, suffixIndexOf } from "./pieces.js";
import { aboveOf, rankHits, verbatim, verbatimByChars } from "./rank.js";
import { WindowScanner } from "./scan.js";
import { CHECK_COST, EXTRA_PIECES, FILTER_SHARE, firstAtLeast, LINEAR_COST_TS, LIST_COST, LIST_COST_SORTED, LIST_SHARE, PHRASE_WALK, REGION_SHARE_TS, REGION_SHARE_WASM, searchPaths, SEED_OCCURRENCES, tuning } from "./tuning.js";
import { type IndexedQuote, type PostedText, type WindowHit } from "./types.js";

/**
 * Best-first search for `locate(quote, {limit: k})` (and bestSpan's winner, k = 1): the answer
 * of the full scan at `minRatio`, found by verifying a few word ranges instead of the whole
 * corpus when a good window turns up early.
 *
 * Why a higher threshold is enough. `rankHits` sorts windows by (ratio desc, source, size,
 * start), a total order, and keeps a window unless it shares a word with one kept before it
 * (unless `overlapping`). The windows with ratio ≥ T are a prefix of that order, and the greedy
 * pass decides each window from the windows before it only; so when the windows ≥ T alone give
 * k kept spans, those k are the first k of the full answer. Ties are safe: every window whose
 * ratio equals T is in the prefix, and the order among them is bestSpan's. T is taken as the k-th
 * kept ratio among windows already verified (seeds: verbatim hits, ranges around the quote's
 * rarest words); after the complete search at T, if fewer than k spans are kept (a better window
 * found later can shadow two kept ones), the search falls back to the full scan at `minRatio`.
 *
 * The complete search at T: a pigeonhole filter over the quote's words when it applies, else the
 * linear pass (`linearBest` at T: the chunked scan, WASM or TS). Proof of the filter, for a window W (la characters of
 * joined keys) and the quote b (lb), ratio(W) = 2M/(la+lb) ≥ T:
 *  (a) M ≤ L = LCS(W, b) (difflib's matching blocks are a common subsequence), so the indel
 *      distance d = la + lb − 2L ≤ la + lb − 2M = (la+lb)(1 − ratio) ≤ (la+lb)(1 − T);
 *  (b) ratio ≤ 2·min(la, lb)/(la+lb) ≤ 2lb/(la+lb) (real_quick_ratio), so la + lb ≤ 2lb/ratio ≤ 2lb/T;
 *  so d ≤ D = ⌊2lb(1 − T)/T⌋. (In doubles: ratio is 2M/(la+lb) rounded, ≥ T, so the exact value is
 *  ≥ T(1 − 2⁻⁵³); with lb ≤ 2,000 that moves 2lb(1−T)/T by < 1e-9, and D takes +1e-6 of slack: a
 *  larger D is never unsound, only slower.)
 *  (c) Fix an LCS alignment of W and b: d characters are unmatched (la − L of W, lb − L of b).
 *      Cut b into disjoint pieces; a piece is intact when all its characters are matched and
 *      consecutive ones to consecutive characters of W. An unmatched character of b breaks only
 *      the piece holding it; unmatched characters of W in one gap between two consecutive
 *      matched pairs (i1, j1) < (i2, j2) break at most the one piece holding both j1 and j2; so
 *      at most d pieces are broken, and with D + 1 pieces one is intact: it occurs verbatim,
 *      contiguously, in W.
 *  (d) Word boundaries. b = k1 ␣ k2 ␣ … ␣ kn and W's joined keys use the space (id 0) only
 *      between words (a key never holds one: checked once per index, else the filter is off).
 *      Our pieces are "␣ k_i ␣ … ␣ k_j ␣" for 2 ≤ i ≤ j ≤ n−1 (1-based): both delimiting spaces
 *      are inside the piece, so in W each of k_i..k_j is bounded by spaces, i.e. is a whole word
 *      of W, and the piece is the phrase k_i..k_j at consecutive words p..p+j−i of W's source.
 *      The first and last quote words have no space on one side inside b (k1 may match the tail
 *      of a longer window word, kn the head of one: "ther he" is inside "another he"), so they
 *      are never looked up as WHOLE pieces. Two such pieces share no space, so a word separates
 *      them: at most ⌈(n−2)/2⌉ of them.
 *  (d′) SUFFIX pieces "k_i ␣" (0 ≤ i ≤ n−2, the space after k_i inside the piece, the one before
 *      it not). Intact in W, its space is matched to a space of W, so k_i's last character ends a
 *      word of W; k_i holds no space, so all of it lies in that word: some word of W (a whole text
 *      word) has a key ending in k_i, and k_i's first character sits |k_i| characters before that
 *      word's end. (k_1 may be a suffix piece: the case "ther" inside "another" is exactly this.)
 *      Pieces of both kinds are disjoint substrings of b when no space is in two of them, which
 *      is all (c) needs; each piece holds a space of its own, so at most n − 1 pieces fit. The
 *      words ending in k_i are one run of the index's keys reversed and sorted (`suffixIndexOf`).
 *      When D + 1 pieces do not fit, the linear pass runs.
 *  (e) So W contains words p..p+j−i and has ≤ n+2 words: it lies inside the range
 *      [p+(j−i)−(n+1), p+n+1] of its source ((g) below narrows it), which `WindowScanner`
 *      verifies exactly (every window inside, bounds then difflib's M). Every window ≥ T is
 *      found; every window reported is a real window with its exact ratio.
 *  (f), (g): the count filter and the character window, where they are used below; (h), (i): the
 *  linear pass at T through a prefix of the quote, and that pass in narrow lanes (below).
 *  (j) The q-gram filter (`gramRanges`, tried first). Take P ≥ D + 1 disjoint substrings of b of
 *      q = GRAM_Q characters (grams at offsets x_1 < … < x_P, x_{k+1} ≥ x_k + q; any characters,
 *      spaces too). (c) needs only disjoint pieces, so at most d ≤ D grams are broken and the set I
 *      of intact ones has |I| ≥ P − D. W's characters are chars[s, s + la) of the index (a window's
 *      keys are one space apart there), so an intact gram occurs at a text position y_k, which its
 *      hash bucket lists (a bucket lists every occurrence of every gram hashed to it: a superset).
 *      Its base is B_k = y_k − x_k. Between two intact grams k < k′ the matched characters pair up,
 *      so B_k′ − B_k = (unmatched characters of W between them) − (unmatched of b between them) and
 *      |B_k′ − B_k| ≤ d ≤ D: the bases of I lie in an interval of D + 1 values. Every listed
 *      position y of gram k is an entry with key y − x_k + lb (the offset keeps it ≥ 0), and the
 *      entries are sorted by key; let K be the greatest key of I (+ lb: the greatest base) and hi
 *      the last entry of I in that order. Every entry of I has a key in [K − D, K] and comes no later
 *      than hi (a smaller key sorts before it, an equal one of I is not after the last of I), so
 *      the entries with keys in [K − D, K] up to hi — the sliding window at hi — hold ≥ P − D
 *      distinct grams: only such windows survive. (g) for the gram of I with the greatest base
 *      (K − lb) gives s ≥ K − lb − D, for the one with the least (≤ K − lb) s + la ≤ K + D, so W
 *      lies in characters [K − lb − D, K + D), i.e. inside the words starting at ≥ K − lb − D
 *      and ending (exclusive) by K + D, cut at the sources' edges (W is inside one source), which
 *      `verify` scans exactly. A gram holding a character no text has occurs nowhere (always
 *      broken; its list is empty). Every window ≥ T is found; the grams only choose what is read.
 * The pieces (a DP over the quote's words, `choosePieces`) minimize the sum of their occurrences;
 * the filter runs only when its checks (anchor occurrences × pieces) are ≤ 1/FILTER_SHARE of the
 * words searched and the ranges that survive it fit a budget (else the linear pass is cheaper).
 */
export function searchBest(
  ix: PostedText, quote: IndexedQuote, keys: readonly string[], minRatio: number, limit: number, overlapping: boolean,
  onlySource: number, chunkScan: ChunkScan, rangeScan: RangeScan | null, prefixScan: PrefixScan, timeBudget: Budget = NO_BUDGET,
  lanesScan: LanesScan | null = null,
): WindowHit[] {
  const n = quote.words;
  const lb = quote.ids.length;
  if (lb === 0) return [];
  const { sourceWords } = ix;
  const searched = onlySource >= 0 ? sourceWords[onlySource + 1] - sourceWords[onlySource] : ix.charStart.length;
  // a small text (a moot's pool) takes the exact path and then the linear pass, which read only the
  // characters: texts whose postings are built on demand keep them unbuilt
  const small = searched < tuning.smallWords;
  const scanner = new WindowScanner(ix, quote);
  const regionShare = rangeScan ? REGION_SHARE_WASM : REGION_SHARE_TS;
  // what the linear pass costs a word, in units of a sweep's check over a text word: its blocks (64
  // bits in WASM, 32 in TS) × the backend's cost per block
  const linearCost = rangeScan ? Math.ceil(lb / 64) : LINEAR_COST_TS * Math.ceil(lb / 32);
  const found = new Map<number, WindowHit>();
  const add = (hits: WindowHit[]) => {
    for (const h of hits) found.set(h.word * 256 + h.size, h); // size ≤ MAX_QUOTE_WORDS + 2 < 256
  };
  // ranges [from, to) of words, each inside one source, merged where they overlap, then scanned:
  // in one WASM call (`rangeScan`, qiScanRanges) when the backend has one, else by its TS twin
  // (WindowScanner.scanRanges); both visit the same windows in the same order
  // (in groups of ranges, the time budget checked between them; with `seeding`, each group's hits
  // raise the threshold for the next to the k-th kept ratio so far: seeds need only be real windows)
  const verify = (ranges: number[], threshold: number, raise = false, seeding = false): WindowHit[] => {
    const m = ranges.length >> 1;
    const order = new Int32Array(m);
    for (let i = 0; i < m; i++) order[i] = i;
    order.sort((x, y) => ranges[2 * x] - ranges[2 * y]);
    const merged: number[] = [];
    let from = -1, to = -1;
    for (let r = 0; r < m; r++) {
      const a = ranges[2 * order[r]], z = ranges[2 * order[r] + 1];
      if (a < to) to = Math.max(to, z); // overlapping ranges are of one source (each is clipped to its own)
      else {
        if (from < to) merged.push(from, to);
        from = a;
        to = z;
      }
    }
    if (from < to) merged.push(from, to);
    const out: WindowHit[] = [];
    const pace = new Pacer(lb, threshold);
    for (let r = 0; r < merged.length; ) {
      let z = r, words = 0;
      while (z < merged.length && words < pace.words && (z === r || merged[z + 1] - merged[z] <= pace.words)) {
        words += merged[z + 1] - merged[z];
        z += 2;
      }
      const t0 = timeBudget.now();
      let got: WindowHit[];
      if (z === r + 2 && words > pace.words) {
        // one long range: in chunks (windows inside [from, to) ending in [a, b): they start at ≥ a − n − 1 and ≥ from)
        got = [];
        const f = merged[r], to = merged[r + 1];
        const firstEnd = f + Math.max(1, n - 2) - 1; // no window of the range ends before it (as in scanChunked)
        for (let a = f; a < to; ) {
          const b = Math.min(to, Math.max(a, firstEnd) + pace.words);
          const c0 = timeBudget.now();
          const { hits, reached } = chunkScan(Math.max(f, a - n - 1), a, b, threshold, raise);
          for (const h of hits) {
            got.push(h);
            if (raise) threshold = Math.max(threshold, h.ratio);
          }
          pace.done(reached - Math.max(a, firstEnd), timeBudget.now() - c0);
          a = reached;
          timeBudget.check(r >> 1, merged.length >> 1, threshold, "ranges");
        }
      } else {
        const list = Int32Array.from(merged.slice(r, z));
        got = rangeScan ? rangeScan(list, threshold, raise) : scanner.scanRanges(list, threshold, raise);
        pace.done(words, timeBudget.now() - t0);
        if (raise) for (const h of got) threshold = Math.max(threshold, h.ratio);
      }
      for (const h of got) out.push(h);
      r = z;
      timeBudget.check(r >> 1, merged.length >> 1, threshold, "ranges");
      if (seeding && r < merged.length) {
        add(got);
        const kept = rankHits(ix, aboveOf(found, threshold), overlapping, limit);
        if (kept.length >= limit) threshold = Math.max(threshold, kept[limit - 1].ratio);
      }
    }
    return out;
  };

  // Seeds: verbatim hits (the exact path: ratio 1 is the maximum, so `limit` of them after the
  // overlap rule are the answer), then ranges around occurrences of the quote's rarest words (any
  // word; a seed only has to be a real window with its exact ratio, it proves nothing about others)
  const exact = ix.postingsOnDemand && small ? verbatimByChars(ix, quote, keys.map((k) => [...k].length), onlySource) : verbatim(ix, keys, onlySource);
  const exactRanked = rankHits(ix, exact, overlapping, limit);
  if (exactRanked.length >= limit) {
    searchPaths.exact++;
    return exactRanked;
  }
  add(exact);
  if (small) {
    // a small text (a moot's pool): the linear pass costs less than the seeds and the filter
    searchPaths.linear++;
    return linearBest(ix, quote, found, wholeSegments(ix, onlySource, Infinity), minRatio, minRatio, limit, overlapping, chunkScan, timeBudget);
  }
  const { postingStart, postings, postingChars, wordIds, wordSource } = ix;
  // the range of words around text words [p, p + len) of source s, wide enough for any window holding them
  const around = (ranges: number[], p: number, len: number, before: number, after: number) => {
    const s = wordSource[p];
    if (onlySource >= 0 && s !== onlySource) return;
    const from = Math.max(sourceWords[s], p + len - 1 - before);
    const to = Math.min(sourceWords[s + 1], p + after + 1);
    if (from < to) ranges.push(from, to);
  };
  const ids = keys.map((k) => ix.vocabulary.get(k) ?? -1);
  const count = (i: number) => (ids[i] < 0 ? 0 : postingStart[ids[i] + 1] - postingStart[ids[i]]);
  // whether text words [w, w + len) are the quote's words [i, i + len)
  const phraseAt = (w: number, i: number, len: number): boolean => {
    for (let t = 0; t < len; t++) if (wordIds[w + t] !== ids[i + t]) return false;
    return true;
  };
  // occurrences of the phrase ids[i..j] (first words, each inside one source), found from its
  // rarest word's postings; when that word is too common to walk, null and its count stands in
  const memo = new Map<number, Int32Array | null>();
  const phrase = (i: number, j: number, walk: boolean): Int32Array | null => {
    const at = i * 256 + j;
    let got = memo.get(at);
    if (got === undefined || (got === null && walk)) {
      if (i === j) {
        // one word: its postings are its occurrences
        got = ids[i] < 0 ? new Int32Array(0) : postings.subarray(postingStart[ids[i]], postingStart[ids[i] + 1]);
        memo.set(at, got);
        return got;
      }
      let r = i;
      for (let t = i; t <= j; t++) if (count(t) < count(r)) r = t;
      got = null;
      if (count(r) <= PHRASE_WALK || walk) {
        const len = j - i + 1;
        const starts: number[] = [];
        for (let q = count(r) ? postingStart[ids[r]] : 0, z = count(r) ? postingStart[ids[r] + 1] : 0; q < z; q++) {
          const p = postings[q] - (r - i);
          if (p < 0 || p + len > wordIds.length || wordSource[p] !== wordSource[p + len - 1]) continue;
          if (phraseAt(p, i, len)) starts.push(p);
        }
        got = Int32Array.from(starts);
      }
      memo.set(at, got);
    }
    return got;
  };
  const cost = (i: number, j: number) => {
    const starts = phrase(i, j, false);
    if (starts) return starts.length;
    let min = Infinity;
    for (let t = i; t <= j; t++) min = Math.min(min, count(t));
    return min;
  };
  const byCount = ids.map((_, i) => i).filter((i) => count(i) > 0).sort((x, y) => count(x) - count(y));
  const seeds: number[] = [];
  let budget = SEED_OCCURRENCES;
  for (const i of byCount) {
    const c = count(i);
    if (c > budget) break;
    budget -= c;
    for (let q = postingStart[ids[i]]; q < postingStart[ids[i] + 1]; q++) {
      around(seeds, postings[q], 1, i + 2, n - i + 1); // the quote laid over the text from word p − i, ± 2 words
    }
  }
  // with limit 1 only the best seed matters: each one found raises the bar for the next
  add(verify(seeds, minRatio, limit === 1, true));
  let seeded = rankHits(ix, [...found.values()], overlapping, limit);
  if (seeded.length < limit) {
    // nothing ≥ minRatio around the rare words (or no word rare enough): the quote's rarest
    // two-word phrases (exact, anywhere in the quote) seed instead, on the same budget
    const pairs: [number, Int32Array][] = [];
    for (let i = 0; i + 1 < n; i++) {
      const occ = phrase(i, i + 1, false);
      if (occ && occ.length) pairs.push([i, occ]);
    }
    pairs.sort((x, y) => x[1].length - y[1].length);
    const more: number[] = [];
    budget = SEED_OCCURRENCES;
    for (const [i, occ] of pairs) {
      if (occ.length > budget) break;
      budget -= occ.length;
      for (let o = 0; o < occ.length; o++) around(more, occ[o], 1, i + 2, n - i + 1);
    }
    if (more.length) {
      add(verify(more, minRatio, limit === 1, true));
      seeded = rankHits(ix, [...found.values()], overlapping, limit);
    }
  }
  const threshold = seeded.length >= limit ? seeded[limit - 1].ratio : minRatio;

  // The complete search at `threshold`.
  let hits: WindowHit[] | null = null;
  const D = Math.floor((2 * lb * (1 - threshold)) / threshold + 1e-6);
  // char offset in b of each quote word (its keys are one 0 apart), and each word's length
  const qStart = new Int32Array(n + 1);
  for (let j = 0, w = 1; j < lb; j++) if (quote.ids[j] === 0) qStart[w++] = j + 1;
  qStart[n] = lb + 1;
  const wordLength = (i: number) => qStart[i + 1] - 1 - qStart[i];
  // suffix pieces "k_i␣" (h′ below): the words whose key ends with k_i, from the index's reversed
  // keys (built on first use); their occurrences counted from cumulative postings
  let suffixes: SuffixIndex | null = null;
  const suffixRange = new Map<number, [number, number]>();
  const suffixSpan = (i: number): [number, number] => {
    let r = suffixRange.get(i);
    if (!r) {
      suffixes ??= suffixIndexOf(ix);
      r = suffixes.range(keys[i]);
      suffixRange.set(i, r);
    }
    return r;
  };
  const suffixCost = (i: number) => {
    const [lo, hi] = suffixSpan(i);
    return suffixes!.cumulative[hi] - suffixes!.cumulative[lo];
  };
  const pieceCost = (x: Piece) => (x[2] === SUFFIX ? suffixCost(x[0]) : cost(x[0], x[1]));
  // the plan: P pieces (D + 1 ≤ P), anchored on their D + 1 rarest; the estimated work of each P
  // (anchors × pieces checked, and the ranges verified) against the linear pass
  let plan: { list: Piece[]; anchors: number; work: number } | null = null;
  let separators = 0;
  for (let j = 0; j < lb; j++) if (quote.ids[j] === 0) separators++;
  // (j) the q-gram filter first: sublinear, and the strongest when D leaves ≥ D + 1 grams of the quote
  if (tuning.grams) {
    const ranges = gramRanges(ix, quote, D, onlySource, Math.floor(searched / (2 * regionShare * (2 * n + 4))));
    if (ranges) {
      hits = verify(ranges, threshold);
      searchPaths.grams++;
    }
  }
  if (!hits && D + 1 <= n - 1 && separators === n - 1 && spaceFreeKeys(ix)) {
    for (let P = D + 1; P <= Math.min(n - 1, D + 1 + EXTRA_PIECES); P++) {
      const chosen = choosePieces(n, P, cost, suffixCost);
      if (!chosen) break;
      const list = chosen.list.sort((x, y) => pieceCost(x) - pieceCost(y));
      // survivors, guessed as if pieces fell at random: an anchor occurrence survives when P − D − 1
      // other pieces fall within its 2D + 1 characters, a Poisson tail with λ = Σ their chances
      // (correlated words make more: the survivor cap below still holds)
      let anchors = 0, all = 0, survivors = 0;
      for (let k = 0; k < P; k++) all += pieceCost(list[k]);
      for (let a = 0; a <= D; a++) {
        const c = pieceCost(list[a]);
        anchors += c;
        const lambda = ((all - c) * (2 * D + 1)) / ix.chars.length;
        let term = Math.exp(-lambda), below = 0;
        for (let t = 0; t < P - D - 1; t++) {
          below += term;
          term *= lambda / (t + 1);
        }
        survivors += c * Math.max(0, 1 - below);
      }
      // listing: the anchors and the non-anchors cheap enough to list (below), a union sorted or a
      // phrase walked costing more per entry than a word's postings read in order
      let listed = 0;
      for (let k = 0; k < P; k++) {
        const c = pieceCost(list[k]);
        if (k <= D || c <= LIST_SHARE * anchors) listed += c * (list[k][2] === SUFFIX || list[k][1] > list[k][0] ? LIST_COST_SORTED : LIST_COST);
      }
      const work = (anchors * P * CHECK_COST + listed) / linearCost + survivors * regionShare * (2 * n + 4);
      if (!plan || work < plan.work) plan = { list, anchors: D + 1, work };
    }
  }
  if (!hits && plan && plan.work * FILTER_SHARE <= searched) {
    // (f) with P pieces at most D are broken, so ≥ P − D are intact in W, one of them among the
    // D + 1 anchors. For W's intact anchor a and another intact piece k, the alignment pairs a's
    // first word character (b offset x_a = qStart of its first word, text position y_a) and k's
    // (x_k, y_k); between them the matched characters pair up, so |(y_k − y_a) − (x_k − x_a)| =
    // |unmatched W − unmatched b between them| ≤ d ≤ D. So only an anchor occurrence with ≥ P − D
    // pieces (itself included) at such positions can lie in a window ≥ T; only its range is verified.
    const { list } = plan;
    const P = list.length;
    const need = P - D;
    const { charStart, charEnd } = ix;
    const pieceFirst = Int32Array.from(list, (x) => x[0]);
    const pieceLength = Int32Array.from(list, (x) => x[1] - x[0] + 1);
    const pieceSuffix = list.map((x) => x[2] === SUFFIX);
    // Is piece k at a word of source s whose piece start (y_k: the word's first character, or for a
    // suffix piece the character |k_i| before the word's end) is within [at − D, at + D]? The local
    // check, for a piece too common to list.
    const intactNear = (k: number, s: number, at: number): boolean => {
      const i = pieceFirst[k];
      const w0 = sourceWords[s], w1 = sourceWords[s + 1];
      if (pieceSuffix[k]) {
        const len = wordLength(i);
        for (let w = firstAtLeast(charEnd, w0, w1, at - D + len); w < w1 && charEnd[w] <= at + D + len; w++) {
          const e = charEnd[w] - len;
          if (e < charStart[w]) continue;
          let same = true;
          for (let t = 0; t < len && same; t++) same = ix.chars[e + t] === quote.ids[qStart[i] + t];
          if (same) return true;
        }
        return false;
      }
      const len = pieceLength[k];
      for (let w = firstAtLeast(charStart, w0, w1, at - D); w < w1 && charStart[w] <= at + D; w++) {
        if (w + len > w1) break;
        if (phraseAt(w, i, len)) return true;
      }
      return false;
    };
    // The count is a sweep: every piece's occurrences as bases (y_k − x_k: where each puts the
    // quote's first character), ascending, and the anchors' occurrences merged in base order; piece
    // k is intact near an anchor at base B when it has a base in [B − D, B + D], found by a pointer
    // into k's bases that only moves forward (B ascends). A base of another source within D of B is
    // only a needless survivor (its range is cut to the anchor's source below). A piece whose list
    // costs more to build than the local checks keeps the local check (`intactNear`). The count
    // stops early once D + 1 pieces are missing: then at most P − D − 1 < need can be intact.
    const A = plan.anchors;
    let anchorOccurrences = 0;
    for (let a = 0; a < A; a++) anchorOccurrences += pieceCost(list[a]);
    const bases: (Int32Array | null)[] = [];
    const order: number[] = []; // pieces to check: listed ones first, local checks last
    for (let k = 0; k < P; k++) {
      const i = pieceFirst[k], j = i + pieceLength[k] - 1;
      if (pieceSuffix[k]) {
        // the words ending in k_i, each id's postings in order: y = the word's end − |k_i|; merged by a sort
        const c = suffixCost(i);
        if (k >= A && c > LIST_SHARE * anchorOccurrences) {
          bases.push(null);
          continue;
        }
        const [lo, hi] = suffixSpan(i);
        const b = new Int32Array(c);
        let o = 0;
        for (let t = lo; t < hi; t++) {
          const id = suffixes!.ids[t];
          const shift = suffixes!.keyLength[t] - wordLength(i) - qStart[i];
          for (let q = postingStart[id], z = postingStart[id + 1]; q < z; q++) b[o++] = postingChars[q] + shift;
        }
        if (hi - lo > 1) b.sort();
        bases.push(b);
        continue;
      }
      let walk = Infinity;
      for (let t = i; t <= j; t++) walk = Math.min(walk, count(t));
      const occ = k < A || walk <= LIST_SHARE * anchorOccurrences ? phrase(i, j, true)! : null;
      if (occ) {
        const b = new Int32Array(occ.length);
        if (i === j && occ.length) {
          // one word: its occurrences' characters are beside its postings (read in order)
          const first = postingStart[ids[i]];
          for (let o = 0; o < occ.length; o++) b[o] = postingChars[first + o] - qStart[i];
        } else for (let o = 0; o < occ.length; o++) b[o] = charStart[occ[o]] - qStart[i];
        bases.push(b);
      } else bases.push(null);
    }
    for (let k = 0; k < P; k++) if (bases[k]) order.push(k);
    for (let k = 0; k < P; k++) if (!bases[k]) order.push(k);
    const pointer = new Int32Array(P);
    const head = new Int32Array(A);
    const ranges: number[] = [];
    const maxRanges = (2 * searched) / (regionShare * (lb + 2 * D + 8));
    const words = wordIds.length;
    const onlyFrom = onlySource >= 0 && sourceWords[onlySource] < sourceWords[onlySource + 1] ? charStart[sourceWords[onlySource]] : 0;
    const onlyTo = onlySource >= 0 && sourceWords[onlySource] < sourceWords[onlySource + 1] ? charEnd[sourceWords[onlySource + 1] - 1] : 0;
    for (;;) {
      // the anchor occurrence with the least base (D + 1 lists: a linear pick)
      let a = -1, base = 0;
      for (let t = 0; t < A; t++) {
        const h = head[t];
        if (h < bases[t]!.length && (a < 0 || bases[t]![h] < base)) {
          a = t;
          base = bases[t]![h];
        }
      }
      if (a < 0) break;
      head[a]++;
      const y = base + qStart[pieceFirst[a]]; // the anchor's first word character in the text
      if (onlySource >= 0 && !(y >= onlyFrom && y < onlyTo)) continue;
      let s = -1; // the anchor's source, found when needed (the word holding y)
      let intact = 1, broken = 0;
      for (let t = 0; t < P && intact < need; t++) {
        const k = order[t];
        if (k === a) continue;
        const bk = bases[k];
        let ok: boolean;
        if (bk) {
          let at = pointer[k];
          while (at < bk.length && bk[at] < base - D) at++;
          pointer[k] = at;
          ok = at < bk.length && bk[at] <= base + D;
        } else {
          if (s < 0) s = wordSource[firstAtLeast(charEnd, 0, words, y + 1)];
          ok = intactNear(k, s, base + qStart[pieceFirst[k]]);
        }
        if (ok) intact++;
        else if (++broken > D) break;
      }
      if (intact >= need) {
        // (g) W's first character is at y_a − x_a ± D and its end at y_a − x_a + lb ± D (the
        // unmatched characters before, and after, the anchor differ by ≤ d ≤ D on the two sides),
        // so W lies inside the words starting at ≥ y_a − x_a − D and ending at ≤ y_a − x_a + lb + D
        if (s < 0) s = wordSource[firstAtLeast(charEnd, 0, words, y + 1)];
        const from = firstAtLeast(charStart, sourceWords[s], sourceWords[s + 1], base - D);
        const to = firstAtLeast(charEnd, from, sourceWords[s + 1], base + lb + D + 1);
        if (from < to) ranges.push(from, to);
        if (ranges.length > maxRanges) break;
      }
    }
    // too many survivors (a weak filter: few pieces needed intact): the linear pass is cheaper
    if (ranges.length <= maxRanges) {
      hits = verify(ranges, threshold);
      searchPaths.filter++;
      if (pieceSuffix.includes(true)) searchPaths.suffixPieces++;
    }
  }
  if (!hits) {
    // (h) The linear pass through a prefix. Cut b = b1 b2 with |b1| = m < lb and fix an LCS
    // alignment of a window W ≥ T with b; split W = W1 W2 where no match crosses (the matches are
    // monotone). Then LCS(W1, b1) + LCS(W2, b2) ≥ LCS(W, b), so indel(W1, b1) + indel(W2, b2) ≤ d ≤ D,
    // and Levenshtein(W1, b1) ≤ indel(W1, b1) ≤ D. W1 is not empty (else indel(W1, b1) = m > D), so
    // it ends at a character e1 of W, and E1(e1) (the semi-global distance of b1 at e1, or the WASM
    // lanes' E_t0: W starts within n + 1 words of e1's word, so at or after its lane's t0) is ≤ D.
    // |W1| ≤ m + D and |W2| ≤ (lb − m) + D, so W lies in characters [e1 − m − D + 1, e1 + lb − m + D]:
    // marking the words there for every e1 with E1(e1) ≤ D and scanning them with the whole quote
    // finds every window ≥ T. One block of b1 costs 1/⌈lb/64⌉ of the whole quote's pass (32 bits in
    // TS); with D ≤ m/3 marks are rare (measured on the bench's 2-block quotes at 0.91: none in
    // 400 K characters for m = 64), else the plain pass runs. Too many ranges: the plain pass too.
    // (i) The same bound with the semi-global INDEL distance: indel(W1, b1) ≤ D directly (the
    // inequality above before the Levenshtein step), so the pass may compute
    // E1(e1) = min over X ending at e1 of indel(X, b1) ≥ its Levenshtein value: far fewer marks for
    // the same m (measured on 600 K characters of the books, marks per million characters at the
    // bench quotes' T: m = 16, D = 7: Levenshtein 375, indel 42; D = 8: 2,827 / 145; m = 32,
    // D = 19–20: 18,073 / 44,895 against 378 / 217), so 16-bit lanes suffice for D ≤ 8 and 32-bit
    // lanes (m = 32) for D ≤ 20. The WASM pass (qiScanLanes, assembly/quote-index/lanes.ts:
    // the recurrences, the lane boundaries, the check of each run of marks with the whole quote, and
    // their proofs) runs 16 lanes over all texts at once; test/match/lanes-twin.ts is its TS twin.
    const maxRanges = Math.floor(searched / (2 * regionShare * (2 * n + 4)));
    // (i) In WASM, first the same pass over all texts in 16 lanes of 16 or 32 bits with the
    // semi-global indel distance (`lanesScanOf`: when D is small enough, else it declines); null:
    // the ways below.
    if (lanesScan) {
      hits = lanesScan(threshold, D, maxRanges);
      if (hits) searchPaths.lanes++;
    }
    for (const m of hits ? [] : rangeScan ? [64] : [32, 64]) {
      if (m >= lb || 3 * D > m) continue;
      hits = prefixScan(threshold, m, D, maxRanges);
      if (hits) searchPaths.prefix++;
      break;
    }
  }
  if (!hits) {
    // the linear pass, from `threshold` down (linearBest: chunks, raised as windows turn up)
    searchPaths.linear++;
    return linearBest(ix, quote, found, wholeSegments(ix, onlySource, Infinity), threshold, minRatio, limit, overlapping, chunkScan, timeBudget);
  }
  add(hits);
  timeBudget.check(1, 1, threshold, "filter");
  // the filter or the prefix pass searched every source completely at `threshold`
  const ranked = rankHits(ix, aboveOf(found, threshold), overlapping, limit);
  if (ranked.length >= limit || threshold <= minRatio) return ranked;
  searchPaths.fallback++;
  return linearBest(ix, quote, found, wholeSegments(ix, onlySource, threshold), -1, minRatio, limit, overlapping, chunkScan, timeBudget);
}

