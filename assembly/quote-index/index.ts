// Quote index scan (ts/match/quote-index/ is the TS twin and holds the proofs):
// every window of every text (sizes n-2..n+2 words) whose difflib ratio vs the
// quote is >= minRatio. Windows are skipped only on a sound upper bound < minRatio:
//   1. real_quick_ratio  2*min(la,lb)/(la+lb)
//   2. semi-global Levenshtein E(e) (Myers 1999, 64-bit blocks, one pass per text):
//      2*M <= 2*LCS = la+lb-indel(W,b) <= la+lb-Lev(W,b) <= la+lb-E(e)
//   3. quick_ratio  2*sum_c min(countW[c], countb[c])/(la+lb)
//   4. LCS (Hyyrö 2004, bit-parallel): M <= LCS(W, b)
// then difflib's exact M (find_longest_match with difflib's ties, the
// get_matching_blocks recursion), ratio = 2*M/(la+lb) in f64 as in TS.
//
// The difflib kernel is a copy of assembly/sequence-match.ts's (kept private
// there); both follow CPython's Lib/difflib.py with autojunk off.
//
// The folder, one concern a file (ts/match/quote-index/ holds the TS twins under the same stems):
//   arena.ts  the buffers (grown by doubling, their addresses in a table) and qiReserve*
//   pass.ts   phase A's lanes: semi-global Levenshtein (Myers 1999) per 64-bit block, the marks
//   simd.ts   phase A in SIMD (two lanes an i64x2), written out by scripts/gen-quote-index-simd.mjs
//   scan.ts   phase B (bounds 1-4, then difflib's M) and the scans: qiScan, qiScanRanges, qiScanChunk, qiScanPrefix
//   lanes.ts  the lanes pass (qiScanLanes): 16 lanes of 16 or 32 bits, semi-global indel distance
// Only the qi* functions below are exported from the module (bindings/quote-index.ts QI_EXPORTS).
export { qiReserve, qiReserveRanges } from "./arena";
export { qiScan, qiScanRanges, qiScanChunk, qiChunkReached, qiScanPrefix } from "./scan";
export { qiLanesLayout, qiScanLanes } from "./lanes";
