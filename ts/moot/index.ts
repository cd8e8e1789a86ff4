// ts/moot: public API of this part (browser-safe). Filled in by its issue.
// words.ts also exports wordsInto/WordSink (the index build's tokenizer) and its test internals: not public
export { words, normalize, wordCount, key, translateQuoteChars, type Word } from "./words.js";
export * from "./best-span.js";
export {
  createQuoteIndex, locateQuotes, LOCATE_MIN_RATIO, QuoteSearchTimeoutError,
  type QuoteIndex, type QuoteIndexInput, type QuoteIndexSource, type QuoteIndexOptions, type SourcePassage,
  type LocateOptions, type LocatedSpan, type LocatedQuote,
} from "./quote-index.js";
export * from "./grounding.js";
export * from "./retrieval.js";
export * from "./synth.js";
export * from "./moot.js";
