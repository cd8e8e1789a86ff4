/**
 * The grounding check's terms (see grounding.ts's module comment for what they mean): its
 * limits, the shapes of its results and options, and the checks of its arguments. Shared by
 * the reading of quoted spans (quote-spans.ts), the word-aligned search (haystack.ts) and the
 * check itself (grounding.ts).
 */
import { ArgumentError } from "../errors.js";
import type { BackendRequest } from "../../bindings/wasm.js";

/** Lowest best-span ratio at which a missed quote is replaced by the source's words. */
export const SNAP_MIN_RATIO = 0.8;

/** Quotes shorter than this many words are not checked (and are unquoted by snapping). */
export const QUOTE_MIN_WORDS = 3;

/**
 * How much of a reply is read for quotes, in UTF-16 code units. A quote whose
 * closing mark lies past it is unchecked. Why 65,536: a moot reply is asked to
 * stay under 120 words (~800 characters) and is cut by the model at 400
 * tokens; 64 KB leaves room for other uses of the check while bounding the work.
 */
export const MAX_REPLY_CHARS = 65_536;

/**
 * How many quotes of 3+ words one reply may have checked; later ones are
 * unchecked. Why 32: a moot turn asks for at most 3 quotes, and a missed quote
 * costs a best-span search over the pool (~1–10 ms), so 32 bound a turn's check
 * to well under a second.
 */
export const MAX_QUOTES_CHECKED = 32;

/** Where a quote's words must come from: the speaker's book, the other tree's turn, or its own earlier turn. */
export type QuoteSource = "own" | "other" | "self";

/**
 * Why a quote is not found or was corrected:
 * - `"not in source"`: no word-aligned match and no span close enough;
 * - `"ellipsis"`: a quote with an ellipsis whose fragments are not all found in order;
 * - `"elision drops a negation"`: the fragments are found in order, but an elided stretch holds a negation;
 * - `"negation differs"`: the nearest span adds or removes a negation, so snapping would flip the meaning;
 * - `"too long"`: more words or characters than best-span search accepts
 *   (`MAX_QUOTE_WORDS`, `MAX_QUOTE_CHARS`) and not found verbatim;
 * - `"under 3 words"`: too short to check;
 * - `"no words"`: quote marks around no word at all (`"∀ ∃ ⊆"`, `"--- *** ---"`): not a quote;
 * - `"unchecked"`: past the reply's caps (`MAX_REPLY_CHARS`, `MAX_QUOTES_CHECKED`), never checked.
 */
export type QuoteReason =
  | "not in source"
  | "ellipsis"
  | "elision drops a negation"
  | "negation differs"
  | "too long"
  | "under 3 words"
  | "no words"
  | "unchecked";

/**
 * Whether an own quote is in the passage its tags name (see the module comment):
 * `"cited"`, `"misattributed"` or `"uncited"`.
 */
export type Attribution = "cited" | "misattributed" | "uncited";

/**
 * One checked quote of a reply. `reason` is set when it was not found.
 * `attribution` and `cites` (its `[sN]` tags, lower-cased, in order) are set on own quotes only.
 */
export interface QuoteCheck {
  text: string;
  found: boolean;
  source: QuoteSource;
  reason?: QuoteReason;
  attribution?: Attribution;
  cites?: string[];
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
  /** Own quotes whose tag names a passage of this turn that holds them. */
  quotesCited: number;
  /** Own quotes whose tags name only passages that do not hold them. */
  quotesMisattributed: number;
  /** Own quotes with no `[sN]` tag. */
  quotesUncited: number;
  /** Quoted spans past the caps (`MAX_REPLY_CHARS`, `MAX_QUOTES_CHECKED`), never checked; a reply with any does not pass. */
  quotesUnchecked: number;
  quotes: QuoteCheck[];
}

/** One correction made by {@link snapQuotes}. `to` is the source's words when snapped, else null. */
export interface Snap {
  /** The quote's words as written (first word to last); for `"no words"`, what stood between the marks, trimmed. */
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

/**
 * A quoted span of a reply. `start`/`end` cover the quote marks themselves;
 * `text` is the quote from its first word to its last, with any tag group
 * inside the marks removed (quote characters translated, see words.ts); ""
 * when the marks hold no word. `tags` are every tag attached to the quote
 * (inside the marks, then right after them), lower-cased. `unchecked` marks a
 * span past `MAX_REPLY_CHARS`: its `text` is the raw inside and its tags are not read.
 */
export interface QuoteSpan {
  text: string;
  start: number;
  end: number;
  tags: string[];
  unchecked?: true;
}

/** Options of {@link checkGrounding} and {@link snapQuotes}. */
export interface GroundingOptions {
  /** Backend of the best-span search in {@link snapQuotes} ("auto" = WASM when loaded). */
  backend?: BackendRequest;
  /** Characters of the reply read for quotes (default {@link MAX_REPLY_CHARS}). */
  maxReplyChars?: number;
  /** Quotes of 3+ words checked per reply (default {@link MAX_QUOTES_CHECKED}). */
  maxQuotes?: number;
}

/** Options of {@link passesGrounding}. */
export interface PassOptions {
  /** Also fail a turn with a misattributed quote (`moot --strict-citations`). Default false: the seed's rule. */
  strictCitations?: boolean;
}

export function checkText(text: unknown, fn: string, argument: string): asserts text is string {
  if (typeof text !== "string") throw new ArgumentError(fn, argument, "a string", text);
}

export function checkLimit(value: number | undefined, fallback: number, fn: string, option: string): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value < 0) throw new ArgumentError(fn, `options.${option}`, "a whole number ≥ 0", value);
  return value;
}
