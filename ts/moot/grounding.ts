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
 *
 * Files: the check's terms (limits, result and option types) are in grounding-terms.ts, the
 * reading of tags and quoted spans in quote-spans.ts, the word-aligned search in haystack.ts;
 * this file holds the check, the pass rule and the snapping.
 */
import { ArgumentError } from "../errors.js";
import { createQuoteMatcher, fitsBestSpan, translateQuoteChars, words, type QuoteIndex, type QuoteMatcher } from "../match/index.js";
import {
  checkLimit, checkText, MAX_QUOTES_CHECKED, MAX_REPLY_CHARS, QUOTE_MIN_WORDS, SNAP_MIN_RATIO,
  type Attribution, type Grounding, type GroundingOptions, type PassOptions, type QuoteCheck, type QuoteReason, type QuoteSource, type Snap, type TaggedText,
} from "./grounding-terms.js";
import { parseTags, scanSpans } from "./quote-spans.js";
import { isNegation, prepareHaystack, quoteIn, type Haystack } from "./haystack.js";
import { checkArgs } from "../args.js";

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

function toMap(turns?: ReadonlyMap<number, string> | Readonly<Record<number, string>>): ReadonlyMap<number, string> {
  if (!turns) return new Map();
  if (turns instanceof Map) return turns;
  return new Map(Object.entries(turns).map(([k, v]) => [Number(k), v as string]));
}

/** Moot turns by number (turn number → what was said): a Map or a plain record. */
export type TurnTexts = ReadonlyMap<number, string> | Readonly<Record<number, string>>;

const contentOf = (p: string | TaggedText): string => (typeof p === "string" ? p : p.content);

function checkPassages(list: unknown, fn: string, argument: string): asserts list is readonly (string | TaggedText)[] {
  if (!Array.isArray(list)) throw new ArgumentError(fn, argument, "an array of passages", list);
  list.forEach((p, i) => {
    if (typeof p !== "string" && (typeof p !== "object" || p === null || typeof (p as TaggedText).content !== "string")) {
      throw new ArgumentError(fn, `${argument}[${i}]`, "a string or {tag, content}", p);
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
  checkArgs("checkGrounding", arguments, "text:string passages:array pool?:array others?:array|object own?:array|object options?:object");
  checkText(text, "checkGrounding", "text");
  checkPassages(passages, "checkGrounding", "passages");
  if (pool !== undefined) checkPassages(pool, "checkGrounding", "pool");
  const maxChars = checkLimit(options.maxReplyChars, MAX_REPLY_CHARS, "checkGrounding", "maxReplyChars");
  const maxQuotes = checkLimit(options.maxQuotes, MAX_QUOTES_CHECKED, "checkGrounding", "maxQuotes");
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
  checkArgs("passesGrounding", arguments, "g:object options?:object");
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
  checkArgs("snapQuotes", arguments, "text:string pool:array others?:array|object own?:array|object options?:object");
  checkText(text, "snapQuotes", "text");
  checkPassages(pool, "snapQuotes", "pool");
  const maxChars = checkLimit(options.maxReplyChars, MAX_REPLY_CHARS, "snapQuotes", "maxReplyChars");
  const maxQuotes = checkLimit(options.maxQuotes, MAX_QUOTES_CHECKED, "snapQuotes", "maxQuotes");
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
