/**
 * bestSpan's pre-pass (the quote index's best-first search at a ratio: ts/match/quote-index/
 * best-window.ts) as a part that arrives behind a dynamic import (bindings/deferred.ts): a page
 * calling bestSpan downloads it at the first call, and until it arrives bestSpan runs the full
 * scan alone, which gives the same answer (the pre-pass answers only with a window at or above
 * its ratio, which is then the winner: ts/match/best-span.ts). The Node entry and the
 * self-contained browser file provide it at import (`prePass.provide`). When its import fails
 * (a chunk the server no longer has) bestSpan keeps the full scan, and says so once on
 * console.warn (`prePassNow`): the WASM backend may still run, so backendInfo() cannot tell.
 */
import { deferred } from "../../bindings/deferred.js";
import type { bestWindowAtLeast } from "./quote-index/best-window.js";

export type BestWindowAtLeast = typeof bestWindowAtLeast;

export const prePass = /* @__PURE__ */ deferred<BestWindowAtLeast>("bestSpan's pre-pass", () => import("./quote-index/best-window.js").then((m) => m.bestWindowAtLeast));

let warned = false;

/**
 * The pre-pass when it is here, else null (its import started, once): `prePass.now()`, with one
 * console.warn the first time a caller goes without it because its import failed (it will not
 * arrive, so bestSpan stays slower for the page's life; results are identical).
 */
export function prePassNow(): BestWindowAtLeast | null {
  const pass = prePass.now();
  if (pass === null && !warned && prePass.failed()) {
    warned = true;
    console.warn(`groundwire: bestSpan runs without its pre-pass (${prePass.reason()}): the full scan alone gives identical results, only slower`);
  }
  return pass;
}
