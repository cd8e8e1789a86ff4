/**
 * ts/match: the matching engine, a part of its own below moots, evidence, the server and the CLI
 * (browser-safe). Words and their keys, difflib-exact sequence matching, `bestSpan` and the quote
 * matcher, and the quote index with `locate`; the WASM twins share their stems under assembly/.
 *
 * This file is the part's public API: another part (or the CLI, the server) imports matching from
 * here only (test/house.test.ts holds the rule). The package exports the subset ts/moot/index.ts
 * re-exports; the rest (the quote bounds, `matchingBlocks`) is for the CLI.
 */
export { words, normalize, wordCount, key, translateQuoteChars, type Word } from "./words.js";
export { readerText, markupSafeSpan, markupRuns, linkTails, type MarkupRun, type SpanEdges } from "./markup.js";
export { codePoints, matchingBlocks, createLcsRun, lcsOf, lcsAtLeast, type MatchBlock, type LcsRun } from "./sequence-match.js";
export { longSequenceRatio, matchingCharactersLong } from "./long-ratio.js";
export { createLcsBound, type LcsBound } from "./lcs-bound.js";
export { providePrePass } from "./pre-pass-now.js";
export {
  MAX_QUOTE_CHARS, MAX_QUOTE_WORDS, QuoteTooLongError,
  fitsBestSpan, createQuoteMatcher, bestSpan, sequenceRatio,
  type SpanMatch, type BestSpanOptions, type QuoteMatcher,
} from "./best-span.js";
export {
  createQuoteIndex, locateQuotes, LOCATE_MIN_RATIO, QuoteSearchTimeoutError,
  quoteIndexToBytes, quoteIndexFromBytes, QUOTE_INDEX_FORMAT,
  type QuoteIndex, type QuoteIndexInput, type QuoteIndexBook, type QuoteIndexSource, type QuoteIndexOptions, type SourcePassage,
  type LocateOptions, type LocatedSpan, type LocatedQuote,
} from "./quote-index/index.js";
