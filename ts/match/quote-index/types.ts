/** The quote index's shapes: what `createQuoteIndex` takes and `locate` returns (public), and the arrays both backends read (internal). */
import { type BackendRequest, type Backend } from "../../../bindings/wasm.js";

/** `minRatio` default: the grounding check's snap threshold (grounding.ts SNAP_MIN_RATIO, same value). */
export const LOCATE_MIN_RATIO = 0.8;

/** A labelled part of a source text: UTF-16 [start, end) into that text. */
export interface SourcePassage {
  label: string;
  start: number;
  end: number;
}

/** One text to index: its key (a book key, a file name…), its text, optional passage labels. */
export interface QuoteIndexSource {
  key: string;
  text: string;
  passages?: readonly SourcePassage[];
}

/**
 * A parsed book as `createQuoteIndex` reads it (ts/moot's `Book` is one): its key, its passages in
 * order, and (from `parseBook`) its searchable text in the file's offsets, which the passages' spans
 * label; offsets of located spans are then offsets into the book's file.
 */
export interface QuoteIndexBook {
  key: string;
  passages: readonly { name: string; label?: string; content: string; start?: number; end?: number }[];
  text?: string;
}

/** What `createQuoteIndex` accepts: plain texts (keys "0", "1", …), keyed sources, or parsed books. */
export type QuoteIndexInput = readonly string[] | readonly QuoteIndexSource[] | readonly QuoteIndexBook[];

/** Options of `createQuoteIndex`. */
export interface QuoteIndexOptions {
  /** "wasm" (throws if not loaded), "ts", or "auto" (default: WASM when loaded). */
  backend?: BackendRequest;
}

/** Options of `locate`. */
export interface LocateOptions {
  /** Keep windows whose ratio is ≥ this; in (0, 1]. Default `LOCATE_MIN_RATIO` (0.8). */
  minRatio?: number;
  /** At most this many spans (a positive integer); default: all. */
  limit?: number;
  /** Only this source (by key). */
  source?: string;
  /** Return every window ≥ minRatio, overlapping ones too (default false: overlaps of a better span are left out). */
  overlapping?: boolean;
  /**
   * Time budget of this call, in milliseconds (default Infinity: none). Checked between chunks of
   * the search (each sized to take ~20 ms; at least one word's windows), so the call ends within
   * about budget + 25 ms; past it, locate throws QuoteSearchTimeoutError and returns nothing: no
   * partial answer is given as complete. The search is synchronous (an AbortSignal could not fire
   * during it), hence a budget and not a signal.
   */
  timeoutMs?: number;
  /**
   * "markup" (default): each span widened so it splits no markup run (`markupSafeSpan`,
   * ts/match/markup.ts); "words": from the window's first word to its last. The windows found,
   * their ratios and order are the same either way.
   */
  edges?: "markup" | "words";
}

/** A located span. `text` = the source's text [start, end) (UTF-16), as written. */
export interface LocatedSpan {
  text: string;
  /** difflib ratio of the window's joined keys vs the quote's, as bestSpan computes it. */
  ratio: number;
  /** The source's key (a book key; "0", "1", … for plain texts). */
  source: string;
  /** Index of the source in the index's input. */
  sourceIndex: number;
  /** Labels of the passages the span touches, in order (empty when the source has none). */
  passages: string[];
  start: number;
  end: number;
  /** The window: its first word (index within the source) and its size in words. */
  word: number;
  words: number;
}

/** A built quote index. */
export interface QuoteIndex {
  readonly backend: Backend;
  /** Keys of the indexed sources, in input order. */
  readonly keys: readonly string[];
  /** Words and key characters indexed. */
  readonly stats: { sources: number; words: number; characters: number; bytes: number };
  /**
   * Spans of the indexed texts whose ratio to `quote` is ≥ `minRatio`, best first
   * (ratio descending, then bestSpan's order: source, window size, start).
   * @throws QuoteTooLongError on a quote longer than MAX_QUOTE_WORDS words or MAX_QUOTE_CHARS characters; RangeError on a bad minRatio/limit or an unknown source key.
   */
  locate(quote: string, options?: LocateOptions): LocatedSpan[];
}

/** The index as both backends read it (the layout of best-span.ts's pool, over whole texts). */
export interface IndexedText {
  /** Interned key characters; keys of one source one space (id 0) apart. */
  chars: Int32Array;
  charStart: Int32Array;
  charEnd: Int32Array;
  /** Words of source s: [sourceWords[s], sourceWords[s+1]). */
  sourceWords: Int32Array;
  alphabetSize: number;
}

/** A quote as the scan reads it. */
export interface IndexedQuote {
  ids: Int32Array;
  words: number;
  alphabetSize: number;
}

/** A window ≥ minRatio: first word (global index), size in words, ratio. */
export interface WindowHit {
  word: number;
  size: number;
  ratio: number;
}

/** Texts with their word-id postings (ts/match/word-table.ts): what the exact path and the best-first search read. */
export interface PostedText extends IndexedText {
  /** Word ids (interned keys) per global word, and a CSR posting list per id (words ascending). */
  wordIds: Int32Array;
  vocabulary: ReadonlyMap<string, number>;
  postingStart: Int32Array;
  postings: Int32Array;
  /** charStart of each posting (ts/match/word-table.ts), read in order by the filter. */
  postingChars: Int32Array;
  /** Source of each global word. */
  wordSource: Int32Array;
  /**
   * true when the word ids, vocabulary, postings and `wordSource` are built on first read (bestSpan's
   * pool): the search then takes its exact path from the characters (`verbatimByChars`) where it
   * would read nothing else of them (fewer than `tuning.smallWords` words searched).
   */
  postingsOnDemand?: boolean;
}

export interface Prepared extends PostedText {
  sources: QuoteIndexSource[];
  alphabet: Map<number, number>;
  spans: Int32Array;
}

/** A checked quote (grounding.ts `QuoteCheck`, or any `{text, found}`) with where the index finds it. */
export type LocatedQuote<T extends { text: string; found: boolean }> = T & { locatedAt: LocatedSpan[] };
