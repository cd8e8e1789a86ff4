/**
 * The page's matching work (page.ts's POST /locate and POST /passages/show), as checks the
 * pool runs in its workers (pool.ts): a quote's best span in one passage (`markQuotes`), a
 * quote located in a book of the corpus (`locateQuote`) or in a book whose text the request
 * carries (`locateBookText`, for a --store library). Each answers spans by source index; the
 * route adds the passages' names and labels. The quote indexes are the pool's own (checks.ts).
 */
import { bestSpan, matchingBlocks, words } from "../match/index.js";
import { GroundwireError } from "../errors.js";
import { bookIndexOf, textIndexOf, type CheckContext } from "./checks.js";

/** Longest one locate may search, in ms, inside the check's own time budget (--check-timeout). */
export const LOCATE_TIMEOUT_MS = 10_000;

export type DiffRun = { op: "=" | "-" | "+"; text: string };

/**
 * A word diff of `a` (the model's words) vs `b` (the book's), matched on word keys (difflib
 * matching blocks, as the grounding check compares words): runs of `=` (in both; `a`'s text),
 * `-` (only in a) and `+` (only in b), each run as its text is written.
 */
export function wordDiff(a: string, b: string): DiffRun[] {
  const wa = words(a);
  const wb = words(b);
  const ids = new Map<string, number>();
  const id = (k: string) => ids.get(k) ?? (ids.set(k, ids.size), ids.size - 1);
  const run = (text: string, ws: typeof wa, from: number, to: number) => text.slice(ws[from]!.start, ws[to - 1]!.end);
  const out: DiffRun[] = [];
  let i = 0, j = 0;
  for (const [bi, bj, size] of matchingBlocks(wa.map((w) => id(w.key)), wb.map((w) => id(w.key)))) {
    if (i < bi) out.push({ op: "-", text: run(a, wa, i, bi) });
    if (j < bj) out.push({ op: "+", text: run(b, wb, j, bj) });
    if (size) out.push({ op: "=", text: run(a, wa, bi, bi + size) });
    i = bi + size;
    j = bj + size;
  }
  return out;
}

const round = (r: number) => Math.round(r * 1000) / 1000;

/** `markQuotes`: each quote's best span in one passage's content (bestSpan), with its word diff. */
export interface MarkQuotesBody {
  content: string;
  quotes: string[];
}
export function markQuotes(_ctx: CheckContext, body: MarkQuotesBody) {
  return {
    marks: body.quotes.map((quote) => {
      if (!words(quote).length) return { quote, start: 0, end: 0, ratio: 0, text: "", diff: [] };
      const span = bestSpan(quote, [body.content]);
      return { quote, start: span.start, end: span.end, ratio: round(span.ratio), text: span.text, diff: wordDiff(quote, span.text) };
    }),
  };
}

/** `locateQuote`: a quote in a book of the corpus; `locateBookText`: in a book the request carries. */
export interface LocateQuoteBody {
  quote: string;
  book: string;
  minRatio: number;
  limit: number;
}
export interface LocateBookTextBody {
  quote: string;
  minRatio: number;
  limit: number;
  book: { key: string; version: string; passages: string[] };
}

const noWord = () => new GroundwireError("quote: no word to look for", { code: "bad_request", status: 400 });

function spansOf(index: ReturnType<typeof bookIndexOf>, body: { quote: string; minRatio: number; limit: number }) {
  return {
    spans: index.locate(body.quote, { minRatio: body.minRatio, limit: body.limit, timeoutMs: LOCATE_TIMEOUT_MS }).map((s) => ({
      sourceIndex: s.sourceIndex,
      start: s.start,
      end: s.end,
      ratio: round(s.ratio),
      text: s.text,
      diff: wordDiff(body.quote, s.text),
    })),
  };
}

export function locateQuote(ctx: CheckContext, body: LocateQuoteBody) {
  if (!words(body.quote).length) throw noWord();
  const book = ctx.corpus.book(ctx.corpus.resolve(body.book));
  if (!book) throw new GroundwireError(`book ${JSON.stringify(body.book)}: its text is not held by this process`, { code: "not_found", status: 404 });
  return spansOf(bookIndexOf(book), body);
}

export function locateBookText(_ctx: CheckContext, body: LocateBookTextBody) {
  if (!words(body.quote).length) throw noWord();
  return spansOf(textIndexOf(body.book.key, body.book.version, body.book.passages), body);
}
