// The suggest module (citationStatus's similarity suggestions, ts/evidence/suggest.ts):
// bindings/suggest.ts loads it. The LCS bound, and difflib's ratio for the small pairs it counts
// whole (the sequence-match kernel's seqReserve/seqRatio, the same code as the match module's;
// not its seqMatch, bestSpan's scan). Its own module so that a page calling citationStatus
// carries neither the quote index nor bestSpan, and a bestSpan page not the LCS bound.
export * from "./lcs-bound";
export { seqReserve, seqRatio } from "./sequence-match";
