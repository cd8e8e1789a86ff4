// The bench's 12 target quotes (bench/quote-index.bench.ts, case "locate vs exhaustive bestSpan":
// 5–30 words, 0–3 word edits, seed 18) over all books of ../shared/data/books, for the scratch probes.
import { fileURLToPath } from "node:url";
import { loadBooks } from "../../ts/moot/corpus-node.js";
import { makeQuotes } from "../quote-index.bench.js";
import { mulberry32 } from "../../test/prng.js";

const BOOKS = fileURLToPath(new URL("../../../shared/data/books/", import.meta.url));

/** The books (as loadBooks gives them), each book's text (passages joined by a blank line) and the 12 quotes. */
export function targetQuotes() {
  const books = loadBooks(BOOKS);
  const texts = books.map((b) => b.passages.map((p) => p.content).join("\n\n"));
  return { books, texts, quotes: makeQuotes(texts, 12, mulberry32(18), 5, 30, 3) };
}
