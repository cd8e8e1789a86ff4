// Equality of long arrays (millions of items) for the parity suites. Vitest's toEqual walks them
// item by item through its generic deep equality: about 10 s for the 2 million ancestors of one
// closure. `firstDifference` compares with === and names where two arrays part, so
// `expect(firstDifference(a, b)).toBeNull()` proves what `expect(a).toEqual(b)` proves for arrays
// of numbers or strings, and a failure still shows the first difference.

/** null when `a` and `b` have the same length and the same items (===), else where they first differ. */
export function firstDifference(a: ArrayLike<unknown>, b: ArrayLike<unknown>): string | null {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    if (a[i] !== b[i]) return `item ${i}: ${JSON.stringify(a[i])} vs ${JSON.stringify(b[i])}`;
  }
  return a.length === b.length ? null : `lengths ${a.length} vs ${b.length} (equal up to ${n})`;
}
