/**
 * bestSpan's pre-pass given at once, for the entries that carry it anyway (ts/node.ts, the
 * self-contained browser file ts/browser.ts): their first bestSpan runs it with nothing to
 * import. A bundled page's graph never reaches this file (it imports the pre-pass at the first
 * call: ts/match/pre-pass.ts).
 */
import { prePass } from "./pre-pass.js";
import { bestWindowAtLeast } from "./quote-index/best-window.js";

/** Give `prePass` (ts/match/pre-pass.ts) its value, `bestWindowAtLeast`, now. Idempotent; runs no search. */
export function providePrePass(): void {
  prePass.provide(bestWindowAtLeast);
}
