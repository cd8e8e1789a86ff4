// ts/moot: public API of this part (browser-safe). Filled in by its issue.
// The matching engine is its own part (ts/match/index.ts); the package exports this subset of it from here.
export {
  words, normalize, wordCount, key, translateQuoteChars, type Word,
  MAX_QUOTE_CHARS, MAX_QUOTE_WORDS, QuoteTooLongError,
  fitsBestSpan, createQuoteMatcher, bestSpan, sequenceRatio,
  type SpanMatch, type BestSpanOptions, type QuoteMatcher,
  createQuoteIndex, locateQuotes, LOCATE_MIN_RATIO, QuoteSearchTimeoutError,
  type QuoteIndex, type QuoteIndexInput, type QuoteIndexSource, type QuoteIndexOptions, type SourcePassage,
  type LocateOptions, type LocatedSpan, type LocatedQuote,
} from "../match/index.js";
export * from "./grounding.js";
export * from "./retrieval.js";
export * from "./synth.js";
export * from "./moot.js";
