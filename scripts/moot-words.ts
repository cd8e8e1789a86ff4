/**
 * groundwire's words of each text, for the Python oracle (bench/python/best_span_reference.py).
 *
 * Reads a JSON array of strings on stdin; writes a JSON array with, for each
 * text, its words as `[start, end, key]` (start/end: UTF-16 offsets into that
 * text; key as ts/match/words.ts makes it). Python then computes difflib ratios
 * on exactly these key sequences, since it cannot segment text as ICU does.
 *
 * Usage: npx tsx scripts/moot-words.ts < texts.json > words.json
 */
import { readFileSync } from "node:fs";
import { words } from "../ts/match/words.js";

const texts: unknown = JSON.parse(readFileSync(0, "utf8"));
if (!Array.isArray(texts) || !texts.every((t) => typeof t === "string")) {
  console.error("moot-words: stdin must be a JSON array of strings");
  process.exit(2);
}
process.stdout.write(JSON.stringify(texts.map((t: string) => words(t).map((w) => [w.start, w.end, w.key]))));
