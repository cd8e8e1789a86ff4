/**
 * Markup a reader does not see as words, and markup a span must not split.
 *
 * Two rules of the matching engine (docs/match.md, "Markup"):
 *
 * 1. **Link destinations are not words.** In an inline link or image `[text](dest "title")`
 *    a reader sees `text`; `(dest "title")` is not read, nor the `[label]` of a reference link
 *    `[text][label]` whose definition `[label]: dest` the text holds, nor that definition line. {@link readerText} blanks it to spaces
 *    (one space for each UTF-16 unit, so every offset into the result is an offset into the
 *    text as given) and `words()` takes its words from that, so a quote of a link's visible
 *    text matches where the link stands, in quotes and in sources alike, and spans map back to
 *    the source with no table. A link is recognised as CommonMark writes one: `[`, text with
 *    balanced brackets (no blank line, at most {@link MAX_LINK_TEXT} units), `](`, a
 *    destination (`<…>` or a run with no space and balanced parentheses), an optional title
 *    (`"…"`, `'…'` or `(…)`) after white space, `)`; all within {@link MAX_LINK_TAIL} units.
 *
 * 2. **Span edges never split a markup run** ({@link markupSafeSpan}). A run is a pair of
 *    markers with text between them, within one paragraph (no run crosses a blank line):
 *    emphasis and strong emphasis (`_…_`, `*…*`, `__…__`, `**…**`; the markers are CommonMark
 *    delimiter runs of one character, an opener left-flanking and a closer right-flanking,
 *    `_` not opening or closing inside a word), code (`` `…` ``, a backtick run closed by the
 *    next run of the same length), links and images (`[` or `![` … `](dest)`) and bracketed
 *    text (`[12]`, `[Footnote 3: …]`). A span that holds some of a run's markers but not all
 *    of them is widened to the whole run (both markers, and the run's text between), again
 *    until no run is split; a span lying wholly inside a run's text, touching no marker, is
 *    left as it is. A marker with no partner in its paragraph (a stray `*` or `_`) is text.
 *
 * Why not a markdown parser here: the engine reads plain-text books as much as markdown
 * (Gutenberg's `_emphasis_` and `[Footnote: …]`, verse indented four spaces, which CommonMark
 * would read as code), and both rules must be the same for every text and cheap on a whole
 * book; the evidence spine's markdown is parsed by micromark elsewhere (ts/evidence).
 */
import { ArgumentError } from "../errors.js";
import { checkArgs } from "../args.js";

/** Most UTF-16 units from a link's `[` to its `]` (longer: not read as a link). */
export const MAX_LINK_TEXT = 1000;
/** Most UTF-16 units from a link's `(` to its `)`. */
export const MAX_LINK_TAIL = 2048;
/** How far (UTF-16 units) from a span's edges its paragraphs are read for markup runs. */
const MAX_REGION = 4000;

const isSpace = (c: string | undefined): boolean => c === undefined || /\s/u.test(c);
const isPunct = (c: string | undefined): boolean => c !== undefined && /[\p{P}\p{S}]/u.test(c);

/** Whether text[i] ends a blank line run: `\n`, optional spaces/tabs/CR, `\n`. */
function blankLineAt(text: string, i: number): boolean {
  if (text.charCodeAt(i) !== 0x0a) return false;
  for (let j = i + 1; j < text.length; j++) {
    const c = text.charCodeAt(j);
    if (c === 0x0a) return true;
    if (c !== 0x20 && c !== 0x09 && c !== 0x0d) return false;
  }
  return false;
}

/** Index of the `[` that the `]` at `q` closes (brackets balanced, no blank line between), or -1. */
function linkTextStart(text: string, q: number, floor = 0): number {
  let depth = 0;
  const stop = Math.max(floor, q - MAX_LINK_TEXT);
  for (let i = q - 1; i >= stop; i--) {
    const c = text.charCodeAt(i);
    if (c === 0x5d) depth++;
    else if (c === 0x5b) {
      if (depth === 0) return i;
      depth--;
    } else if (c === 0x0a && blankLineAt(text, i)) return -1;
  }
  return -1;
}

/** Skip spaces and tabs and at most one line end from `i`. */
function skipSpace(text: string, i: number, lim: number): number {
  let newline = false;
  while (i < lim) {
    const c = text.charCodeAt(i);
    if (c === 0x20 || c === 0x09 || c === 0x0d) i++;
    else if (c === 0x0a && !newline) {
      newline = true;
      i++;
    } else break;
  }
  return i;
}

/**
 * The end (after `)`) of an inline link's destination and title whose `(` is at `p`, or -1
 * when what follows `(` is not one.
 */
export function linkTailEnd(text: string, p: number): number {
  if (text.charCodeAt(p) !== 0x28) return -1;
  const lim = Math.min(text.length, p + MAX_LINK_TAIL);
  let i = skipSpace(text, p + 1, lim);
  if (text[i] === "<") {
    for (i++; i < lim && text[i] !== ">"; i++) if (text[i] === "\n" || text[i] === "<") return -1;
    if (i >= lim) return -1;
    i++;
  } else {
    let depth = 0;
    for (; i < lim; i++) {
      const c = text[i]!;
      if (c === "\\") i++;
      else if (c === "(") depth++;
      else if (c === ")") {
        if (depth === 0) break;
        depth--;
      } else if (c.charCodeAt(0) <= 0x20 || c === "\u007f") break;
    }
    if (depth !== 0) return -1;
  }
  const beforeTitle = i;
  i = skipSpace(text, i, lim);
  const open = text[i];
  if (i > beforeTitle && (open === '"' || open === "'" || open === "(")) {
    const close = open === "(" ? ")" : open;
    for (i++; i < lim && text[i] !== close; i++) {
      if (text[i] === "\\") i++;
      else if (text[i] === "\n" && blankLineAt(text, i)) return -1;
    }
    if (i >= lim) return -1;
    i = skipSpace(text, i + 1, lim);
  }
  return i < lim && text[i] === ")" ? i + 1 : -1;
}

/** A link reference definition line: `[label]: destination "title"` (up to 3 spaces before). */
/** One line (no line end in it) that is a link reference definition: `[label]: destination "title"`. */
const DEFINITION_LINE_RE = /^ {0,3}\[([^\]]{1,999})\]:[ \t]*(?:<[^>]*>|\S+)(?:[ \t]+(?:"[^"]*"|'[^']*'|\([^)]*\)))?[ \t]*$/;

/** Each line of `text` holding `]:` that is a definition, as [start, end, label]: one pass, each line read once. */
function* definitionLines(text: string): Generator<[number, number, string]> {
  for (let colon = text.indexOf("]:"); colon >= 0; ) {
    let start = colon;
    while (start > 0 && text[start - 1] !== "\n" && text[start - 1] !== "\r") start--;
    let end = colon;
    while (end < text.length && text[end] !== "\n" && text[end] !== "\r") end++;
    const m = DEFINITION_LINE_RE.exec(text.slice(start, end));
    if (m) yield [start, end - (m.input.length - m[0].length), m[1]!];
    colon = text.indexOf("]:", end);
  }
}
const labelKey = (label: string): string => label.trim().replace(/\s+/g, " ").toLowerCase();

/**
 * The parts of `text` a reader does not read, as `[from, to)` pairs in reading order: the
 * `(dest "title")` of every inline link and image; the `[label]` of a full reference link
 * `[text][label]` whose label the text defines; every link reference definition line
 * `[label]: dest "title"`. Empty when the text holds no `](` and no `]:`/`][`.
 * O(length) but for link texts read back.
 */
export function linkTails(text: string): number[] {
  const out: number[] = [];
  // bounded work: each `](` costs at most the two scans' lengths; past 8 units a unit of the text
  // (a hostile text of `](` repeated), the rest is read as plain text
  let budget = 8 * text.length + 65_536;
  let at = text.indexOf("](");
  while (at >= 0 && (budget -= MAX_LINK_TEXT + MAX_LINK_TAIL) >= 0) {
    const end = linkTextStart(text, at) >= 0 ? linkTailEnd(text, at + 1) : -1;
    if (end > 0) {
      out.push(at + 1, end);
      at = text.indexOf("](", end);
    } else at = text.indexOf("](", at + 1);
  }
  if (text.indexOf("]:") >= 0) {
    const labels = new Set<string>();
    for (const [start, end, label] of definitionLines(text)) {
      labels.add(labelKey(label));
      out.push(start, end);
    }
    for (let r = text.indexOf("]["); r >= 0 && labels.size; r = text.indexOf("][", r + 1)) {
      const close = text.indexOf("]", r + 2);
      if (close < 0 || close - r > MAX_LINK_TEXT || linkTextStart(text, r) < 0) continue;
      const label = text.slice(r + 2, close);
      if (!label.includes("[") && labels.has(labelKey(label))) out.push(r + 1, close + 1);
    }
    // in reading order, overlaps merged
    const pairs: Array<[number, number]> = [];
    for (let k = 0; k < out.length; k += 2) pairs.push([out[k]!, out[k + 1]!]);
    pairs.sort((a, b) => a[0] - b[0]);
    out.length = 0;
    for (const [a, b] of pairs) {
      if (out.length && a <= out[out.length - 1]!) out[out.length - 1] = Math.max(out[out.length - 1]!, b);
      else out.push(a, b);
    }
  }
  return out;
}

/**
 * `text` as a reader reads it for words: what {@link linkTails} finds (a link's `(dest
 * "title")`, a defined reference label, a definition line) replaced by spaces, one for each
 * UTF-16 unit (same length, same offsets). `text` itself when it has no link.
 */
export function readerText(text: string): string {
  checkArgs("readerText", arguments, "text:string");
  if (text.indexOf("](") < 0 && text.indexOf("]:") < 0) return text;
  const tails = linkTails(text);
  if (!tails.length) return text;
  const parts: string[] = [];
  let at = 0;
  for (let k = 0; k < tails.length; k += 2) {
    parts.push(text.slice(at, tails[k]), " ".repeat(tails[k + 1]! - tails[k]!));
    at = tails[k + 1]!;
  }
  parts.push(text.slice(at));
  return parts.join("");
}

/** A markup run: its opening marker [open, inner) and closing marker [innerEnd, close). */
export interface MarkupRun {
  open: number;
  inner: number;
  innerEnd: number;
  close: number;
}

const MARKUP_RE = /[_*`[\]]/;

/** The markup runs of text[from, to), a stretch holding no blank line. */
function runsOfParagraph(text: string, from: number, to: number, out: MarkupRun[]): void {
  if (!MARKUP_RE.test(text.slice(from, to))) return;
  // code spans first: their insides hold no other markup (marked per unit: O(1) a look-up)
  const inside = new Uint8Array(to - from);
  const mark = (a: number, b: number) => inside.fill(1, Math.max(0, a - from), Math.max(0, Math.min(to, b) - from));
  const ticks: Array<[number, number]> = [];
  for (let i = from; i < to; i++) {
    if (text[i] !== "`") continue;
    let j = i;
    while (j < to && text[j] === "`") j++;
    ticks.push([i, j]);
    i = j - 1;
  }
  // a run of n backticks closes at the next run of exactly n (the next of each length, found in one pass from the end)
  const nextOfLength = new Int32Array(ticks.length).fill(-1);
  const seen = new Map<number, number>();
  for (let k = ticks.length - 1; k >= 0; k--) {
    const n = ticks[k]![1] - ticks[k]![0];
    nextOfLength[k] = seen.get(n) ?? -1;
    seen.set(n, k);
  }
  for (let a = 0; a < ticks.length; a++) {
    const [os, is] = ticks[a]!;
    const b = nextOfLength[a]!;
    if (b < 0) continue;
    const [ie, oe] = ticks[b]!;
    out.push({ open: os, inner: is, innerEnd: ie, close: oe });
    mark(os, oe);
    a = b;
  }
  const inCode = (i: number): boolean => inside[i - from] === 1;
  // brackets: links `[…](…)`, images `![…](…)`, bracketed text `[…]`
  const brackets: number[] = [];
  for (let i = from; i < to; i++) {
    const c = text[i];
    if ((c !== "[" && c !== "]") || inCode(i)) continue;
    if (c === "[") brackets.push(i);
    else if (brackets.length) {
      const o = brackets.pop()!;
      const tail = text[i + 1] === "(" ? linkTailEnd(text, i + 1) : -1;
      const open = text[o - 1] === "!" && tail > 0 ? o - 1 : o;
      if (tail > 0 && tail <= to) {
        out.push({ open, inner: o + 1, innerEnd: i, close: tail });
        mark(i + 1, tail); // the destination holds no emphasis
      } else {
        // `[text][label]`: the label is the link's own closing part
        const label = text[i + 1] === "[" ? text.indexOf("]", i + 2) : -1;
        const labelled = label > 0 && label < to && !text.slice(i + 2, label).includes("[");
        out.push({ open, inner: o + 1, innerEnd: i, close: labelled ? label + 1 : i + 1 });
      }
    }
  }
  // emphasis: CommonMark delimiter runs of `*` or `_`, paired innermost first; one stack of
  // openers per character (a closer pairs with its top), openers of the other character
  // between the two dropped, as CommonMark drops them
  const stacks: Record<string, Array<{ start: number; end: number }>> = { "*": [], _: [] };
  for (let i = from; i < to; i++) {
    const ch = text[i]!;
    if ((ch !== "*" && ch !== "_") || inCode(i)) continue;
    let j = i;
    while (j < to && text[j] === ch) j++;
    const before = i > 0 ? text[i - 1] : undefined;
    const after = text[j];
    const left = !isSpace(after) && (!isPunct(after) || isSpace(before) || isPunct(before));
    const right = !isSpace(before) && (!isPunct(before) || isSpace(after) || isPunct(after));
    const canOpen = ch === "*" ? left : left && (!right || isPunct(before));
    const canClose = ch === "*" ? right : right && (!left || isPunct(after));
    let closed = false;
    const own = stacks[ch]!;
    if (canClose && own.length) {
      const o = own.pop()!;
      out.push({ open: o.start, inner: o.end, innerEnd: i, close: j });
      const other = stacks[ch === "*" ? "_" : "*"]!;
      while (other.length && other[other.length - 1]!.start > o.start) other.pop();
      closed = true;
    }
    if (!closed && canOpen) own.push({ start: i, end: j });
    i = j - 1;
  }
}

/** The markup runs of the paragraphs of text[from, to) (each paragraph read whole). */
export function markupRuns(text: string, from: number, to: number): MarkupRun[] {
  const out: MarkupRun[] = [];
  let p = from;
  for (let i = from; i < to; i++) {
    if (text.charCodeAt(i) === 0x0a && blankLineAt(text, i)) {
      runsOfParagraph(text, p, i, out);
      p = i + 1;
    }
  }
  runsOfParagraph(text, p, to, out);
  return out;
}

/** Start of the paragraph holding `i` (after the last blank line before it), at most MAX_REGION back. */
function paragraphStart(text: string, i: number): number {
  const stop = Math.max(0, i - MAX_REGION);
  for (let j = Math.min(i, text.length) - 1; j >= stop; j--) {
    if (text.charCodeAt(j) === 0x0a && j > 0) {
      // a blank line ends at j: the paragraph starts after it
      let k = j - 1;
      while (k >= 0 && (text.charCodeAt(k) === 0x20 || text.charCodeAt(k) === 0x09 || text.charCodeAt(k) === 0x0d)) k--;
      if (k >= 0 && text.charCodeAt(k) === 0x0a) return j + 1;
    }
  }
  return stop;
}

/** End of the paragraph holding `i` (before the next blank line after it), at most MAX_REGION on. */
function paragraphEnd(text: string, i: number): number {
  const stop = Math.min(text.length, i + MAX_REGION);
  for (let j = i; j < stop; j++) if (text.charCodeAt(j) === 0x0a && blankLineAt(text, j)) return j;
  return stop;
}

/**
 * The span [start, end) of `text` widened so that it splits no markup run (rule 2 above):
 * a run some of whose markers the span holds, but not all, is taken in whole, until none is.
 * `{start, end}` unchanged when nothing is split (always for a text with no `_ * \` [ ]`).
 * Only the paragraphs the span touches (within MAX_REGION units of its edges) are read.
 */
export function markupSafeSpan(text: string, start: number, end: number): { start: number; end: number } {
  checkArgs("markupSafeSpan", arguments, "text:string start:int end:int");
  if (start < 0 || end <= start) return { start, end };
  let from = paragraphStart(text, start);
  let to = paragraphEnd(text, end);
  if (!MARKUP_RE.test(text.slice(from, to))) return { start, end };
  let runs = markupRuns(text, from, to);
  let s = start;
  let e = end;
  for (let changed = true, rounds = 0; changed && rounds < 64; rounds++) {
    changed = false;
    for (const r of runs) {
      const touchesOpen = s < r.inner && e > r.open;
      const touchesClose = s < r.close && e > r.innerEnd;
      if (!touchesOpen && !touchesClose) continue;
      if (s <= r.open && e >= r.close) continue;
      s = Math.min(s, r.open);
      e = Math.max(e, r.close);
      changed = true;
    }
    if (changed && (s < from || e > to)) {
      from = Math.min(from, paragraphStart(text, s));
      to = Math.max(to, paragraphEnd(text, e));
      runs = markupRuns(text, from, to);
    }
  }
  return { start: s, end: e };
}

/** How a span's edges are placed: at the window's first and last word ("words"), or widened over the markup runs those would split ("markup"). */
export type SpanEdges = "markup" | "words";

/** `edges` as given, checked: "markup" (the default) or "words". @throws ArgumentError otherwise */
export function checkEdges(edges: unknown, fn: string): SpanEdges {
  if (edges === undefined || edges === "markup") return "markup";
  if (edges === "words") return "words";
  throw new ArgumentError(fn, "options.edges", '"markup" or "words"', edges);
}
