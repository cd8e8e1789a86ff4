/**
 * bestSpan's pre-pass (the quote index's best-first search at a ratio: ts/match/quote-index/
 * best-window.ts) as a part that arrives behind a dynamic import (bindings/deferred.ts): a page
 * calling bestSpan downloads it at the first call, and until it arrives bestSpan runs the full
 * scan alone, which gives the same answer (the pre-pass answers only with a window at or above
 * its ratio, which is then the winner: ts/match/best-span.ts). The Node entry and the
 * self-contained browser file provide it at import (`prePass.provide`).
 */
import { deferred } from "../../bindings/deferred.js";
import type { bestWindowAtLeast } from "./quote-index/best-window.js";

export type BestWindowAtLeast = typeof bestWindowAtLeast;

export const prePass = /* @__PURE__ */ deferred<BestWindowAtLeast>("bestSpan's pre-pass", () => import("./quote-index/best-window.js").then((m) => m.bestWindowAtLeast));
