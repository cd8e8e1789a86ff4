/**
 * bestSpan: the span of a source most like a quote (DESIGN.md section 5).
 *
 * For each source in order, for window sizes n-2 .. n+2 (n = the quote's word
 * count, at least 1), for each start word: the window's word keys joined by one
 * space are compared with the quote's (`normalize`) by
 * `difflib.SequenceMatcher(None, window, quote, autojunk=False).ratio()` over
 * code points — the window is seq1, the quote seq2, as the seed sets them. The
 * first window with the strictly highest ratio wins; its span is the source
 * text from the first word's start to the last word's end, as written (words
 * as ts/match/words.ts takes them: keys over NFC with ligatures folded and
 * default-ignorables dropped, spans never cut inside a grapheme cluster).
 *
 * Two backends, one contract: WASM (assembly/sequence-match.ts, the default)
 * and pure TS (ts/match/sequence-match.ts, `scanTs` here). A quote first goes
 * through the quote index's best-first search at 0.8 (a window found
 * there is the answer, exactly: see ts/match/quote-index/search.ts; in a bundled page this
 * pre-pass arrives behind a dynamic import, ts/match/pre-pass.ts, and until then the scan
 * alone gives the same answer). Otherwise
 * both backends scan the same way (proof at `scanTs`): an LCS bound of every
 * window, one bit-parallel run per group of ANCHOR start words (the LCS of the group's longest
 * text bounds each of its windows), a window's own from one run per start word shared by its
 * five sizes when the scan first reaches it; then best first, bucket by bucket
 * of falling bound, until no window left can reach the best — a bound never
 * changes the result, only the time — and computing the ratio as `2·M / (la + lb)` in doubles, so spans and ratios
 * are identical, bit for bit (test/match/parity.test.ts; test/match/
 * best-span-bounds.test.ts compares the bounded scan with the unbounded one).
 */
import { ArgumentError } from "../errors.js";
import { type Backend, type BackendRequest } from "../../bindings/wasm.js";
import { matchWasmFor as wasmFor } from "../../bindings/match.js";
import { seqBindingFor } from "../../bindings/sequence-match.js";
import { createLcsRun, createMatchScratch, matchingCharactersAbove, ratioOf, sequenceRatio as ratioOfStrings } from "./sequence-match.js";
import { words } from "./words.js";
import type { PostedText } from "./quote-index/types.js";
import { prePassNow } from "./pre-pass.js";
import { sourceOfWord } from "./quote-index/rank.js";
import { buildKeyLayout, buildWordTable, type KeyLayout, type WordTable } from "./word-table.js";
import { tuning } from "./quote-index/tuning.js";
import { internQuote, quoteSize, quoteTooLong } from "./quote-keys.js";
import { checkEdges, markupSafeSpan, type SpanEdges } from "./markup.js";
import { checkArgs } from "../args.js";

/**
 * The best span found. `text` is `sources[source].slice(start, end)` (UTF-16
 * offsets); `ratio` is difflib's. No match: `{text: "", ratio: 0, source: -1, start: -1, end: -1}`.
 */
export interface SpanMatch {
  text: string;
  ratio: number;
  source: number;
  start: number;
  end: number;
}

/**
 * Options of `bestSpan`/`createQuoteMatcher`: `backend` forces "wasm" or "ts" ("auto" = WASM when
 * loaded); `edges`: "markup" (default) widens the window's span so it splits no markup run
 * (`markupSafeSpan`, ts/match/markup.ts), "words" gives the window's first word to last word.
 * The ratio, source and choice of window are the same either way.
 */
export interface BestSpanOptions {
  backend?: BackendRequest;
  edges?: SpanEdges;
}


/**
 * A pool of passages prepared once (tokenized, keys interned to code-point ids,
 * and — on the WASM backend — copied into WASM memory on first use).
 */
export interface QuoteMatcher {
  /** The backend this matcher runs on, fixed at creation. */
  readonly backend: Backend;
  /** Number of passages in the pool. */
  readonly size: number;
  /** `bestSpan(quote, pool)`, reusing the prepared pool. Throws as `bestSpan` does. */
  bestSpan(quote: string): SpanMatch;
  /** `bestSpan` for each quote, in order, in one batch (one copy into WASM, one call). */
  match(quotes: readonly string[]): SpanMatch[];
}

export { MAX_QUOTE_CHARS, MAX_QUOTE_WORDS, QuoteTooLongError } from "./quote-keys.js";

/**
 * Whether `bestSpan` accepts `quote`: at most {@link MAX_QUOTE_WORDS} words and
 * {@link MAX_QUOTE_CHARS} code points normalized. The grounding layer unquotes a
 * missed quote that does not fit ("too long") instead of searching it.
 */
export function fitsBestSpan(quote: string): boolean {
  checkArgs("fitsBestSpan", arguments, "quote:string");
  return quoteSize(words(quote)) === null;
}

/** The empty result: nothing scored above 0 (or there were no sources). */
const NO_MATCH: SpanMatch = Object.freeze({ text: "", ratio: 0, source: -1, start: -1, end: -1 }) as SpanMatch;

/**
 * The pool as both backends read it. Every code point of a key is interned to a
 * small id (the space between keys is id 0). Source s owns words
 * [sourceWords[s], sourceWords[s+1]); word w's key is chars[charStart[w], charEnd[w])
 * and the keys of one source are laid out one space apart, so the window of
 * words w..v is the contiguous run chars[charStart[w], charEnd[v]). Built by the
 * quote index's word table (ts/match/word-table.ts: the words and keys of words.ts),
 * whose word-id postings the best-first pre-pass reads — or, for a pool that has served at most
 * one quote, by its key layout alone (`LazyPool`: the postings are built when first read).
 */
interface PreparedPool extends PostedText {
  sources: readonly string[];
  alphabet: Map<number, number>;
  /** UTF-16 start and end of word w in its source: spans[2w], spans[2w+1]. */
  spans: Int32Array;
}

/** A quote translated to the pool's ids (code points the pool lacks get fresh ids ≥ pool alphabet), and its word keys. */
interface PreparedQuote {
  ids: Int32Array;
  words: number;
  alphabetSize: number;
  keys: string[];
}

function checkSources(sources: readonly string[], fn: string, what: string): void {
  if (!Array.isArray(sources)) throw new ArgumentError(fn, what, "an array of strings", sources);
  for (let i = 0; i < sources.length; i++) {
    if (typeof sources[i] !== "string") throw new ArgumentError(fn, `${what}[${i}]`, "a string", sources[i]);
  }
}

/**
 * A pool laid out for the scans (keys as alphabet ids, word spans: the word table's, or
 * `buildKeyLayout`'s when built without it), whose word ids, vocabulary and postings are built on
 * first read, or by `complete()`. Until then `postingsOnDemand` is true: the quote-index pre-pass
 * reads them only from `tuning.smallWords` words on (below, its exact path reads the characters,
 * `verbatimByChars`, and its linear pass nothing else). Why: building them costs about as much as
 * tokenizing the pool, which is most of a call's work on a pool it has not seen. The arrays are
 * the word table's either way.
 */
class LazyPool implements PreparedPool {
  readonly alphabet: Map<number, number>;
  readonly alphabetSize: number;
  readonly chars: Int32Array;
  readonly charStart: Int32Array;
  readonly charEnd: Int32Array;
  readonly spans: Int32Array;
  readonly sourceWords: Int32Array;
  postingsOnDemand: boolean;
  constructor(readonly sources: readonly string[], private table: WordTable | null) {
    const t: KeyLayout = table ?? buildKeyLayout(sources);
    this.alphabet = t.alphabet;
    this.alphabetSize = t.alphabet.size;
    this.chars = t.chars;
    this.charStart = t.charStart;
    this.charEnd = t.charEnd;
    this.spans = t.spans;
    this.sourceWords = t.textWords;
    this.postingsOnDemand = !table;
  }
  /** The whole word table (built once; the same layout as this pool's). */
  complete(): WordTable {
    if (!this.table) {
      this.table = buildWordTable(this.sources);
      this.postingsOnDemand = false;
    }
    return this.table;
  }
  get wordIds(): Int32Array {
    return this.complete().wordIds;
  }
  get vocabulary(): ReadonlyMap<string, number> {
    return this.complete().vocabulary;
  }
  get postingStart(): Int32Array {
    return this.complete().postingStart;
  }
  get postings(): Int32Array {
    return this.complete().postings;
  }
  get postingChars(): Int32Array {
    return this.complete().postingChars;
  }
  get wordSource(): Int32Array {
    return this.complete().wordText;
  }
}

/**
 * Tokenize and intern a pool (DESIGN §5 words and keys). O(total characters).
 *
 * A pool of fewer UTF-16 units than `tuning.smallWords` has fewer words than that (a word spans at
 * least one unit of its text), so its search never reads the postings (unless `tuning` changes):
 * it is laid out without them. A larger one may, and gets the whole word table at once (a second
 * tokenizing pass would cost more).
 */
function preparePool(sources: readonly string[]): LazyPool {
  checkSources(sources, "createQuoteMatcher", "pool");
  let units = 0;
  for (const s of sources) units += s.length;
  return new LazyPool(sources, units < tuning.smallWords ? null : buildWordTable(sources));
}


function prepareQuote(pool: PreparedPool, quote: string): PreparedQuote {
  if (typeof quote !== "string") throw new ArgumentError("bestSpan", "quote", "a string", quote);
  const ws = words(quote);
  const tooLong = quoteTooLong(ws);
  if (tooLong) throw tooLong;
  return { ...internQuote(ws, pool.alphabet), keys: ws.map((w) => w.key) };
}

/**
 * The threshold of the quote-index pre-pass: grounding's SNAP_MIN_RATIO (0.8). A pass that finds a
 * window ≥ it holds the winner (the winner's ratio is at least that window's). No second pass at
 * 0.7: it cost a quote found nowhere ~0.7 ms of its ~0.9 ms of pre-pass and saved a quote whose best
 * is in [0.7, 0.8) about what the full scan then spends (in-process A/B, 15 interleaved rounds over
 * the classes bench's quotes of seeds 200–205 and 400–405, not tuned on; WASM: found nowhere 0.89×
 * and 0.90× the time with one pass, 1–3 word edits 1.01× and 0.98×, verbatim and the matching
 * quotes 0.96–1.02×; on the TS backend, seeds 200–202, found nowhere 0.92×, edits 1.26×, ≈ 0.7 ms
 * more a quote against ≈ 10 ms less a quote found nowhere). 0.75 alone: edits 1.25×. Lower
 * thresholds prune too little to pay (0.6 was ~8× slower than the full scan on the pool bench).
 */
const ABOVE = 0.8;

/** The winning window of a scan: source index, first word (global index), word count, ratio. */
interface Found {
  source: number;
  word: number;
  size: number;
  ratio: number;
}

/**
 * Bounds are kept as buckets of 1/`BUCKETS`: bucket(u) = min(BUCKETS, ⌊u·BUCKETS⌋), 0 … BUCKETS
 * (u ≥ 1 has a bucket of its own; a group's bound can pass 1, and every ratio is ≤ 1, below what
 * bucket BUCKETS holds). BUCKETS is a power of two, so u·BUCKETS is exact in doubles and
 * bucket(u) < k means u < k/BUCKETS exactly.
 */
const BUCKETS = 4096;
/**
 * The bounds pass runs from every ANCHOR-th start word of a source (an anchor) over its group's
 * longest window, and from the other starts only when the scan first reaches them. 4: on the
 * found-nowhere quotes of the classes bench (seeds 100–103, counted when the scan still went in
 * batches) it took the runs from 125.8 K to 31.7 K anchor runs (each 3 words longer) plus 17.6 K
 * of a start's own, about 2.3× fewer word steps; 2, 3 and 6 did fewer for one kind and more for
 * the other, 8 more in all; with the scan strictly best first, 3, 4 and 6 time the same (WASM).
 */
const ANCHOR = 4;

/**
 * The pure-TS scan (the reference the WASM kernel mirrors, assembly/sequence-match.ts).
 *
 * 1. Bounds: for each source, the start words 0, ANCHOR, 2·ANCHOR, … are anchors; the group of
 *    anchor a is the starts a .. a+ANCHOR-1. One LCS run (`createLcsRun`) from a over the group's
 *    longest window (to the last word a window of n-2..n+2 words starting in the group ends at),
 *    read after each word e: L(a..e), the longest common subsequence of the words a..e and the
 *    quote. A window W of the group ending at e gets the bound u(W) = 2·L(a..e)/(la+lb), la its
 *    own length, kept as its bucket (its group's bucket), and the window goes to that bucket's
 *    list. An anchor's own windows thereby have their own L(W); the windows
 *    of another start get theirs (one run from that start, read after each word, the five sizes
 *    sharing it) when the scan first reaches one of them: their own buckets replace the group's.
 * 2. Best first: the buckets from the top, each one's windows (in no particular order; a list
 *    per bucket). A window whose start has no run of its own yet gets one first; if its own
 *    bucket is lower it waits in that bucket's list. Every other window looked at gets difflib's
 *    exact ratio, given up as soon as it is sure to be below the best so far
 *    (`matchingCharactersAbove`: after each longest block, the blocks found plus the LCS of every
 *    range still to split bound difflib's M; proof there). The best is the highest ratio, the
 *    first in the contract's order among equal ones. The WASM twin finds a window's first block
 *    from its source's rows of common runs (faster, the same block: assembly/difflib.ts
 *    `firstBlock`, proof there), and keeps
 *    each range's LCS and longest block per quote (the same values: difflib.ts `memoEntry`).
 *    The scan stops at the first bucket k (from the top, or between two of its windows) with
 *    k + 1 ≤ best·BUCKETS.
 * Why exact: difflib's matching blocks are a common subsequence of W and the quote, so M ≤ L(W)
 * and ratio(W) = 2M/(la+lb) ≤ 2·L(W)/(la+lb) — the same double expression over a larger integer,
 * so the inequality holds after rounding too; and W's words lie inside a..e, so a common
 * subsequence of W and the quote is one of a..e and the quote: L(W) ≤ L(a..e), and the group's
 * bound (the same la) is ≥ W's own. Whichever of the two a window holds when it is looked at
 * (and when the scan stops) is ≥ its ratio; call it u(W). A window of bucket k has
 * u < (k+1)/BUCKETS. One that waits is in the list of its own, lower bucket, which the scan reaches
 * later (or it stops before: see below). One given up while its ratio is computed has ratio < best:
 * it can neither beat nor tie the best. When the scan stops at bucket k, every window not scored
 * is in the list of a bucket ≤ k (buckets only fall, and a window is in its current bucket's
 * list), so its ratio < (k+1)/BUCKETS ≤ best. So every window whose ratio equals the final best
 * was scored, and the first of them in the contract's order is the
 * contract's winner. (L ≤ the multiset intersection ≤ min(la, lb): this bound implies difflib's
 * `quick_ratio` and `real_quick_ratio`, which the scan therefore does not take.)
 */
function scanTs(pool: PreparedPool, quote: PreparedQuote): Found {
  const found: Found = { source: -1, word: -1, size: 0, ratio: 0 };
  const b = quote.ids;
  const lb = b.length;
  if (lb === 0) return found; // every ratio is 2·0/la = 0: nothing wins
  const n = quote.words;
  const lo = Math.max(1, n - 2);
  const { chars, charStart, charEnd, sourceWords } = pool;
  const scratch = createMatchScratch(lb);
  const run = createLcsRun(b, quote.alphabetSize);
  const sources = sourceWords.length - 1;

  // 1. bounds: bucket[] holds each window's bucket in the contract's order (source, size, start),
  // its group's until its start has a run of its own (own[] = 1: anchors at once, the other
  // starts by a run of a group of one when the scan first reaches one of their windows). The
  // windows of each bucket: a list of entries (window, start word, size) from head[k] on through
  // next[]; a window whose bucket falls gets an entry in its new bucket's list and its old one
  // goes stale (bucket[window] no longer says that bucket): at most two entries a window.
  const w00 = sourceWords[0];
  const poolWords = Math.max(0, sourceWords[sources] - w00);
  const bucket = new Int32Array(5 * poolWords);
  const own = new Uint8Array(poolWords);
  const head = new Int32Array(BUCKETS + 1).fill(-1);
  const entries = new Int32Array(40 * poolWords); // 4 per entry: window, start word, size, next
  let used = 0;
  const wordSource = new Int32Array(poolWords);
  const sourceBase = new Int32Array(sources + 1); // where each source's windows start in bucket[]
  /**
   * One run from word a0 of source s over the longest window starting in [a0, a0 + g), read after
   * each word e: L(a0..e) bounds every window of the group ending at e; each gets that bucket and
   * an entry in its list — all on a fresh pass, else (g = 1, a start's own run) those that fell.
   */
  const groupRun = (s: number, a0: number, g: number, fresh: boolean) => {
    const w0 = sourceWords[s];
    const nw = sourceWords[s + 1] - w0;
    const offset: number[] = [];
    for (let size = lo, off = sourceBase[s]; size <= n + 2; off += Math.max(0, nw - size + 1), size++) offset.push(off);
    run.start();
    let from = charStart[w0 + a0];
    for (let e = a0; e < Math.min(a0 + g - 1 + n + 2, nw); e++) {
      const end = charEnd[w0 + e];
      run.feed(chars, from, end);
      from = end;
      const l = run.length();
      for (let i = Math.max(a0, e - n - 1); i <= Math.min(a0 + g - 1, e - lo + 1); i++) {
        const at = offset[e - i + 1 - lo] + i;
        // at most BUCKETS: the group's L can pass what a short window shares with the quote, and
        // the bound 1 (every ratio is ≤ 1 < (BUCKETS + 1) / BUCKETS, so bucket BUCKETS bounds it still)
        const k = Math.min(BUCKETS, Math.floor(ratioOf(l, end - charStart[w0 + i] + lb) * BUCKETS));
        if (!fresh && k === bucket[at]) continue; // its entry stands
        bucket[at] = k;
        const x = 4 * used;
        entries[x] = at;
        entries[x + 1] = w0 + i;
        entries[x + 2] = e - i + 1;
        entries[x + 3] = head[k];
        head[k] = used++;
      }
    }
    own[w0 + a0 - w00] = 1;
  };
  for (let s = 0; s < sources; s++) {
    const w0 = sourceWords[s];
    const nw = sourceWords[s + 1] - w0;
    wordSource.fill(s, w0 - w00, w0 + nw - w00);
    for (let a0 = 0; a0 + lo <= nw; a0 += ANCHOR) groupRun(s, a0, ANCHOR, true);
    let end = sourceBase[s];
    for (let size = lo; size <= n + 2 && size <= nw; size++) end += nw - size + 1;
    sourceBase[s + 1] = end;
  }

  // 2. best first: the buckets from the top, each one's windows (in no particular order), until
  // a bucket whose every bound is below the best
  let best = 0;
  let bestAt = -1;
  const below = (k: number) => k + 1 <= best * BUCKETS; // every bound in bucket k is < best
  for (let k = BUCKETS; k >= 0 && !below(k); k--) {
    for (let e = head[k]; e >= 0 && !below(k); e = entries[4 * e + 3]) {
      const idx = entries[4 * e];
      if (bucket[idx] !== k) continue; // stale: the window's own bucket is lower, it has an entry there
      const w = entries[4 * e + 1];
      const size = entries[4 * e + 2];
      const s = wordSource[w - w00];
      if (!own[w - w00]) {
        groupRun(s, w - sourceWords[s], 1, false);
        if (bucket[idx] !== k) continue; // waits in its own bucket's list
      }
      const start = charStart[w];
      const la = charEnd[w + size - 1] - start;
      // given up (-1) once its ratio is sure to be below the best: it could neither beat nor tie it
      const m = matchingCharactersAbove(chars, start, la, b, lb, scratch, run.range, best);
      if (m < 0) continue;
      const ratio = ratioOf(m, la + lb);
      if (ratio > best || (ratio === best && ratio > 0 && idx < bestAt)) {
        best = ratio;
        bestAt = idx;
        found.source = s;
        found.word = w;
        found.size = size;
        found.ratio = ratio;
      }
    }
  }
  return found;
}

function toSpan(pool: PreparedPool, f: Found, edges: SpanEdges = "markup"): SpanMatch {
  if (f.source < 0) return { ...NO_MATCH };
  const text = pool.sources[f.source];
  let start = pool.spans[2 * f.word];
  let end = pool.spans[2 * (f.word + f.size - 1) + 1];
  if (edges !== "words") ({ start, end } = markupSafeSpan(text, start, end));
  return { text: text.slice(start, end), ratio: f.ratio, source: f.source, start, end };
}

/**
 * Prepare a pool of passages once and match many quotes against it.
 *
 * @param pool passages as written (not normalized); indices in results refer to it.
 * @param options `backend`: "wasm" (throws if the module is not loaded), "ts", or "auto" (default: WASM when loaded).
 * @returns a `QuoteMatcher`; the backend is chosen here and shown in `.backend` (in a bundled page a
 *   matcher made before the WASM module arrived runs on TS: make it after `await ready()`).
 * @throws ArgumentError when `pool` is not an array of strings.
 */
export function createQuoteMatcher(pool: readonly string[], options: BestSpanOptions = {}): QuoteMatcher {
  checkArgs("createQuoteMatcher", arguments, "pool:strings options?:object");
  const prepared = preparePool(pool);
  const edges = checkEdges(options.edges, "createQuoteMatcher");
  const exports = wasmFor(options.backend);
  const binding = exports ? seqBindingFor(exports) : null;
  const token = {};
  let served = 0;
  const run = (quotes: readonly string[]): SpanMatch[] => {
    if (!Array.isArray(quotes)) throw new ArgumentError("QuoteMatcher.match", "quotes", "an array of strings", quotes);
    // A pool that serves more than one quote gets its postings: the exact path then reads a word's
    // occurrences instead of every word of the pool (`verbatimByChars`), which pays for them
    // over a few quotes. One quote on a pool never seen (a one-shot bestSpan) is spared them.
    if (served > 0 || quotes.length > 1) prepared.complete();
    served += quotes.length;
    const prepped = quotes.map((q, i) => {
      if (typeof q !== "string") throw new ArgumentError("QuoteMatcher.match", `quotes[${i}]`, "a string", q);
      return prepareQuote(prepared, q);
    });
    // First the quote index's best-first search at SNAP_MIN_RATIO (its bounds and filter skip
    // nearly every window): when some window reaches it, the best of those is bestSpan's answer,
    // exactly. Only quotes with no such window take the full scan below.
    // (In a bundled page the pre-pass arrives behind a dynamic import: until then, the scan alone.)
    const bestWindowAtLeast = prePassNow();
    const out: (SpanMatch | null)[] = prepped.map((q) => {
      if (!q.ids.length || !bestWindowAtLeast) return null;
      const top = bestWindowAtLeast(prepared, q, q.keys, ABOVE, binding ? exports : null, token);
      return top ? toSpan(prepared, { source: sourceOfWord(prepared.sourceWords, top.word), word: top.word, size: top.size, ratio: top.ratio }, edges) : null;
    });
    const rest = prepped.filter((_, i) => !out[i]);
    if (!rest.length) return out as SpanMatch[];
    const found = binding ? binding.match(token, prepared, rest) : rest.map((q) => scanTs(prepared, q));
    let k = 0;
    return out.map((o) => o ?? toSpan(prepared, found[k++], edges));
  };
  return {
    backend: binding ? "wasm" : "ts",
    size: pool.length,
    bestSpan: (quote: string) => {
      if (typeof quote !== "string") throw new ArgumentError("QuoteMatcher.bestSpan", "quote", "a string", quote);
      return run([quote])[0];
    },
    match: run,
  };
}

/**
 * The span of `sources` most like `quote` (DESIGN.md §5; the seed's `best_span`).
 *
 * @param quote the quoted text as the model wrote it (quote marks, case and punctuation are ignored).
 * @param sources the texts to search, as written; searched in order.
 * @param options `backend` as in `createQuoteMatcher`.
 * @returns the first window with the strictly highest difflib ratio (autojunk off, code points),
 *   with UTF-16 `start`/`end` in `sources[source]`; `{text: "", ratio: 0, source: -1, start: -1, end: -1}`
 *   with no sources, an empty quote, or nothing in common.
 * @throws QuoteTooLongError when the quote has more than `MAX_QUOTE_WORDS` words or `MAX_QUOTE_CHARS` characters
 *   normalized; TypeError on non-string input.
 * Complexity: O(W) windows (W = words in sources, 5 sizes each), each O(la·lb) at worst
 * (la, lb = window and quote length in characters), most skipped by the bounds.
 */
export function bestSpan(quote: string, sources: readonly string[], options: BestSpanOptions = {}): SpanMatch {
  checkArgs("bestSpan", arguments, "quote:string sources:strings options?:object");
  return cachedMatcher(sources, options).bestSpan(quote);
}

/**
 * Prepared pools of recent `bestSpan` calls, most recent first, so a caller that passes the same
 * passages again (the same array or another array of equal strings) pays for tokenizing and
 * interning once. An entry is a private copy of the strings it was built from and is reused only
 * when the backend is the same and every string is equal (`===`, by value), so a pool mutated
 * between calls is prepared anew. Bounded: at most `POOL_CACHE_ENTRIES` pools and
 * `POOL_CACHE_CHARS` UTF-16 units in all (a larger pool is prepared per call, not kept).
 */
const POOL_CACHE_ENTRIES = 8;
const POOL_CACHE_CHARS = 1 << 20;
const poolCache: { sources: string[]; chars: number; backend: BackendRequest | undefined; edges: SpanEdges | undefined; matcher: QuoteMatcher }[] = [];

function samePool(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function cachedMatcher(sources: readonly string[], options: BestSpanOptions): QuoteMatcher {
  const backend = options.backend;
  // the backend this call would get: a pool prepared on TS while the WASM module was still
  // arriving (a bundled page: bindings/deferred.ts) is prepared again once it is here
  const active: Backend = wasmFor(backend) ? "wasm" : "ts";
  for (let k = 0; k < poolCache.length; k++) {
    const e = poolCache[k];
    if (e.backend === backend && e.matcher.backend === active && e.edges === options.edges && samePool(e.sources, sources)) {
      if (k > 0) poolCache.unshift(...poolCache.splice(k, 1));
      return e.matcher;
    }
  }
  let chars = 0;
  for (const s of sources) chars += s.length;
  const copy = sources.slice();
  const matcher = createQuoteMatcher(copy, options);
  if (chars > POOL_CACHE_CHARS) return matcher;
  poolCache.unshift({ sources: copy, chars, backend, edges: options.edges, matcher });
  let total = 0;
  for (let k = 0; k < poolCache.length; k++) {
    total += poolCache[k].chars;
    if (k >= POOL_CACHE_ENTRIES || total > POOL_CACHE_CHARS) {
      poolCache.length = k;
      break;
    }
  }
  return matcher;
}

/**
 * `difflib.SequenceMatcher(None, a, b, autojunk=False).ratio()` of two strings,
 * over code points (a letter outside the BMP counts once, as in Python):
 * `2·M / (len(a) + len(b))`, M = total size of the matching blocks; 1 when both are empty.
 * O(len(a)·len(b)·blocks) worst case. Pure TS (the strings are compared as given, not normalized).
 */
export function sequenceRatio(a: string, b: string): number {
  checkArgs("sequenceRatio", arguments, "a:string b:string");
  return ratioOfStrings(a, b);
}
