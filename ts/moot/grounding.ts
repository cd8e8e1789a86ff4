/**
 * Quote grounding for moots (DESIGN.md section 5): citation tags, quoted spans,
 * the grounding check and the snapping of near-miss quotes.
 *
 * Vocabulary:
 * - a *tag* is `[s2]` (a passage given this turn) or `[o3]` (words spoken in
 *   turn 3 of the moot); a group `[s1, s3]` holds several; case-insensitive.
 * - a *quote* is the text between a pair of double quotes (curly ones count,
 *   see words.ts), edge punctuation and markdown emphasis dropped. Only quotes
 *   of 3 or more words are checked.
 * - a quote followed by an `[oN]` tag quotes the moot itself: the other tree
 *   (source `"other"`) or the speaker's own earlier turn (`"self"`). Every
 *   other quote is an `"own"` quote: it must be in the speaker's own book.
 * - a quote is *found* when its normalized words occur word-aligned in one
 *   normalized haystack. With an ellipsis (`...` or `…`) every fragment must
 *   be found, in order, in one haystack, and no elided stretch may hold a
 *   negation (`not`, `no`, `never`, `nor`, `cannot`, any `n't` word).
 *
 * All offsets are UTF-16 code units into the reply as given.
 */
import { bestSpan, MAX_QUOTE_WORDS } from "./best-span.js";
import { translateQuoteChars, words, wordCount, type Word } from "./words.js";

/** Lowest best-span ratio at which a missed quote is replaced by the source's words. */
export const SNAP_MIN_RATIO = 0.8;

/** Quotes shorter than this many words are not checked (and are unquoted by snapping). */
export const QUOTE_MIN_WORDS = 3;

/** Where a quote's words must come from: the speaker's book, the other tree's turn, or its own earlier turn. */
export type QuoteSource = "own" | "other" | "self";

/**
 * Why a quote is not found or was corrected:
 * - `"not in source"`: no word-aligned match and no span close enough;
 * - `"ellipsis"`: a quote with an ellipsis whose fragments are not all found in order;
 * - `"elision drops a negation"`: the fragments are found in order, but an elided stretch holds a negation;
 * - `"negation differs"`: the nearest span adds or removes a negation, so snapping would flip the meaning;
 * - `"too long"`: more words than best-span search accepts (`MAX_QUOTE_WORDS`) and not found verbatim;
 * - `"under 3 words"`: too short to check.
 */
export type QuoteReason =
  | "not in source"
  | "ellipsis"
  | "elision drops a negation"
  | "negation differs"
  | "too long"
  | "under 3 words";

/** One checked quote of a reply. `reason` is set when it was not found. */
export interface QuoteCheck {
  text: string;
  found: boolean;
  source: QuoteSource;
  reason?: QuoteReason;
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
  quotes: QuoteCheck[];
}

/** One correction made by {@link snapQuotes}. `to` is the source's words when snapped, else null. */
export interface Snap {
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

/** A quoted span of a reply: its cleaned words and the UTF-16 span [start, end) of the quote marks themselves. */
export interface QuoteSpan {
  text: string;
  start: number;
  end: number;
}

const TAG_GROUP_RE = /\[\s*[so]\d+(?:\s*,\s*[so]\d+)*\s*\]/gi;
const TAG_RE = /[so]\d+/gi;
const TAG_GROUP_AFTER_RE = /^\s*(\[\s*[so]\d+(?:\s*,\s*[so]\d+)*\s*\])/i;
const ELLIPSIS_RE = /\.\s*\.\s*\.|…/;
const ELLIPSIS_SPLIT_RE = /\.\s*\.\s*\.|…/g;
// Edge of a quote: anything that is not a letter or a number (space, punctuation, markdown * and _).
const LEAD_EDGE_RE = /^[^\p{L}\p{N}]+/u;
const TRAIL_EDGE_RE = /[^\p{L}\p{N}]+$/u;
const NEGATIONS = new Set(["not", "no", "never", "nor", "cannot"]);

/**
 * Every citation tag in a reply, in order, lower-cased, repeats kept.
 * Groups such as `[s1, S3]` give each tag; `[o2]` is a moot-turn tag.
 *
 * @param text the reply
 * @returns tags such as `["s1", "s3", "o2"]`
 */
export function parseTags(text: string): string[] {
  const out: string[] = [];
  for (const group of text.matchAll(TAG_GROUP_RE)) {
    for (const t of group[0].matchAll(TAG_RE)) out.push(t[0].toLowerCase());
  }
  return out;
}

/** Strip edge punctuation (and markdown emphasis) from a quote's inner text. */
function cleanQuote(inner: string): string {
  return inner.replace(LEAD_EDGE_RE, "").replace(TRAIL_EDGE_RE, "");
}

/**
 * Every quoted span of a reply, short ones included: the text between the
 * 1st and 2nd `"`, the 3rd and 4th, and so on (curly quotes count as `"`; an
 * unpaired last mark opens nothing). Edge punctuation inside the marks is
 * dropped; `start`/`end` cover the marks themselves (UTF-16 offsets).
 *
 * @param text the reply, as written
 */
export function quoteSpans(text: string): QuoteSpan[] {
  const flat = translateQuoteChars(text);
  const marks: number[] = [];
  for (let i = flat.indexOf('"'); i !== -1; i = flat.indexOf('"', i + 1)) marks.push(i);
  const spans: QuoteSpan[] = [];
  for (let m = 0; m + 1 < marks.length; m += 2) {
    const start = marks[m]!;
    const end = marks[m + 1]! + 1;
    spans.push({ text: cleanQuote(flat.slice(start + 1, end - 1)), start, end });
  }
  return spans;
}

/**
 * Every double-quoted span of 3 or more words in a reply, edge punctuation
 * and markdown emphasis dropped (`“**the river remembers**”` gives
 * `the river remembers`).
 *
 * @param text the reply
 * @returns the quotes' texts, in order
 */
export function findQuotes(text: string): string[] {
  return quoteSpans(text)
    .map((s) => s.text)
    .filter((q) => wordCount(q) >= QUOTE_MIN_WORDS);
}

/** The moot turns an `[oN]` tag right after span `i` names (before the next quote opens); empty for an own quote. */
function quotedTurns(text: string, spans: QuoteSpan[], i: number): number[] {
  const span = spans[i]!;
  const limit = i + 1 < spans.length ? spans[i + 1]!.start : text.length;
  const m = TAG_GROUP_AFTER_RE.exec(text.slice(span.end, limit));
  if (!m) return [];
  return [...m[1]!.matchAll(TAG_RE)]
    .map((t) => t[0].toLowerCase())
    .filter((t) => t.startsWith("o"))
    .map((t) => Number(t.slice(1)));
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

/** Whether a word (as written, quote characters translated) is a negation. */
function isNegation(word: string): boolean {
  const lower = word.toLowerCase();
  return NEGATIONS.has(lower) || /n['’]t$/.test(lower);
}

/** A haystack prepared for word-aligned search: joined keys, word starts in that string, negation flags. */
export interface Haystack {
  joined: string;
  /** Character offset in `" " + joined + " "` of each word's leading space. */
  starts: number[];
  negation: boolean[];
}

/** Prepare a text for {@link quoteIn}: normalize once, remember where words start and which are negations. */
export function prepareHaystack(text: string): Haystack {
  const ws = words(text);
  const flat = translateQuoteChars(text);
  const starts: number[] = [];
  let at = 0;
  for (const w of ws) {
    starts.push(at);
    at += w.key.length + 1;
  }
  return {
    joined: ws.map((w) => w.key).join(" "),
    starts,
    negation: ws.map((w: Word) => isNegation(flat.slice(w.start, w.end))),
  };
}

/** Word indices [first, last+1) of every word-aligned occurrence of `frag` (space-joined keys) from word `from` on. */
function occurrences(h: Haystack, frag: string, from: number): Array<[number, number]> {
  const padded = ` ${h.joined} `;
  const needle = ` ${frag} `;
  const n = frag.split(" ").length;
  const out: Array<[number, number]> = [];
  let pos = from < h.starts.length ? h.starts[from]! : padded.length;
  for (let i = padded.indexOf(needle, pos); i !== -1; i = padded.indexOf(needle, i + 1)) {
    const w = lowerBound(h.starts, i);
    out.push([w, w + n]);
    pos = i + 1;
  }
  return out;
}

function lowerBound(xs: number[], x: number): number {
  let lo = 0;
  let hi = xs.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (xs[mid]! < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The outcome of {@link quoteIn}: found, or the reason it is not. */
export type QuoteMatch = { found: true } | { found: false; reason: QuoteReason };

/**
 * Whether a quote occurs in any haystack, word-aligned, after normalization.
 *
 * With an ellipsis the quote is split into fragments (empty ones dropped); all
 * must be found in one haystack, in order, without overlapping. For each place
 * the first fragment occurs, the later fragments are taken at their earliest
 * place (a later place would only lengthen the elided stretch); the quote is
 * found when some such chain elides no negation. When every chain elides one,
 * the reason is `"elision drops a negation"`; when no chain exists, `"ellipsis"`.
 * Without an ellipsis a miss has reason `"not in source"`.
 *
 * Cost: O(total haystack length) per fragment occurrence; no search beyond substring scans.
 *
 * @param quote the quote as written (not normalized)
 * @param haystacks prepared sources (see {@link prepareHaystack})
 */
export function quoteIn(quote: string, haystacks: readonly Haystack[]): QuoteMatch {
  const hasEllipsis = ELLIPSIS_RE.test(quote);
  const fragments = (hasEllipsis ? quote.split(ELLIPSIS_SPLIT_RE) : [quote])
    .map((f) => words(f).map((w) => w.key).join(" "))
    .filter((f) => f.length > 0);
  if (fragments.length === 0) return { found: false, reason: hasEllipsis ? "ellipsis" : "not in source" };
  if (!hasEllipsis) {
    const needle = ` ${fragments[0]} `;
    return haystacks.some((h) => ` ${h.joined} `.includes(needle))
      ? { found: true }
      : { found: false, reason: "not in source" };
  }
  let droppedNegation = false;
  for (const h of haystacks) {
    for (const [, firstEnd] of occurrences(h, fragments[0]!, 0)) {
      let end = firstEnd;
      let chained = true;
      let negated = false;
      for (let f = 1; f < fragments.length; f++) {
        const next = occurrences(h, fragments[f]!, end)[0];
        if (!next) {
          chained = false;
          break;
        }
        for (let w = end; w < next[0]; w++) if (h.negation[w]) negated = true;
        end = next[1];
      }
      if (!chained) break; // later starts only find fewer places for the rest
      if (!negated) return { found: true };
      droppedNegation = true;
    }
  }
  return { found: false, reason: droppedNegation ? "elision drops a negation" : "ellipsis" };
}

function toMap(turns?: ReadonlyMap<number, string> | Readonly<Record<number, string>>): ReadonlyMap<number, string> {
  if (!turns) return new Map();
  if (turns instanceof Map) return turns;
  return new Map(Object.entries(turns).map(([k, v]) => [Number(k), v as string]));
}

/** Moot turns by number (turn number → what was said): a Map or a plain record. */
export type TurnTexts = ReadonlyMap<number, string> | Readonly<Record<number, string>>;

const contentOf = (p: string | TaggedText): string => (typeof p === "string" ? p : p.content);

/**
 * Check a reply's citations and quotes (the seed's check, DESIGN.md section 5).
 *
 * - `[sN]` tags must name a passage given this turn (`passages[i].tag`).
 * - An own quote is found when it occurs in any passage of the speaker's book
 *   retrieved during the moot (`pool`, default `passages`).
 * - A quote followed by `[oN]` quotes turn N of the moot: of the other tree
 *   (source `"other"`) or of the speaker itself (`"self"`); checked against
 *   that turn's words and counted apart, never toward grounding. Moot words
 *   under an `[sN]` tag are an own quote, so they miss.
 * - Quotes under 3 words are not checked and not listed: a quote never checked
 *   never counts as found.
 *
 * @param text the model's reply
 * @param passages this turn's passages, each with its `tag` (`s1`…)
 * @param pool every passage of the speaker's book seen in the moot
 * @param others the other tree's turns so far (turn number → text)
 * @param own the speaker's own earlier turns (turn number → text)
 * @throws TypeError naming the argument when `text` is not a string or `passages` not an array
 */
export function checkGrounding(
  text: string,
  passages: readonly TaggedText[],
  pool?: readonly (string | TaggedText)[],
  others?: TurnTexts,
  own?: TurnTexts,
): Grounding {
  if (typeof text !== "string") throw new TypeError(`checkGrounding: text must be a string, got ${text === null ? "null" : typeof text}`);
  if (!Array.isArray(passages)) throw new TypeError(`checkGrounding: passages must be an array of {tag, text}, got ${passages === null ? "null" : typeof passages}`);
  const tags = new Set(passages.map((p) => p.tag).filter((t): t is string => !!t));
  const sTags = parseTags(text).filter((t) => t.startsWith("s"));
  const haystacks = (pool ?? passages).map((p) => prepareHaystack(contentOf(p)));
  const othersMap = toMap(others);
  const ownMap = toMap(own);
  const flat = translateQuoteChars(text);
  const spans = quoteSpans(text);
  const quotes: QuoteCheck[] = [];
  spans.forEach((span, i) => {
    if (wordCount(span.text) < QUOTE_MIN_WORDS) return;
    const turns = quotedTurns(flat, spans, i);
    let source: QuoteSource = "own";
    let match: QuoteMatch;
    if (turns.length) {
      const moot = mootSource(turns, othersMap, ownMap);
      source = moot.source;
      match = quoteIn(span.text, moot.texts.map(prepareHaystack));
    } else {
      match = quoteIn(span.text, haystacks);
    }
    quotes.push(match.found ? { text: span.text, found: true, source } : { text: span.text, found: false, source, reason: match.reason });
  });
  const count = (source: QuoteSource): [number, number] => {
    const picked = quotes.filter((q) => q.source === source);
    return [picked.filter((q) => q.found).length, picked.length];
  };
  const [quotesFound, quotesTotal] = count("own");
  const [otherQuotesFound, otherQuotesTotal] = count("other");
  const [selfQuotesFound, selfQuotesTotal] = count("self");
  return {
    tagsValid: sTags.every((t) => tags.has(t)),
    tagsCited: sTags.length,
    quotesFound,
    quotesTotal,
    otherQuotesFound,
    otherQuotesTotal,
    selfQuotesFound,
    selfQuotesTotal,
    quotes,
  };
}

/**
 * Whether a turn passes: its tags are valid, it cites at least one `[sN]`,
 * and it has at least one own quote, every one found.
 */
export function passesGrounding(g: Grounding): boolean {
  return g.tagsValid && g.tagsCited > 0 && g.quotesTotal > 0 && g.quotesFound === g.quotesTotal;
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
 * - unquoted, unchecked, when under 3 words (`"under 3 words"`);
 * - unquoted when it has an ellipsis (`"ellipsis"` or `"elision drops a negation"`);
 * - unquoted when longer than `MAX_QUOTE_WORDS` (`"too long"`; the span search is never run on it);
 * - else searched with `bestSpan` over its sources (the pool, or the quoted
 *   moot turn): snapped to the span's exact words when the ratio is at least
 *   {@link SNAP_MIN_RATIO} and the span has as many negations as the quote,
 *   keeping the quote's own marks and edge punctuation; unquoted with
 *   `"negation differs"` when the counts differ, `"not in source"` below the bar.
 * Unquoting removes only the two quote marks; the words stay as paraphrase.
 *
 * @param text the reply
 * @param pool every passage of the speaker's book seen in the moot
 * @param others the other tree's turns so far (turn number → text)
 * @param own the speaker's own earlier turns (turn number → text)
 * @returns the corrected reply and one {@link Snap} per corrected quote, in order
 */
export function snapQuotes(
  text: string,
  pool: readonly (string | TaggedText)[],
  others?: TurnTexts,
  own?: TurnTexts,
): { text: string; snaps: Snap[] } {
  const othersMap = toMap(others);
  const ownMap = toMap(own);
  const ownSources = pool.map(contentOf);
  let ownHaystacks: Haystack[] | null = null;
  const flat = translateQuoteChars(text);
  const spans = quoteSpans(text);
  const edits: Array<{ start: number; end: number; replacement: string }> = [];
  const snaps: Snap[] = [];
  spans.forEach((span, i) => {
    const q = span.text;
    if (!q) return;
    const turns = quotedTurns(flat, spans, i);
    let source: QuoteSource = "own";
    let sources = ownSources;
    let haystacks: Haystack[];
    if (turns.length) {
      const moot = mootSource(turns, othersMap, ownMap);
      source = moot.source;
      sources = moot.texts;
      haystacks = sources.map(prepareHaystack);
    } else {
      haystacks = ownHaystacks ??= ownSources.map(prepareHaystack);
    }
    const inner = text.slice(span.start + 1, span.end - 1);
    const unquote = (reason: QuoteReason, ratio = 0) => {
      edits.push({ start: span.start, end: span.end, replacement: inner });
      snaps.push({ text: q, source, action: "unquoted", to: null, ratio: round3(ratio), reason });
    };
    const n = wordCount(q);
    if (n < QUOTE_MIN_WORDS) return unquote("under 3 words");
    const match = quoteIn(q, haystacks);
    if (match.found) return;
    if (match.reason === "ellipsis" || match.reason === "elision drops a negation") return unquote(match.reason);
    if (n > MAX_QUOTE_WORDS) return unquote("too long");
    const best = bestSpan(q, sources);
    if (!best.text || best.ratio < SNAP_MIN_RATIO) return unquote("not in source", best.ratio);
    if (negationCount(best.text) !== negationCount(q)) return unquote("negation differs", best.ratio);
    const lead = LEAD_EDGE_RE.exec(inner)?.[0] ?? "";
    const trail = TRAIL_EDGE_RE.exec(inner.slice(lead.length))?.[0] ?? "";
    const replacement = `${text[span.start]}${lead}${best.text}${trail}${text[span.end - 1]}`;
    edits.push({ start: span.start, end: span.end, replacement });
    snaps.push({ text: q, source, action: "snapped", to: best.text, ratio: round3(best.ratio), reason: null });
  });
  let out = text;
  for (const e of edits.reverse()) out = out.slice(0, e.start) + e.replacement + out.slice(e.end);
  return { text: out, snaps };
}

function round3(x: number): number {
  return Math.round(x * 1000) / 1000;
}
