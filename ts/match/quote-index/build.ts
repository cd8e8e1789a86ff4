/** Building the quote index: input texts, sources or books → keyed sources, interned key characters and word-id postings (word-table.ts); a quote → its interned ids. */
import { ArgumentError } from "../../errors.js";
import { buildWordTable } from "../word-table.js";
import { words } from "../words.js";
import { quoteTooLong, internQuote } from "../quote-keys.js";
import { type IndexedQuote, type Prepared, type QuoteIndexBook, type QuoteIndexInput, type QuoteIndexSource, type SourcePassage } from "./types.js";

function isBook(x: unknown): x is QuoteIndexBook {
  return (
    typeof x === "object" && x !== null && Array.isArray((x as QuoteIndexBook).passages) && typeof (x as QuoteIndexBook).key === "string" &&
    (x as QuoteIndexBook).passages.every((p) => typeof p?.content === "string")
  );
}

/**
 * Normalize the input to keyed sources. A book with its `text` (as `parseBook` gives it) is that
 * text, its passages labelled over their spans: offsets into the book's file. A book without one is
 * its passages' contents joined by a blank line.
 */
function toSources(input: QuoteIndexInput): QuoteIndexSource[] {
  if (!Array.isArray(input)) throw new ArgumentError("createQuoteIndex", "input", "an array of texts, {key, text} sources or books", input);
  return (input as readonly unknown[]).map((x, i) => {
    if (typeof x === "string") return { key: String(i), text: x };
    if (isBook(x) && typeof x.text === "string") {
      const text = x.text;
      const passages = x.passages.map((p, j) => {
        if (!Number.isInteger(p.start) || !Number.isInteger(p.end) || p.start! < 0 || p.end! < p.start! || p.end! > text.length) {
          throw new ArgumentError("createQuoteIndex", `input[${i}].passages[${j}]`, "a passage with start ≤ end within the book's text", p);
        }
        return { label: p.label ?? p.name, start: p.start!, end: p.end! };
      });
      passages.sort((a, b) => a.start - b.start || a.end - b.end);
      return { key: x.key, text, passages };
    }
    if (isBook(x)) {
      const passages: SourcePassage[] = [];
      let text = "";
      for (const p of x.passages) {
        if (text) text += "\n\n";
        passages.push({ label: p.label ?? p.name, start: text.length, end: text.length + p.content.length });
        text += p.content;
      }
      return { key: x.key, text, passages };
    }
    if (typeof x === "object" && x !== null && typeof (x as QuoteIndexSource).text === "string" && typeof (x as QuoteIndexSource).key === "string") {
      const s = x as QuoteIndexSource;
      const passages = s.passages ? [...s.passages] : undefined;
      passages?.forEach((p, j) => {
        if (typeof p?.label !== "string" || !Number.isInteger(p.start) || !Number.isInteger(p.end) || p.start < 0 || p.end < p.start || p.end > s.text.length) {
          throw new ArgumentError("createQuoteIndex", `input[${i}].passages[${j}]`, "{label, start, end} with 0 ≤ start ≤ end ≤ text length", p);
        }
      });
      passages?.sort((a, b) => a.start - b.start || a.end - b.end);
      return { key: s.key, text: s.text, passages };
    }
    throw new ArgumentError("createQuoteIndex", `input[${i}]`, "a string, a {key, text} source or a book", x);
  });
}

export function prepare(input: QuoteIndexInput): Prepared {
  const sources = toSources(input);
  const keys = new Set<string>();
  for (const s of sources) {
    if (keys.has(s.key)) throw new ArgumentError("createQuoteIndex", "input", `sources of distinct keys (${JSON.stringify(s.key)} appears twice)`, input);
    keys.add(s.key);
  }
  // tokenizing, interning and postings: ts/match/word-table.ts
  const t = buildWordTable(sources.map((s) => s.text));
  return {
    sources,
    alphabet: t.alphabet,
    alphabetSize: t.alphabet.size,
    chars: t.chars,
    charStart: t.charStart,
    charEnd: t.charEnd,
    sourceWords: t.textWords,
    spans: t.spans,
    wordIds: t.wordIds,
    vocabulary: t.vocabulary,
    postingStart: t.postingStart,
    postings: t.postings,
    postingChars: t.postingChars,
    wordSource: t.wordText,
  };
}

export function prepareQuote(ix: Prepared, quote: string): { q: IndexedQuote; keys: string[] } {
  if (typeof quote !== "string") throw new ArgumentError("locate", "quote", "a string", quote);
  const ws = words(quote);
  const tooLong = quoteTooLong(ws, "locate");
  if (tooLong) throw tooLong;
  return { q: internQuote(ws, ix.alphabet), keys: ws.map((x) => x.key) };
}

export function passageLabels(source: QuoteIndexSource, start: number, end: number): string[] {
  const ps = source.passages;
  if (!ps?.length) return [];
  const out: string[] = [];
  // passages are sorted by start; a span touches p when p.start < end and start < p.end
  for (const p of ps) {
    if (p.start >= end) break;
    if (start < p.end || (p.start === p.end && p.start === start)) out.push(p.label);
  }
  return out;
}
