/** Quotes the benches draw from real text: a run of words with word edits a model makes. */

/**
 * `n` consecutive words of `ws` from a place drawn by `rand`, with `edits` word edits in turn:
 * a word replaced by another of `ws`, a word dropped, "indeed" inserted (never the first or
 * last word), joined by single spaces.
 */
export function editedQuote(ws: readonly string[], rand: () => number, n: number, edits: number): string {
  const i = Math.floor(rand() * Math.max(1, ws.length - n));
  const picked = ws.slice(i, i + n);
  for (let e = 0; e < edits; e++) {
    const j = 1 + Math.floor(rand() * (picked.length - 2));
    const op = e % 3;
    if (op === 0) picked[j] = ws[Math.floor(rand() * ws.length)];
    else if (op === 1) picked.splice(j, 1);
    else picked.splice(j, 0, "indeed");
  }
  return picked.join(" ");
}
