/**
 * Quote grounding for moots (DESIGN.md section 5): citation tags, quoted spans,
 * the grounding check, per-quote attribution and the snapping of near-miss quotes.
 *
 * Vocabulary:
 * - a *tag* is `[s2]` (a passage given this turn) or `[o3]` (words spoken in
 *   turn 3 of the moot); a group `[s1, s3]` holds several; case-insensitive.
 * - a *quote* is the text between a pair of double quotes (curly ones count,
 *   see words.ts), from its first word to its last (edge punctuation and
 *   markdown emphasis dropped). A tag group written inside the marks
 *   (`"… harbour [s1]."`) is the quote's citation, not its text. A quote with
 *   no word at all (`"∀ ∃ ⊆"`) is not a quote. Only quotes of 3 or more words
 *   are checked.
 * - a quote's tags are the groups inside its marks, and the groups right after
 *   its closing mark or after the sentence punctuation that follows it
 *   (`"…" [s1]`, `"…". [o1]`).
 * - a quote with an `[oN]` tag quotes the moot itself: the other tree
 *   (source `"other"`) or the speaker's own earlier turn (`"self"`). Every
 *   other quote is an `"own"` quote: it must be in the speaker's own book.
 * - a quote is *found* when its normalized words occur word-aligned in one
 *   normalized haystack. With an ellipsis (`...` or `…`) every fragment must
 *   be found, in order, in one haystack, and no elided stretch may hold a
 *   negation (`not`, `no`, `never`, `nor`, `cannot`, any `n't` word).
 * - an own quote is *cited* when one of its `[sN]` tags names a passage of this
 *   turn that holds it, *misattributed* when its tags name only passages that
 *   do not, *uncited* when it has no `[sN]` tag (citation precision, as ALCE
 *   measures it).
 *
 * Bounded work: a reply is read for quotes up to {@link MAX_REPLY_CHARS}
 * characters and at most {@link MAX_QUOTES_CHECKED} quotes of 3+ words are
 * checked; quotes past either cap are counted as unchecked (the reply does not
 * pass) and unquoted by snapping, never silently passed.
 *
 * All offsets are UTF-16 code units into the reply as given.
 */
import type { BackendRequest } from "../../bindings/wasm.js";
import { createQuoteMatcher, fitsBestSpan, translateQuoteChars, words, type QuoteIndex, type QuoteMatcher, type Word } from "../match/index.js";

/** Lowest best-span ratio at which a missed quote is replaced by the source's words. */
export const SNAP_MIN_RATIO = 0.8;

/** Quotes shorter than this many words are not checked (and are unquoted by snapping). */
export const QUOTE_MIN_WORDS = 3;

/**
 * How much of a reply is read for quotes, in UTF-16 code units. A quote whose
 * closing mark lies past it is unchecked. Why 65,536: a moot reply is asked to
 * stay under 120 words (~800 characters) and is cut by the model at 400
 * tokens; 64 KB leaves room for other uses of the check while bounding the work.
 */
export const MAX_REPLY_CHARS = 65_536;

/**
 * How many quotes of 3+ words one reply may have checked; later ones are
 * unchecked. Why 32: a moot turn asks for at most 3 quotes, and a missed quote
 * costs a best-span search over the pool (~1–10 ms), so 32 bound a turn's check
 * to well under a second.
 */
export const MAX_QUOTES_CHECKED = 32;

/** Where a quote's words must come from: the speaker's book, the other tree's turn, or its own earlier turn. */
export type QuoteSource = "own" | "other" | "self";

/**
 * Why a quote is not found or was corrected:
 * - `"not in source"`: no word-aligned match and no span close enough;
 * - `"ellipsis"`: a quote with an ellipsis whose fragments are not all found in order;
 * - `"elision drops a negation"`: the fragments are found in order, but an elided stretch holds a negation;
 * - `"negation differs"`: the nearest span adds or removes a negation, so snapping would flip the meaning;
 * - `"too long"`: more words or characters than best-span search accepts
 *   (`MAX_QUOTE_WORDS`, `MAX_QUOTE_CHARS`) and not found verbatim;
 * - `"under 3 words"`: too short to check;
 * - `"no words"`: quote marks around no word at all (`"∀ ∃ ⊆"`, `"--- *** ---"`): not a quote;
 * - `"unchecked"`: past the reply's caps (`MAX_REPLY_CHARS`, `MAX_QUOTES_CHECKED`), never checked.
 */
export type QuoteReason =
  | "not in source"
  | "ellipsis"
  | "elision drops a negation"
  | "negation differs"
  | "too long"
  | "under 3 words"
  | "no words"
  | "unchecked";

/**
 * Whether an own quote is in the passage its tags name (see the module comment):
 * `"cited"`, `"misattributed"` or `"uncited"`.
 */
export type Attribution = "cited" | "misattributed" | "uncited";

/**
 * One checked quote of a reply. `reason` is set when it was not found.
 * `attribution` and `cites` (its `[sN]` tags, lower-cased, in order) are set on own quotes only.
 */
export interface QuoteCheck {
  text: string;
  found: boolean;
  source: QuoteSource;
  reason?: QuoteReason;
  attribution?: Attribution;
  cites?: string[];
}

/** The result of {@link checkGrounding}. Counts are over quotes of 3+ words. */
export interface Grounding {
  /** Every `[sN]` tag names a passage given this turn (true when there are none). */
  tagsValid: boolean;
  /** Number of `[sN]` tags in the reply, repeats included. */
  tagsCited: number;
  quotesFound: number;
  quotesTotal: number;
  otherQuotesFound: number;
  otherQuotesTotal: number;
  selfQuotesFound: number;
  selfQuotesTotal: number;
  /** Own quotes whose tag names a passage of this turn that holds them. */
  quotesCited: number;
  /** Own quotes whose tags name only passages that do not hold them. */
  quotesMisattributed: number;
  /** Own quotes with no `[sN]` tag. */
  quotesUncited: number;
  /** Quoted spans past the caps (`MAX_REPLY_CHARS`, `MAX_QUOTES_CHECKED`), never checked; a reply with any does not pass. */
  quotesUnchecked: number;
  quotes: QuoteCheck[];
}

/** One correction made by {@link snapQuotes}. `to` is the source's words when snapped, else null. */
export interface Snap {
  /** The quote's words as written (first word to last); for `"no words"`, what stood between the marks, trimmed. */
  text: string;
  source: QuoteSource;
  action: "snapped" | "unquoted";
  to: string | null;
  /** Best-span ratio, rounded to 3 places (0 when no search ran). */
  ratio: number;
  /** null when snapped. */
  reason: QuoteReason | null;
}

/** A passage as grounding needs it: its tag (`s1`…) and its text. Plain strings are accepted where no tag is needed. */
export interface TaggedText {
  tag?: string;
  content: string;
}

/**
 * A quoted span of a reply. `start`/`end` cover the quote marks themselves;
 * `text` is the quote from its first word to its last, with any tag group
 * inside the marks removed (quote characters translated, see words.ts); ""
 * when the marks hold no word. `tags` are every tag attached to the quote
 * (inside the marks, then right after them), lower-cased. `unchecked` marks a
 * span past `MAX_REPLY_CHARS`: its `text` is the raw inside and its tags are not read.
 */
export interface QuoteSpan {
  text: string;
  start: number;
  end: number;
  tags: string[];
  unchecked?: true;
}

/** Options of {@link checkGrounding} and {@link snapQuotes}. */
export interface GroundingOptions {
  /** Backend of the best-span search in {@link snapQuotes} ("auto" = WASM when loaded). */
  backend?: BackendRequest;
  /** Characters of the reply read for quotes (default {@link MAX_REPLY_CHARS}). */
  maxReplyChars?: number;
  /** Quotes of 3+ words checked per reply (default {@link MAX_QUOTES_CHECKED}). */
  maxQuotes?: number;
}

/** Options of {@link passesGrounding}. */
export interface PassOptions {
  /** Also fail a turn with a misattributed quote (`moot --strict-citations`). Default false: the seed's rule. */
  strictCitations?: boolean;
}

const TAG_GROUP = String.raw`\[\s*[so]\d+(?:\s*,\s*[so]\d+)*\s*\]`;
const TAG_GROUP_RE = new RegExp(TAG_GROUP, "gi");
const TAG_RE = /[so]\d+/gi;
// After a closing mark: optional sentence punctuation, then one or more tag groups. The white
// space before and after the punctuation is one `\s*` unless punctuation stands between them:
// `\s*[.,;:!?…]*\s*` let both runs share a run of spaces, which a backtracking engine tries
// every way of splitting (quadratic: a reply with 100,000 spaces after a quote took 34 s).
const TAGS_AFTER_RE = new RegExp(String.raw`\s*(?:[.,;:!?…]+\s*)?(${TAG_GROUP}(?:\s*${TAG_GROUP})*)`, "iy");
const ELLIPSIS_RE = /\.\s*\.\s*\.|…/;
const ELLIPSIS_SPLIT_RE = /\.\s*\.\s*\.|…/g;
const NEGATIONS = new Set(["not", "no", "never", "nor", "cannot"]);

function checkText(text: unknown, what: string): asserts text is string {
  if (typeof text !== "string") throw new TypeError(`${what} must be a string, got ${text === null ? "null" : typeof text}`);
}

function checkLimit(value: number | undefined, fallback: number, what: string): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value < 0) throw new RangeError(`${what} must be a whole number of at least 0, got ${value}`);
  return value;
}

/**
 * Every citation tag in a reply, in order, lower-cased, repeats kept.
 * Groups such as `[s1, S3]` give each tag; `[o2]` is a moot-turn tag.
 *
 * @param text the reply
 * @returns tags such as `["s1", "s3", "o2"]`
 */
export function parseTags(text: string): string[] {
  checkText(text, "parseTags(text): text");
  const out: string[] = [];
  for (const group of text.matchAll(TAG_GROUP_RE)) {
    for (const t of group[0].matchAll(TAG_RE)) out.push(t[0].toLowerCase());
  }
  return out;
}

const tagsOf = (group: string): string[] => [...group.matchAll(TAG_RE)].map((t) => t[0].toLowerCase());

/** A span as the check and the snap need it: the public part, plus where its words lie and the tag groups among them. */
interface Span extends QuoteSpan {
  /** UTF-16 span of the quote's words in the reply (first word's start, last word's end); start+1 twice when wordless. */
  textStart: number;
  textEnd: number;
  /** Tag groups written between the first and last word, as written (kept after a snapped text). */
  midTags: string[];
}

/** Characters after which a quote mark opens (besides the start of the text and another mark). */
const OPENS_AFTER = /[\s([{\u2014\u2013]/u;
/** Characters before which a quote mark closes (besides the end of the text and another mark). */
const CLOSES_BEFORE = /[\s)\]}.,;:!?\u2014\u2013\u2026]/u;

/**
 * Pair the quote marks of `flat` (positions of `"`, ascending). Models nest a
 * source's own quotation inside their quote with the same mark (`"He cried
 * "Begone!" and fled"`, or `“… “…” …”` once curly marks are read as `"`), which
 * taking marks two by two reads as two wrong quotes. So each mark is read by its
 * context as typesetters do: it opens after a space, an opening bracket, a dash,
 * another mark or the start, before a non-space; it closes after a non-space,
 * before a space, punctuation, a closing bracket, another mark or the end. When
 * every mark reads one way only and they nest properly, the outermost pairs are
 * the quotes (inner marks stay part of the quote's text; its words ignore them).
 * Otherwise — or when nothing nests — marks pair two by two (the 1st with the
 * 2nd, the 3rd with the 4th; an unpaired last mark opens nothing), as before.
 *
 * @returns [opening, closing] mark positions, in order
 */
function pairMarks(flat: string, marks: readonly number[]): Array<[number, number]> {
  const twoByTwo = () => {
    const pairs: Array<[number, number]> = [];
    for (let m = 0; m + 1 < marks.length; m += 2) pairs.push([marks[m]!, marks[m + 1]!]);
    return pairs;
  };
  if (marks.length < 4) return twoByTwo();
  const pairs: Array<[number, number]> = [];
  const stack: number[] = [];
  let nested = false;
  for (const i of marks) {
    const prev = i > 0 ? flat[i - 1]! : "";
    const next = i + 1 < flat.length ? flat[i + 1]! : "";
    const opens = (prev === "" || prev === '"' || OPENS_AFTER.test(prev)) && next !== "" && !/\s/u.test(next);
    const closes = prev !== "" && !/\s/u.test(prev) && (next === "" || next === '"' || CLOSES_BEFORE.test(next));
    if (opens === closes) return twoByTwo();
    if (opens) {
      stack.push(i);
      if (stack.length > 1) nested = true;
    } else {
      const open = stack.pop();
      if (open === undefined) return twoByTwo();
      if (!stack.length) pairs.push([open, i]);
    }
  }
  return nested && !stack.length ? pairs : twoByTwo();
}

/**
 * The quoted spans of `flat` (the reply, quote characters translated): pairs of
 * `"` as {@link pairMarks} reads them. Spans closing past `limit` are
 * marked unchecked and not read further. O(length of the reply + words read).
 */
function scanSpans(flat: string, limit: number): Span[] {
  const marks: number[] = [];
  for (let i = flat.indexOf('"'); i !== -1; i = flat.indexOf('"', i + 1)) marks.push(i);
  const spans: Span[] = [];
  for (const [open, close] of pairMarks(flat, marks)) {
    const start = open;
    const end = close + 1;
    if (end > limit) {
      spans.push({ text: flat.slice(start + 1, end - 1), start, end, tags: [], unchecked: true, textStart: start + 1, textEnd: start + 1, midTags: [] });
      continue;
    }
    const inner = flat.slice(start + 1, end - 1);
    const tags: string[] = [];
    const groups: Array<[number, number]> = [];
    // Tag groups are citations, not words: blank them out (same length, so offsets hold).
    const masked = inner.replace(TAG_GROUP_RE, (g, at: number) => {
      tags.push(...tagsOf(g));
      groups.push([at, at + g.length]);
      return " ".repeat(g.length);
    });
    const ws = words(masked);
    let text = "";
    let textStart = start + 1;
    let textEnd = start + 1;
    const midTags: string[] = [];
    if (ws.length) {
      const a = ws[0]!.start;
      const b = ws[ws.length - 1]!.end;
      textStart = start + 1 + a;
      textEnd = start + 1 + b;
      let cut = a;
      for (const [g0, g1] of groups) {
        if (g0 < a || g1 > b) continue;
        midTags.push(inner.slice(g0, g1));
        text += inner.slice(cut, g0).trimEnd();
        cut = g1;
      }
      text += inner.slice(cut, b);
      if (midTags.length) text = text.replace(/\s+/g, " ");
    }
    spans.push({ text, start, end, tags, textStart, textEnd, midTags });
  }
  // Tags after each closing mark (before the next quote opens).
  for (let i = 0; i < spans.length; i++) {
    const span = spans[i]!;
    if (span.unchecked) break;
    TAGS_AFTER_RE.lastIndex = span.end;
    const m = TAGS_AFTER_RE.exec(flat);
    const next = i + 1 < spans.length ? spans[i + 1]!.start : flat.length;
    if (m && TAGS_AFTER_RE.lastIndex <= next) span.tags.push(...tagsOf(m[1]!));
  }
  return spans;
}

const publicSpan = (s: Span): QuoteSpan =>
  s.unchecked ? { text: s.text, start: s.start, end: s.end, tags: s.tags, unchecked: true } : { text: s.text, start: s.start, end: s.end, tags: s.tags };

/**
 * Every quoted span of a reply, short and wordless ones included: the text
 * between the 1st and 2nd `"`, the 3rd and 4th, and so on (curly quotes count
 * as `"`; an unpaired last mark opens nothing) — except that a quotation nested
 * inside a quote with the same mark (`"He cried "Begone!" and fled"`) stays
 * inside it, when every mark's context says whether it opens or closes. See
 * {@link QuoteSpan}.
 *
 * @param text the reply, as written
 * @param options `maxReplyChars` (default {@link MAX_REPLY_CHARS}): spans closing past it are `unchecked`
 * @throws TypeError when `text` is not a string
 */
export function quoteSpans(text: string, options: Pick<GroundingOptions, "maxReplyChars"> = {}): QuoteSpan[] {
  checkText(text, "quoteSpans(text): text");
  return scanSpans(translateQuoteChars(text), checkLimit(options.maxReplyChars, MAX_REPLY_CHARS, "maxReplyChars")).map(publicSpan);
}

/**
 * Every double-quoted span of 3 or more words in a reply, edge punctuation,
 * markdown emphasis and tags inside the marks dropped (`“**the river
 * remembers**”` gives `the river remembers`). Spans past `MAX_REPLY_CHARS` are left out.
 *
 * @param text the reply
 * @returns the quotes' texts, in order
 */
export function findQuotes(text: string): string[] {
  return quoteSpans(text)
    .filter((s) => !s.unchecked && words(s.text).length >= QUOTE_MIN_WORDS)
    .map((s) => s.text);
}

/**
 * Resolve `[oN]` turns to a source and its texts: `"other"` when any named
 * turn is the other tree's, `"self"` when all are the speaker's own; a turn
 * that is neither contributes no text (so the quote is not found).
 */
function mootSource(
  turns: number[],
  others: ReadonlyMap<number, string>,
  own: ReadonlyMap<number, string>,
): { source: QuoteSource; texts: string[] } {
  const source: QuoteSource = turns.every((t) => own.has(t)) ? "self" : "other";
  const texts: string[] = [];
  for (const t of turns) {
    const said = others.get(t) ?? own.get(t);
    if (said !== undefined) texts.push(said);
  }
  return { source, texts };
}

const turnsOf = (tags: readonly string[]): number[] => tags.filter((t) => t.startsWith("o")).map((t) => Number(t.slice(1)));

/** Whether a word (as written, quote characters translated) is a negation. */
function isNegation(word: string): boolean {
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
  checkText(text, "prepareHaystack(text): text");
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
  checkText(quote, "quoteIn(quote): quote");
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

function toMap(turns?: ReadonlyMap<number, string> | Readonly<Record<number, string>>): ReadonlyMap<number, string> {
  if (!turns) return new Map();
  if (turns instanceof Map) return turns;
  return new Map(Object.entries(turns).map(([k, v]) => [Number(k), v as string]));
}

/** Moot turns by number (turn number → what was said): a Map or a plain record. */
export type TurnTexts = ReadonlyMap<number, string> | Readonly<Record<number, string>>;

const contentOf = (p: string | TaggedText): string => (typeof p === "string" ? p : p.content);

function checkPassages(list: unknown, what: string): asserts list is readonly (string | TaggedText)[] {
  if (!Array.isArray(list)) throw new TypeError(`${what} must be an array of passages, got ${list === null ? "null" : typeof list}`);
  list.forEach((p, i) => {
    if (typeof p !== "string" && (typeof p !== "object" || p === null || typeof (p as TaggedText).content !== "string")) {
      throw new TypeError(`${what}[${i}] must be a string or {tag, content}`);
    }
  });
}

/**
 * Check a reply's citations and quotes (the seed's check, DESIGN.md section 5),
 * and each own quote's attribution.
 *
 * - `[sN]` tags must name a passage given this turn (`passages[i].tag`).
 * - An own quote is found when it occurs in any passage of the speaker's book
 *   retrieved during the moot (`pool`, default `passages`). Its attribution:
 *   `"cited"` when one of its `[sN]` tags names a passage of this turn that
 *   holds it, `"misattributed"` when its tags name only passages that do not
 *   (or no passage), `"uncited"` with no `[sN]` tag.
 * - A quote with an `[oN]` tag quotes turn N of the moot: of the other tree
 *   (source `"other"`) or of the speaker itself (`"self"`); checked against
 *   that turn's words and counted apart, never toward grounding. Moot words
 *   under an `[sN]` tag are an own quote, so they miss.
 * - Quotes under 3 words (wordless ones included) are not checked and not
 *   listed: a quote never checked never counts as found.
 * - Past `maxReplyChars`, or past `maxQuotes` quotes of 3+ words, quoted spans
 *   are counted in `quotesUnchecked` and not checked (the reply does not pass).
 *
 * @param text the model's reply
 * @param passages this turn's passages, each with its `tag` (`s1`…)
 * @param pool every passage of the speaker's book seen in the moot
 * @param others the other tree's turns so far (turn number → text)
 * @param own the speaker's own earlier turns (turn number → text)
 * @param options the caps (`maxReplyChars`, `maxQuotes`); `backend` is not used here
 * @throws TypeError naming the argument when `text` is not a string or a passage list is not an array of passages
 */
export function checkGrounding(
  text: string,
  passages: readonly TaggedText[],
  pool?: readonly (string | TaggedText)[],
  others?: TurnTexts,
  own?: TurnTexts,
  options: GroundingOptions = {},
): Grounding {
  checkText(text, "checkGrounding(text): text");
  checkPassages(passages, "checkGrounding: passages");
  if (pool !== undefined) checkPassages(pool, "checkGrounding: pool");
  const maxChars = checkLimit(options.maxReplyChars, MAX_REPLY_CHARS, "maxReplyChars");
  const maxQuotes = checkLimit(options.maxQuotes, MAX_QUOTES_CHECKED, "maxQuotes");
  const byTag = new Map<string, string>();
  for (const p of passages) if (p.tag) byTag.set(p.tag.toLowerCase(), p.content);
  const sTags = parseTags(text).filter((t) => t.startsWith("s"));
  let haystacks: Haystack[] | null = null;
  const othersMap = toMap(others);
  const ownMap = toMap(own);
  const quotes: QuoteCheck[] = [];
  let unchecked = 0;
  for (const span of scanSpans(translateQuoteChars(text), maxChars)) {
    if (span.unchecked) {
      unchecked++;
      continue;
    }
    if (words(span.text).length < QUOTE_MIN_WORDS) continue;
    if (quotes.length >= maxQuotes) {
      unchecked++;
      continue;
    }
    const turns = turnsOf(span.tags);
    if (turns.length) {
      const moot = mootSource(turns, othersMap, ownMap);
      const match = quoteIn(span.text, moot.texts.map(prepareHaystack));
      quotes.push(match.found ? { text: span.text, found: true, source: moot.source } : { text: span.text, found: false, source: moot.source, reason: match.reason });
      continue;
    }
    haystacks ??= (pool ?? passages).map((p) => prepareHaystack(contentOf(p)));
    const match = quoteIn(span.text, haystacks);
    const cites = span.tags.filter((t) => t.startsWith("s"));
    const attribution: Attribution = !cites.length
      ? "uncited"
      : cites.some((t) => byTag.has(t) && quoteIn(span.text, [prepareHaystack(byTag.get(t)!)]).found)
        ? "cited"
        : "misattributed";
    quotes.push(
      match.found
        ? { text: span.text, found: true, source: "own", attribution, cites }
        : { text: span.text, found: false, source: "own", reason: match.reason, attribution, cites },
    );
  }
  const count = (source: QuoteSource): [number, number] => {
    const picked = quotes.filter((q) => q.source === source);
    return [picked.filter((q) => q.found).length, picked.length];
  };
  const attributed = (a: Attribution) => quotes.filter((q) => q.attribution === a).length;
  const [quotesFound, quotesTotal] = count("own");
  const [otherQuotesFound, otherQuotesTotal] = count("other");
  const [selfQuotesFound, selfQuotesTotal] = count("self");
  return {
    tagsValid: sTags.every((t) => byTag.has(t)),
    tagsCited: sTags.length,
    quotesFound,
    quotesTotal,
    otherQuotesFound,
    otherQuotesTotal,
    selfQuotesFound,
    selfQuotesTotal,
    quotesCited: attributed("cited"),
    quotesMisattributed: attributed("misattributed"),
    quotesUncited: attributed("uncited"),
    quotesUnchecked: unchecked,
    quotes,
  };
}

/**
 * Whether a turn passes: its tags are valid, it cites at least one `[sN]`,
 * and it has at least one own quote, every one found (the seed's rule); no
 * quote was left unchecked by the caps; and, with `strictCitations`, no own
 * quote is misattributed.
 *
 * @param g a {@link checkGrounding} result (a transcript's `grounding`, without `quotes`, also works)
 * @param options `strictCitations` (default false)
 */
export function passesGrounding(g: Omit<Grounding, "quotes">, options: PassOptions = {}): boolean {
  if (!g || typeof g !== "object") throw new TypeError("passesGrounding(g): g must be a checkGrounding result");
  const seed = g.tagsValid && g.tagsCited > 0 && g.quotesTotal > 0 && g.quotesFound === g.quotesTotal;
  return seed && !(g.quotesUnchecked > 0) && !(options.strictCitations && g.quotesMisattributed > 0);
}

function negationCount(text: string): number {
  const flat = translateQuoteChars(text);
  return words(text).filter((w) => isNegation(flat.slice(w.start, w.end))).length;
}

/**
 * Make every quote in a reply verbatim, or not a quote.
 *
 * Each quote (see {@link quoteSpans}) is checked as {@link checkGrounding}
 * does; found quotes and tags are left alone. A missed quote is:
 * - unquoted when it holds no word (`"no words"`), or under 3 words (`"under 3 words"`), unchecked;
 * - unquoted when past the caps (`"unchecked"`: past `maxReplyChars`, or after `maxQuotes` quotes of 3+ words);
 * - unquoted when it has an ellipsis (`"ellipsis"` or `"elision drops a negation"`);
 * - unquoted when too long for best-span search (`"too long"`; the search is never run on it);
 * - else searched with `bestSpan` over its sources (the pool, or the quoted
 *   moot turn): snapped to the span's exact words when the ratio is at least
 *   {@link SNAP_MIN_RATIO} and the span has as many negations as the quote;
 *   unquoted with `"negation differs"` when the counts differ, `"not in source"`
 *   below the bar. A snap replaces only the quote's words: its marks, edge
 *   punctuation and tags (inside the marks or after them) stay as written.
 * Unquoting removes only the two quote marks; the words stay as paraphrase.
 * Edits are applied in one pass: O(reply length) beyond the searches.
 *
 * @param text the reply
 * @param pool every passage of the speaker's book seen in the moot
 * @param others the other tree's turns so far (turn number → text)
 * @param own the speaker's own earlier turns (turn number → text)
 * @param options `backend` of the best-span search; the caps (`maxReplyChars`, `maxQuotes`); `index`: a quote index built over the same pool
 *   (createQuoteIndex(pool contents)), searched instead of bestSpan for own quotes; same snaps (its
 *   first span is bestSpan's winner when that is ≥ SNAP_MIN_RATIO), but a "not in source" unquote
 *   then reports ratio 0
 * @returns the corrected reply and one {@link Snap} per corrected quote, in order
 * @throws TypeError naming the argument on a non-string reply or a pool that is not an array of passages
 */
export function snapQuotes(
  text: string,
  pool: readonly (string | TaggedText)[],
  others?: TurnTexts,
  own?: TurnTexts,
  options: GroundingOptions & { index?: QuoteIndex } = {},
): { text: string; snaps: Snap[] } {
  checkText(text, "snapQuotes(text): text");
  checkPassages(pool, "snapQuotes: pool");
  const maxChars = checkLimit(options.maxReplyChars, MAX_REPLY_CHARS, "maxReplyChars");
  const maxQuotes = checkLimit(options.maxQuotes, MAX_QUOTES_CHECKED, "maxQuotes");
  const othersMap = toMap(others);
  const ownMap = toMap(own);
  const ownSources = pool.map(contentOf);
  let ownHaystacks: Haystack[] | null = null;
  let ownMatcher: QuoteMatcher | null = null;
  const edits: Array<{ start: number; end: number; replacement: string }> = [];
  const snaps: Snap[] = [];
  let checked = 0;
  for (const span of scanSpans(translateQuoteChars(text), maxChars)) {
    const q = span.text;
    const turns = turnsOf(span.tags);
    const source: QuoteSource = turns.length ? mootSource(turns, othersMap, ownMap).source : "own";
    const unquote = (reason: QuoteReason, ratio = 0, shown = q) => {
      edits.push({ start: span.start, end: span.start + 1, replacement: "" }, { start: span.end - 1, end: span.end, replacement: "" });
      snaps.push({ text: shown, source, action: "unquoted", to: null, ratio: round3(ratio), reason });
    };
    if (span.unchecked) {
      unquote("unchecked");
      continue;
    }
    const n = words(q).length;
    if (n === 0) {
      // A wordless span has no first or last word, so `q` is empty: report what stood between
      // the marks instead, or a reader sees `unquoted "" (no words)` and cannot tell which.
      unquote("no words", 0, text.slice(span.start + 1, span.end - 1).trim());
      continue;
    }
    if (n < QUOTE_MIN_WORDS) {
      unquote("under 3 words");
      continue;
    }
    if (checked++ >= maxQuotes) {
      unquote("unchecked");
      continue;
    }
    let sources: string[];
    let haystacks: Haystack[];
    if (turns.length) {
      sources = mootSource(turns, othersMap, ownMap).texts;
      haystacks = sources.map(prepareHaystack);
    } else {
      sources = ownSources;
      haystacks = ownHaystacks ??= ownSources.map(prepareHaystack);
    }
    const match = quoteIn(q, haystacks);
    if (match.found) continue;
    if (match.reason === "ellipsis" || match.reason === "elision drops a negation") {
      unquote(match.reason);
      continue;
    }
    if (!fitsBestSpan(q)) {
      unquote("too long");
      continue;
    }
    const viaIndex = !turns.length && options.index !== undefined;
    const located = viaIndex ? options.index!.locate(q, { minRatio: SNAP_MIN_RATIO, limit: 1 })[0] : undefined;
    const best = viaIndex
      ? (located ?? { text: "", ratio: 0 })
      : (turns.length
          ? createQuoteMatcher(sources, { backend: options.backend })
          : (ownMatcher ??= createQuoteMatcher(ownSources, { backend: options.backend }))
        ).bestSpan(q);
    if (!best.text || best.ratio < SNAP_MIN_RATIO) {
      unquote("not in source", best.ratio);
      continue;
    }
    if (negationCount(best.text) !== negationCount(q)) {
      unquote("negation differs", best.ratio);
      continue;
    }
    // Only the words are replaced: marks, edge punctuation and tags stay; tags among the words follow the new words.
    const replacement = span.midTags.length ? `${best.text} ${span.midTags.join(" ")}` : best.text;
    edits.push({ start: span.textStart, end: span.textEnd, replacement });
    snaps.push({ text: q, source, action: "snapped", to: best.text, ratio: round3(best.ratio), reason: null });
  }
  return { text: applyEdits(text, edits), snaps };
}

/** Apply non-overlapping edits given in ascending order, in one pass (O(length)). */
function applyEdits(text: string, edits: ReadonlyArray<{ start: number; end: number; replacement: string }>): string {
  if (!edits.length) return text;
  const parts: string[] = [];
  let at = 0;
  for (const e of edits) {
    parts.push(text.slice(at, e.start), e.replacement);
    at = e.end;
  }
  parts.push(text.slice(at));
  return parts.join("");
}

function round3(x: number): number {
  return Math.round(x * 1000) / 1000;
}
