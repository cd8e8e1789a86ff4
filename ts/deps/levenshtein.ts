/** fastest-levenshtein's edit distance (static import; see ts/deps/README.md for the Node variant). */
import { distance } from "fastest-levenshtein";

/** Levenshtein distance over UTF-16 code units (fastest-levenshtein's Myers bit-vector algorithm). Never throws. */
export function levenshtein(): typeof distance {
  return distance;
}
