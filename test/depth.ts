// How much of the long sweeps a test run covers: the one switch the slow suites read.
//
// `npm test` runs each long random sweep and large-input suite on a fixed, small, seeded sample:
// every kind of case keeps some of its cases, and the fixed regression cases always run.
// `npm run test:deep` (GROUNDWIRE_TEST_DEEP=1) runs every sweep in full; CI (.ci/run) runs that one.
// The seeds are the suites' own, so a quick run is the same sample every time, and the first
// cases of a deep sweep.

/** True in `npm run test:deep`: every sweep runs in full. */
export const DEEP = process.env.GROUNDWIRE_TEST_DEEP === "1";

/** `deep` in the deep run, else `quick`: a loop bound, a count of quotes or documents. */
export function depth(quick: number, deep: number): number {
  return DEEP ? deep : quick;
}

/** fast-check's numRuns: `deep` in the deep run, else `quick`. */
export const fcRuns = depth;

/**
 * A fixed sample of `items`: all of them in the deep run, else `quick` of them spread evenly
 * from the first to the last (so every part of a list ordered by kind keeps a case).
 */
export function spread<T>(items: readonly T[], quick: number): T[] {
  if (DEEP || quick >= items.length) return [...items];
  if (quick <= 1) return items.slice(0, quick);
  const step = (items.length - 1) / (quick - 1);
  return Array.from({ length: quick }, (_, i) => items[Math.round(i * step)]);
}

/**
 * spread() within each kind: all of `items` in the deep run, else `quick` of each kind's items
 * (`kindOf` names an item's kind: a section, a folder, a book), spread from its first to its last
 * and kept in the order of `items`. For lists whose kinds are not contiguous or not of one size,
 * where one spread over the whole list could pass over a small kind.
 */
export function spreadEach<T>(items: readonly T[], kindOf: (item: T) => string, quick: number): T[] {
  if (DEEP) return [...items];
  const kinds = new Map<string, number[]>();
  items.forEach((item, i) => {
    const kind = kindOf(item);
    const indices = kinds.get(kind);
    if (indices) indices.push(i);
    else kinds.set(kind, [i]);
  });
  const kept = new Set([...kinds.values()].flatMap((indices) => spread(indices, quick)));
  return items.filter((_, i) => kept.has(i));
}
