/**
 * Finding a quote in a text: word-aligned, after normalization, fragment by fragment across
 * an ellipsis, and never across an elided negation (see grounding.ts's module comment).
 */
import { translateQuoteChars, words, type Word } from "../match/index.js";
import { checkText, type QuoteReason } from "./grounding-terms.js";
import { checkArgs } from "../args.js";

const ELLIPSIS_RE = /\.\s*\.\s*\.|…/;
const ELLIPSIS_SPLIT_RE = /\.\s*\.\s*\.|…/g;
const NEGATIONS = new Set(["not", "no", "never", "nor", "cannot"]);

/** Whether a word (as written, quote characters translated) is a negation. */
export function isNegation(word: string): boolean {
  const lower = word.toLowerCase();
  return NEGATIONS.has(lower) || /n['’]t$/.test(lower);
}

/**
 * A haystack prepared for word-aligned search: its words as ids (keys interned
 * per haystack), and for each word position i (0..n) the index of the last
 * negation word before i (-1 when none).
 */
export interface Haystack {
  ids: Int32Array;
  vocab: ReadonlyMap<string, number>;
  lastNegationBefore: Int32Array;
}

const haystackCache = new Map<string, Haystack>();
const HAYSTACK_CACHE = 256;

/**
 * Prepare a text for {@link quoteIn}: its words interned once, negations marked.
 * O(length); the last 256 texts prepared are kept (a moot checks its pool every turn).
 */
export function prepareHaystack(text: string): Haystack {
  checkArgs("prepareHaystack", arguments, "text:string");
  checkText(text, "prepareHaystack", "text");
  const hit = haystackCache.get(text);
  if (hit) return hit;
  const ws = words(text);
  const flat = translateQuoteChars(text);
  const vocab = new Map<string, number>();
  const ids = new Int32Array(ws.length);
  const lastNegationBefore = new Int32Array(ws.length + 1);
  let last = -1;
  ws.forEach((w: Word, i) => {
    let id = vocab.get(w.key);
    if (id === undefined) vocab.set(w.key, (id = vocab.size));
    ids[i] = id;
    lastNegationBefore[i] = last;
    if (isNegation(flat.slice(w.start, w.end))) last = i;
  });
  lastNegationBefore[ws.length] = last;
  const h: Haystack = { ids, vocab, lastNegationBefore };
  if (text.length >= 256) {
    haystackCache.set(text, h);
    if (haystackCache.size > HAYSTACK_CACHE) haystackCache.delete(haystackCache.keys().next().value!);
  }
  return h;
}

/**
 * Start positions (word indices, ascending) of every occurrence of `keys` in
 * `h` (Knuth–Morris–Pratt over word ids: O(words of h + keys)).
 */
function occurrences(h: Haystack, keys: readonly string[]): number[] {
  const m = keys.length;
  const pat = new Int32Array(m);
  for (let i = 0; i < m; i++) {
    const id = h.vocab.get(keys[i]!);
    if (id === undefined) return [];
    pat[i] = id;
  }
  const fail = new Int32Array(m);
  for (let i = 1, k = 0; i < m; i++) {
    while (k > 0 && pat[i] !== pat[k]) k = fail[k - 1]!;
    if (pat[i] === pat[k]) k++;
    fail[i] = k;
  }
  const out: number[] = [];
  const ids = h.ids;
  for (let i = 0, k = 0; i < ids.length; i++) {
    while (k > 0 && ids[i] !== pat[k]) k = fail[k - 1]!;
    if (ids[i] === pat[k]) k++;
    if (k === m) {
      out.push(i - m + 1);
      k = fail[k - 1]!;
    }
  }
  return out;
}

/** The outcome of {@link quoteIn}: found, or the reason it is not. */
export type QuoteMatch = { found: true } | { found: false; reason: QuoteReason };

/**
 * Whether a quote occurs in any haystack, word-aligned, after normalization.
 *
 * With an ellipsis the quote is split into fragments (empty ones dropped); all
 * must be found in one haystack, in order, without overlapping. The quote is
 * found when some such chain elides no negation; when every chain elides one,
 * the reason is `"elision drops a negation"`; when no chain exists, `"ellipsis"`.
 * Without an ellipsis a miss has reason `"not in source"`.
 *
 * How, linearly: fragment by fragment, the set of word positions where a
 * chain of the fragments so far can end (ascending). An occurrence of the next
 * fragment at word s extends a chain when the largest such end e ≤ s leaves no
 * negation in words [e, s) — i.e. e is after the last negation before s.
 * O(fragments · haystack words) in all, for any number of occurrences
 * (was quadratic in the haystack: 64 KB took 11 s).
 *
 * @param quote the quote as written (not normalized)
 * @param haystacks prepared sources (see {@link prepareHaystack})
 */
export function quoteIn(quote: string, haystacks: readonly Haystack[]): QuoteMatch {
  checkArgs("quoteIn", arguments, "quote:string haystacks:array");
  checkText(quote, "quoteIn", "quote");
  const hasEllipsis = ELLIPSIS_RE.test(quote);
  const fragments = (hasEllipsis ? quote.split(ELLIPSIS_SPLIT_RE) : [quote])
    .map((f) => words(f).map((w) => w.key))
    .filter((f) => f.length > 0);
  if (fragments.length === 0) return { found: false, reason: hasEllipsis ? "ellipsis" : "not in source" };
  if (!hasEllipsis) {
    return haystacks.some((h) => occurrences(h, fragments[0]!).length > 0) ? { found: true } : { found: false, reason: "not in source" };
  }
  let chained = false;
  for (const h of haystacks) {
    const first = fragments[0]!.length;
    let ends = occurrences(h, fragments[0]!).map((s) => s + first); // chains eliding no negation
    let anyEnd = ends.length ? ends[0]! : -1; // smallest end of any chain, negations or not
    for (let f = 1; f < fragments.length && anyEnd >= 0; f++) {
      const len = fragments[f]!.length;
      const next: number[] = [];
      let nextAny = -1;
      let j = 0;
      for (const s of occurrences(h, fragments[f]!)) {
        if (s < anyEnd) continue;
        if (nextAny < 0) nextAny = s + len;
        while (j < ends.length && ends[j]! <= s) j++;
        if (j > 0 && ends[j - 1]! > h.lastNegationBefore[s]!) next.push(s + len);
      }
      ends = next;
      anyEnd = nextAny;
    }
    if (ends.length) return { found: true };
    if (anyEnd >= 0) chained = true;
  }
  return { found: false, reason: chained ? "elision drops a negation" : "ellipsis" };
}
