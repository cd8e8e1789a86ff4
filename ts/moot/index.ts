// ts/moot: public API of this part (browser-safe). Filled in by its issue.
// The matching engine is its own part (ts/match/index.ts); the package exports this subset of it from here.
export {
  words, normalize, wordCount, key, translateQuoteChars, type Word,
  MAX_QUOTE_CHARS, MAX_QUOTE_WORDS, QuoteTooLongError,
  fitsBestSpan, createQuoteMatcher, bestSpan, sequenceRatio,
  type SpanMatch, type BestSpanOptions, type QuoteMatcher,
  readerText, markupSafeSpan, type SpanEdges,
  createQuoteIndex, locateQuotes, LOCATE_MIN_RATIO, QuoteSearchTimeoutError,
  type QuoteIndex, type QuoteIndexInput, type QuoteIndexSource, type QuoteIndexOptions, type SourcePassage,
  type LocateOptions, type LocatedSpan, type LocatedQuote,
} from "../match/index.js";
export {
  SNAP_MIN_RATIO, QUOTE_MIN_WORDS, MAX_REPLY_CHARS, MAX_QUOTES_CHECKED,
  type QuoteSource, type QuoteReason, type Attribution, type QuoteCheck, type Grounding, type Snap,
  type TaggedText, type QuoteSpan, type GroundingOptions, type PassOptions,
} from "./grounding-terms.js";
export { parseTags, quoteSpans, findQuotes } from "./quote-spans.js";
export { prepareHaystack, quoteIn, type Haystack, type QuoteMatch } from "./haystack.js";
export * from "./grounding.js";
export * from "./retrieval.js";
export * from "./synth.js";
export * from "./transcript.js";
export * from "./intents.js";
export * from "./moot.js";
