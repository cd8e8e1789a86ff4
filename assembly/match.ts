// The match module (bestSpan, the quote index, locate): bindings/match.ts loads it. One
// module for the two kernels because bestSpan calls both (its best-first pre-pass is the
// quote index's search), and together they are ~1 KB smaller than apart (one runtime, one
// memory). Each kernel lives in its own file; bindings/ types the exports it uses.
export * from "./sequence-match";
export * from "./quote-index/index";
