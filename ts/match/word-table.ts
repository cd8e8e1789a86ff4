/**
 * The word table of the quote index (ts/match/quote-index/): every word of every text, its
 * key interned to a word id and its code points to alphabet ids, built in one pass over the
 * texts without one string or object per word.
 *
 * Why its own interner: the build used to take `words(text)` (one `{key, start, end}` object
 * and one key string per word, ~1 M of each for 5 MB of books) and look each key up in a
 * `Map`; allocating and collecting those cost more than finding the words. Here the tokenizer
 * of ts/match/words.ts hands each word's key as UTF-16 units of the text when it is those units
 * as they stand (most words of most books, see `WordSink.plain`), and this table hashes the
 * units straight from the text; only words whose key has to be made (accents to lowercase,
 * apostrophes to drop, words found by the segmenter) arrive as strings.
 *
 * The result is the one the `Map`-based build gave, array for array: word ids and alphabet ids
 * are numbered by first occurrence in text order (test/match/words-table.test.ts compares the
 * two on every book).
 *
 * Layout (ids are Int32; words are numbered across all texts, text by text):
 *
 *   chars      [k e y 0 k e y 0 k e y][k e y 0 …]   key code points as alphabet ids; the keys of
 *               ^charStart[w]  ^charEnd[w]           one text are one 0 (space) apart
 *   spans      [start0 end0 start1 end1 …]           UTF-16 span of word w in its text
 *   wordIds    [id0 id1 …]                           interned key of word w
 *   postings   words of id v: postings[postingStart[v] .. postingStart[v+1]), ascending
 *   postingChars  charStart of each posting, beside it (the best-first search reads a word's
 *               occurrences as characters in order, without a cache miss per occurrence)
 */

import { wordsInto, type AsciiLayoutSink, type WordSink } from "./words.js";

/** Every word of some texts, interned (see the module comment for the layout). */
export interface WordTable {
  /** Code point → alphabet id; 32 (the space between keys) is 0, others by first occurrence. */
  alphabet: Map<number, number>;
  /** Key → word id, by first occurrence (read-only; lists its keys only when asked: `Vocabulary`). */
  vocabulary: ReadonlyMap<string, number>;
  chars: Int32Array;
  charStart: Int32Array;
  charEnd: Int32Array;
  /** Words of text t: [textWords[t], textWords[t+1]). */
  textWords: Int32Array;
  spans: Int32Array;
  wordIds: Int32Array;
  postingStart: Int32Array;
  postings: Int32Array;
  /** charStart[postings[i]] for each i. */
  postingChars: Int32Array;
  /** Text of each word. */
  wordText: Int32Array;
}

/** FNV-1a, 32-bit: one multiply a UTF-16 unit. */
const FNV_OFFSET = 0x811c9dc5 | 0;
const FNV_PRIME = 16777619;

/**
 * A `WordSink` that interns each key as it comes: an open-addressing hash table over the keys'
 * UTF-16 units (kept in one pool), and a growing column of word ids. Keys
 * taken back by `truncate` stay in the table but no word keeps their id; {@link buildWordTable}
 * numbers only the keys words keep.
 */
class KeyInterner implements WordSink {
  count = 0;
  ids: Int32Array;
  /** Keys: their units pool[keyFrom[k] .. keyFrom[k] + keyLength[k]), and hash. */
  keys = 0;
  pool = new Uint16Array(1 << 14);
  poolUsed = 0;
  keyFrom: Int32Array = new Int32Array(1 << 10);
  keyLength: Int32Array = new Int32Array(1 << 10);
  keyHash: Int32Array = new Int32Array(1 << 10);
  /** Hash slots: key + 1, 0 when empty; size a power of two, at most half full. */
  slots = new Int32Array(1 << 11);

  /** @param words the words expected (columns grow past it by doubling; allocating once spares the collector) */
  constructor(words: number) {
    this.ids = new Int32Array(Math.max(1 << 10, words));
  }

  plain(flat: string, start: number, end: number, upper: boolean): void {
    let h = FNV_OFFSET;
    if (upper) {
      for (let i = start; i < end; i++) {
        let c = flat.charCodeAt(i);
        if (c >= 0x41 && c <= 0x5a) c += 0x20;
        h = Math.imul(h ^ c, FNV_PRIME);
      }
    } else {
      for (let i = start; i < end; i++) h = Math.imul(h ^ flat.charCodeAt(i), FNV_PRIME);
    }
    this.put(this.find(flat, start, end, upper, h));
  }

  keyed(key: string, start: number, end: number): void {
    let h = FNV_OFFSET;
    for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), FNV_PRIME);
    this.put(this.find(key, 0, key.length, false, h));
  }

  truncate(n: number): void {
    this.count = n;
  }

  private put(id: number): void {
    if (this.count === this.ids.length) this.ids = grow(this.ids);
    this.ids[this.count++] = id;
  }

  /** The key of units s[from, to) (A-Z lowered when `upper`), hash `h`: its id, added if new. */
  private find(s: string, from: number, to: number, upper: boolean, h: number): number {
    const length = to - from;
    const mask = this.slots.length - 1;
    for (let slot = h & mask; ; slot = (slot + 1) & mask) {
      const k = this.slots[slot]! - 1;
      if (k < 0) return this.add(s, from, to, upper, h, slot);
      if (this.keyHash[k] !== h || this.keyLength[k] !== length) continue;
      const at = this.keyFrom[k]! - from;
      let i = from;
      if (upper) {
        for (; i < to; i++) {
          let c = s.charCodeAt(i);
          if (c >= 0x41 && c <= 0x5a) c += 0x20;
          if (this.pool[at + i] !== c) break;
        }
      } else {
        for (; i < to && this.pool[at + i] === s.charCodeAt(i); i++);
      }
      if (i === to) return k;
    }
  }

  private add(s: string, from: number, to: number, upper: boolean, h: number, slot: number): number {
    const k = this.keys++;
    if (k === this.keyFrom.length) {
      this.keyFrom = grow(this.keyFrom);
      this.keyLength = grow(this.keyLength);
      this.keyHash = grow(this.keyHash);
    }
    const length = to - from;
    if (this.poolUsed + length > this.pool.length) {
      const bigger = new Uint16Array(Math.max(this.pool.length * 2, this.poolUsed + length));
      bigger.set(this.pool.subarray(0, this.poolUsed));
      this.pool = bigger;
    }
    for (let i = from; i < to; i++) {
      let c = s.charCodeAt(i);
      if (upper && c >= 0x41 && c <= 0x5a) c += 0x20;
      this.pool[this.poolUsed + i - from] = c;
    }
    this.keyFrom[k] = this.poolUsed;
    this.keyLength[k] = length;
    this.keyHash[k] = h;
    this.poolUsed += length;
    this.slots[slot] = k + 1;
    if (2 * this.keys > this.slots.length) this.rehash();
    return k;
  }

  private rehash(): void {
    const slots = new Int32Array(this.slots.length * 2);
    const mask = slots.length - 1;
    for (let k = 0; k < this.keys; k++) {
      let slot = this.keyHash[k]! & mask;
      while (slots[slot] !== 0) slot = (slot + 1) & mask;
      slots[slot] = k + 1;
    }
    this.slots = slots;
  }

  /** The key equal to `key`'s UTF-16 units, or -1 (nothing added). */
  lookup(key: string): number {
    let h = FNV_OFFSET;
    for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), FNV_PRIME);
    const mask = this.slots.length - 1;
    for (let slot = h & mask; ; slot = (slot + 1) & mask) {
      const k = this.slots[slot]! - 1;
      if (k < 0) return -1;
      if (this.keyHash[k] !== h || this.keyLength[k] !== key.length) continue;
      const at = this.keyFrom[k]!;
      let i = 0;
      for (; i < key.length && this.pool[at + i] === key.charCodeAt(i); i++);
      if (i === key.length) return k;
    }
  }

  /** The key string of key k. */
  keyString(k: number): string {
    const from = this.keyFrom[k]!;
    const to = from + this.keyLength[k]!;
    let s = "";
    // fromCharCode takes its units as arguments: a few thousand at a time stays far below any engine's limit
    for (let i = from; i < to; i += 4096) s += String.fromCharCode.apply(null, this.pool.subarray(i, Math.min(to, i + 4096)) as unknown as number[]);
    return s;
  }
}

/**
 * The vocabulary (key → word id) as a read-only map that makes no string until asked to list its
 * keys: `get`/`has` hash the asked key's units into the interner's table (a call with a pool new
 * to it looks up a few quote words; making ~1,400 key strings and a `Map` of them cost it more
 * than its tokenizing did). Listing (`entries`, iteration, `forEach`, `keys`) builds the `Map` once.
 */
class Vocabulary implements ReadonlyMap<string, number> {
  private map: Map<string, number> | null = null;
  constructor(private readonly interner: KeyInterner, private readonly renumber: Int32Array, private readonly firstKey: readonly number[]) {}
  get size(): number {
    return this.firstKey.length;
  }
  get(key: string): number | undefined {
    const k = this.interner.lookup(key);
    const id = k < 0 ? -1 : this.renumber[k]!;
    return id < 0 ? undefined : id;
  }
  has(key: string): boolean {
    return this.get(key) !== undefined;
  }
  private all(): Map<string, number> {
    if (!this.map) {
      this.map = new Map();
      for (let id = 0; id < this.firstKey.length; id++) this.map.set(this.interner.keyString(this.firstKey[id]!), id);
    }
    return this.map;
  }
  forEach(fn: (value: number, key: string, map: ReadonlyMap<string, number>) => void, thisArg?: unknown): void {
    this.all().forEach((v, k) => fn.call(thisArg, v, k, this));
  }
  entries(): MapIterator<[string, number]> {
    return this.all().entries();
  }
  keys(): MapIterator<string> {
    return this.all().keys();
  }
  values(): MapIterator<number> {
    return this.all().values();
  }
  [Symbol.iterator](): MapIterator<[string, number]> {
    return this.all()[Symbol.iterator]();
  }
}

/**
 * The part of a {@link WordTable} that the window scans read (bestSpan's and the quote index's
 * linear passes): the same `alphabet`, `chars`, `charStart`, `charEnd`, `textWords` and `spans`,
 * array for array, without word ids, vocabulary or postings.
 */
export type KeyLayout = Pick<WordTable, "alphabet" | "chars" | "charStart" | "charEnd" | "textWords" | "spans">;

/**
 * A `WordSink` that writes each key's code points, as alphabet ids, straight into the layout:
 * no key is hashed or kept. Alphabet ids are numbered by first occurrence in text order, which is
 * the word table's numbering (it numbers them key by key in order of each key's first word, and a
 * code point's first occurrence is in the first word of the key holding it). A code point first
 * met in a word that `truncate` takes back loses its id again (the table never saw it).
 */
class LayoutSink implements AsciiLayoutSink {
  count = 0;
  chars: Int32Array;
  used = 0;
  charStart: Int32Array;
  charEnd: Int32Array;
  spans: Int32Array;
  readonly alphabet = new Map<number, number>([[32, 0]]);
  /** The ids of code points below 128 (most of most keys), -1 until met. */
  readonly small = new Int32Array(128).fill(-1);
  /** Each code point given an id, in id order (from id 1), then the word that gave it. */
  private readonly added: number[] = [];
  /** First word of the text being read, and `used` when it began (set as each text begins). */
  textFirst = 0;
  textUsed = 0;

  /** @param also a sink that gets every word too (the table's key interner) */
  constructor(units: number, words: number, readonly also: WordSink | null = null) {
    this.chars = new Int32Array(Math.max(64, units));
    this.charStart = new Int32Array(Math.max(64, words));
    this.charEnd = new Int32Array(this.charStart.length);
    this.spans = new Int32Array(2 * this.charStart.length);
    this.small[32] = 0;
  }

  plain(flat: string, start: number, end: number, upper: boolean): void {
    this.put(flat, start, end, upper, start, end);
    this.also?.plain(flat, start, end, upper);
  }

  keyed(key: string, start: number, end: number): void {
    this.put(key, 0, key.length, false, start, end);
    this.also?.keyed(key, start, end);
  }

  truncate(n: number): void {
    this.also?.truncate(n);
    this.count = n;
    this.used = n > this.textFirst ? this.charEnd[n - 1]! : this.textUsed;
    const added = this.added;
    while (added.length && added[added.length - 1]! >= n) {
      added.pop();
      const cp = added.pop()!;
      this.alphabet.delete(cp);
      if (cp < 128) this.small[cp] = -1;
    }
  }

  /** Word `count`: its key, units s[from, to) (A-Z lowered when `upper`), spanning [start, end) of its text. */
  private put(s: string, from: number, to: number, upper: boolean, start: number, end: number): void {
    const w = this.count;
    if (w === this.charStart.length) this.moreWords();
    // a key has at most as many code points as UTF-16 units, plus the space before it
    if (this.used + (to - from) + 1 > this.chars.length) this.chars = grow(this.chars, this.used + (to - from) + 1);
    const chars = this.chars;
    const small = this.small;
    let at = this.used;
    if (w > this.textFirst) chars[at++] = 0;
    this.charStart[w] = at;
    for (let i = from; i < to; i++) {
      let c = s.charCodeAt(i);
      if (c < 128) {
        if (upper && c >= 0x41 && c <= 0x5a) c += 0x20;
        const a = small[c]!;
        chars[at++] = a >= 0 ? a : this.add(c, w);
        continue;
      }
      // code points as `for (const ch of key)` reads them: a surrogate pair is one, a lone surrogate is itself
      if (c >= 0xd800 && c <= 0xdbff && i + 1 < to) {
        const d = s.charCodeAt(i + 1);
        if (d >= 0xdc00 && d <= 0xdfff) {
          c = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00);
          i++;
        }
      }
      chars[at++] = this.alphabet.get(c) ?? this.add(c, w);
    }
    this.charEnd[w] = at;
    this.used = at;
    this.spans[2 * w] = start;
    this.spans[2 * w + 1] = end;
    this.count = w + 1;
  }

  /** `chars` doubled (AsciiLayoutSink: scanAsciiLayout's room for more key units). */
  moreChars(): Int32Array {
    return (this.chars = grow(this.chars));
  }

  /** The word columns (`charStart`, `charEnd`, `spans`) doubled. */
  moreWords(): void {
    this.charStart = grow(this.charStart);
    this.charEnd = grow(this.charEnd);
    this.spans = grow(this.spans);
  }

  add(cp: number, w: number): number {
    const a = this.alphabet.size;
    this.alphabet.set(cp, a);
    if (cp < 128) this.small[cp] = a;
    this.added.push(cp, w);
    return a;
  }
}

function grow(a: Int32Array, atLeast = 0): Int32Array {
  const b = new Int32Array(Math.max(2 * a.length, atLeast));
  b.set(a);
  return b;
}

/**
 * The key layout of `texts`: what {@link buildWordTable} gives for them in `alphabet`, `chars`,
 * `charStart`, `charEnd`, `textWords` and `spans` (the same values: the table is laid out by this
 * very pass), in one pass of the tokenizer that writes each key's alphabet ids where the scan
 * reads them. For a caller that scans its texts once or a few times (bestSpan on a pool it has
 * not seen): the word ids and postings, which only the best-first search's seeds and filter read,
 * cost about as much again (hashing every key, counting and sorting the postings).
 *
 * @param texts the texts, in order; offsets in `spans` are UTF-16 units into each as given
 * @param also a sink that gets every word too (the word table's key interner)
 * Complexity: O(total length): the tokenizer's, and one table read (a `Map` look-up past ASCII) a
 * key code point. The arrays are views of buffers at most about twice their length.
 */
export function buildKeyLayout(texts: readonly string[], also: WordSink | null = null): KeyLayout {
  let units = 0;
  for (const t of texts) units += t.length;
  // ~5.3 UTF-16 units a word in English prose (4.64 M units, 870 K words in the books): one
  // allocation for most texts, doublings for the others
  const sink = new LayoutSink(units + texts.length, Math.ceil(units / 5), also);
  const textWords = new Int32Array(texts.length + 1);
  for (let t = 0; t < texts.length; t++) {
    textWords[t] = sink.textFirst = sink.count;
    sink.textUsed = sink.used;
    wordsInto(texts[t]!, sink);
  }
  const n = (textWords[texts.length] = sink.count);
  return {
    alphabet: sink.alphabet,
    chars: sink.chars.subarray(0, sink.used),
    charStart: sink.charStart.subarray(0, n),
    charEnd: sink.charEnd.subarray(0, n),
    textWords,
    spans: sink.spans.subarray(0, 2 * n),
  };
}

/**
 * Every word of `texts` (the words of ts/match/words.ts, `wordsInto`), interned for the quote index.
 *
 * @param texts the texts, in order; offsets in `spans` are UTF-16 units into each as given
 * @returns the table (see {@link WordTable}); its ids are numbered by first occurrence, so the
 *   table is a pure function of the texts' words
 * Complexity: O(total length) time: the tokenizer's, one hash step and one compare a UTF-16
 * unit of each word, and a few passes over the words. Memory kept: 4 bytes × (key code points +
 * 8 a word + 1 a distinct key), plus the distinct keys once (`vocabulary`); the layout's columns
 * are views of buffers sized from the texts' length (3–5 % over their use on the books); while
 * building, the distinct keys' UTF-16 units and a hash table of twice their number.
 */
export function buildWordTable(texts: readonly string[]): WordTable {
  let units = 0;
  for (const t of texts) units += t.length;
  // the guess of words (as buildKeyLayout's) is capped at 4 M words
  const interner = new KeyInterner(Math.min(1 << 22, Math.ceil(units / 5)));
  const layout = buildKeyLayout(texts, interner);
  const { alphabet, textWords } = layout;
  const n = textWords[texts.length]!;
  // views of the layout's buffers (copying them to their own length cost ~10–20 % of the build)
  const { chars, charStart, charEnd, spans } = layout;

  // Word ids by first occurrence (keys a taken-back chunk left behind get none).
  const renumber = new Int32Array(interner.keys).fill(-1);
  const firstKey: number[] = [];
  const wordIds = new Int32Array(n);
  for (let w = 0; w < n; w++) {
    const k = interner.ids[w]!;
    let id = renumber[k]!;
    if (id < 0) {
      renumber[k] = id = firstKey.length;
      firstKey.push(k);
    }
    wordIds[w] = id;
  }
  const vocabulary = new Vocabulary(interner, renumber, firstKey);
  const wordText = new Int32Array(n);
  for (let t = 0; t < texts.length; t++) wordText.fill(t, textWords[t], textWords[t + 1]);

  // Postings: the words of each id, in order (a counting sort of word ids).
  const postingStart = new Int32Array(firstKey.length + 1);
  for (let w = 0; w < n; w++) postingStart[wordIds[w]! + 1]++;
  for (let v = 0; v < firstKey.length; v++) postingStart[v + 1] += postingStart[v]!;
  const fill = postingStart.slice(0, firstKey.length);
  const postings = new Int32Array(n);
  const postingChars = new Int32Array(n);
  for (let w = 0; w < n; w++) {
    const at = fill[wordIds[w]!]!++;
    postings[at] = w;
    postingChars[at] = charStart[w]!;
  }

  return { alphabet, vocabulary, chars, charStart, charEnd, textWords, spans, wordIds, postingStart, postings, postingChars, wordText };
}
