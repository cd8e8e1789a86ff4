/**
 * Reading a reply for grounding: its citation tags (`[s2]`, `[o3]`, groups `[s1, s3]`) and
 * its quoted spans, the quote marks paired by their context (see grounding.ts's module comment).
 */
import { translateQuoteChars, words } from "../match/index.js";
import { checkLimit, checkText, MAX_REPLY_CHARS, QUOTE_MIN_WORDS, type GroundingOptions, type QuoteSpan } from "./grounding-terms.js";
import { checkArgs } from "../args.js";

const TAG_GROUP = String.raw`\[\s*[so]\d+(?:\s*,\s*[so]\d+)*\s*\]`;
const TAG_GROUP_RE = new RegExp(TAG_GROUP, "gi");
const TAG_RE = /[so]\d+/gi;
// After a closing mark: optional sentence punctuation, then one or more tag groups. The white
// space before and after the punctuation is one `\s*` unless punctuation stands between them:
// `\s*[.,;:!?…]*\s*` let both runs share a run of spaces, which a backtracking engine tries
// every way of splitting (quadratic: a reply with 100,000 spaces after a quote took 34 s).
const TAGS_AFTER_RE = new RegExp(String.raw`\s*(?:[.,;:!?…]+\s*)?(${TAG_GROUP}(?:\s*${TAG_GROUP})*)`, "iy");

/**
 * Every citation tag in a reply, in order, lower-cased, repeats kept.
 * Groups such as `[s1, S3]` give each tag; `[o2]` is a moot-turn tag.
 *
 * @param text the reply
 * @returns tags such as `["s1", "s3", "o2"]`
 */
export function parseTags(text: string): string[] {
  checkArgs("parseTags", arguments, "text:string");
  checkText(text, "parseTags", "text");
  const out: string[] = [];
  for (const group of text.matchAll(TAG_GROUP_RE)) {
    for (const t of group[0].matchAll(TAG_RE)) out.push(t[0].toLowerCase());
  }
  return out;
}

const tagsOf = (group: string): string[] => [...group.matchAll(TAG_RE)].map((t) => t[0].toLowerCase());

/** A span as the check and the snap need it: the public part, plus where its words lie and the tag groups among them. */
export interface Span extends QuoteSpan {
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
export function scanSpans(flat: string, limit: number): Span[] {
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
  checkArgs("quoteSpans", arguments, "text:string options?:object");
  checkText(text, "quoteSpans", "text");
  return scanSpans(translateQuoteChars(text), checkLimit(options.maxReplyChars, MAX_REPLY_CHARS, "quoteSpans", "maxReplyChars")).map(publicSpan);
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
  checkArgs("findQuotes", arguments, "text:string");
  return quoteSpans(text)
    .filter((s) => !s.unchecked && words(s.text).length >= QUOTE_MIN_WORDS)
    .map((s) => s.text);
}
