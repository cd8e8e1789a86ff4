/** The order of an answer (ratio, then bestSpan's order; overlaps of a better span left out) and the exact path: verbatim occurrences from the word-id postings. */
import { type IndexedQuote, type IndexedText, type PostedText, type WindowHit } from "./types.js";

/**
 * Order hits best first — ratio descending, then bestSpan's order (source,
 * size, start; the source follows from the global word index) — and, unless
 * `overlapping`, drop every hit sharing a word with one kept before it.
 * `limit` caps the result. A pure function of the hit set.
 */
export function rankHits(ix: IndexedText, hits: WindowHit[], overlapping: boolean, limit: number): WindowHit[] {
  const sorted = hits
    .map((h) => ({ h, s: sourceOfWord(ix.sourceWords, h.word) }))
    .sort((x, y) => y.h.ratio - x.h.ratio || x.s - y.s || x.h.size - y.h.size || x.h.word - y.h.word);
  const out: WindowHit[] = [];
  const taken = new Set<number>();
  for (const { h } of sorted) {
    if (out.length >= limit) break;
    if (!overlapping) {
      let clash = false;
      for (let w = h.word; w < h.word + h.size && !clash; w++) clash = taken.has(w);
      if (clash) continue;
      for (let w = h.word; w < h.word + h.size; w++) taken.add(w);
    }
    out.push(h);
  }
  return out;
}

/** The source holding global word w (a binary search of `sourceWords`: the last s with sourceWords[s] ≤ w). */
export function sourceOfWord(sourceWords: Int32Array, w: number): number {
  let lo = 0, hi = sourceWords.length - 2;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (sourceWords[mid] <= w) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** Verbatim occurrences (ratio 1, size n) of the quote's keys, in order, from the word-id postings. */
export function verbatim(ix: PostedText, keys: readonly string[], onlySource: number): WindowHit[] {
  const ids: number[] = [];
  for (const k of keys) {
    const id = ix.vocabulary.get(k);
    if (id === undefined) return [];
    ids.push(id);
  }
  // read once: bestSpan's pool serves them through getters
  const { postingStart, postings, wordIds, wordSource } = ix;
  let rare = 0;
  for (let i = 1; i < ids.length; i++) {
    const c = postingStart[ids[i] + 1] - postingStart[ids[i]];
    if (c < postingStart[ids[rare] + 1] - postingStart[ids[rare]]) rare = i;
  }
  const out: WindowHit[] = [];
  for (let p = postingStart[ids[rare]]; p < postingStart[ids[rare] + 1]; p++) {
    const start = postings[p] - rare;
    if (start < 0 || start + ids.length > wordIds.length) continue;
    const s = wordSource[start];
    if (wordSource[start + ids.length - 1] !== s || (onlySource >= 0 && s !== onlySource)) continue;
    let same = true;
    for (let i = 0; i < ids.length && same; i++) same = wordIds[start + i] === ids[i];
    if (same) out.push({ word: start, size: ids.length, ratio: 1 });
  }
  return out;
}

/**
 * The hits of {@link verbatim} (every window of the quote's n words whose keys are the quote's
 * keys, ascending), found from the texts' characters instead of the word-id postings, for texts
 * whose postings are not built (`PostedText.postingsOnDemand`). A window of words w..w+n−1 is laid
 * out as its keys one 0 apart, and the quote's ids are its keys one 0 apart over the same alphabet
 * (a code point the texts lack has an id no text character has): so when each word's key has as
 * many code points as the quote's word and the n−1 + Σ lengths characters from charStart[w] equal
 * the quote's ids, every key equals its quote word's (the lengths put the separators at the same
 * places), and conversely. O(words searched) when no window matches; lb per candidate.
 * @param keyLengths code points of each quote key (`keys[i]`)
 */
export function verbatimByChars(ix: IndexedText, quote: IndexedQuote, keyLengths: readonly number[], onlySource: number): WindowHit[] {
  const n = keyLengths.length;
  const b = quote.ids;
  const lb = b.length;
  const out: WindowHit[] = [];
  if (n === 0) return out;
  const { chars, charStart, charEnd, sourceWords } = ix;
  const first = keyLengths[0];
  const b0 = b[0];
  for (let s = 0; s + 1 < sourceWords.length; s++) {
    if (onlySource >= 0 && s !== onlySource) continue;
    for (let w = sourceWords[s], last = sourceWords[s + 1] - n; w <= last; w++) {
      const at = charStart[w];
      if (charEnd[w] - at !== first || charEnd[w + n - 1] - at !== lb || (lb > 0 && chars[at] !== b0)) continue;
      let same = true;
      for (let i = 1; i < n && same; i++) same = charEnd[w + i] - charStart[w + i] === keyLengths[i];
      for (let j = 0; j < lb && same; j++) same = chars[at + j] === b[j];
      if (same) out.push({ word: w, size: n, ratio: 1 });
    }
  }
  return out;
}

/** The windows of `found` with ratio ≥ t. */
export function aboveOf(found: Map<number, WindowHit>, t: number): WindowHit[] {
  const out: WindowHit[] = [];
  for (const h of found.values()) if (h.ratio >= t) out.push(h);
  return out;
}
