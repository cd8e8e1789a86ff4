// The quote index's buffers (assembly/quote-index/index.ts has the overview).
//
// Memory: buffers from heap.alloc, grown by doubling, addresses in a table:
//   [0] generation (bumped when a text buffer moves: the caller re-copies the texts)
//   [1] CHARS i32 x chars   [2] CSTART i32 x words   [3] CEND i32 x words
//   [4] SW i32 x sources+1  [5] QUOTE i32 x lb
//   [6] OUT_WORDS i32 x 2*hits (first word, size)   [7] OUT_RATIOS f64 x hits
//   [8] RANGES i32 x 2*ranges (qiScanRanges: [from, to) word ranges, sorted, disjoint, each in one text)
// OUT may move during qiScan (more hits than room): read the table after it.

const QI_TABLE: usize = memory.data(9 * 4);

let capChars: i32 = 0;
let capWords: i32 = 0;
let capSrc: i32 = 0;
let capQuote: i32 = 0;
let capAlpha: i32 = 0;
export let capOut: i32 = 0;
export let capRanges: i32 = 0;

export let CHARS: usize = 0;
export let CSTART: usize = 0;
export let CEND: usize = 0;
export let ES: usize = 0; // u16 x chars: E after a character, where its BITS bit is set (phase A of qiScan)
export let BITS: usize = 0; // 1 bit x chars: E <= markLim after that character
export let SW: usize = 0;
export let QUOTE: usize = 0;
export let OUT_WORDS: usize = 0;
export let OUT_RATIOS: usize = 0;
export let RANGES: usize = 0;
export let TX: usize = 0; // u8 x 16·share: the texts' codes transposed into the 16 lanes of qiScanLanes (qiLanesLayout)
export let PEQ: usize = 0; // u64 x alphabet*blocks
export let NPEQ: usize = 0; // ~PEQ (the SIMD pass: its complements become v128.andnot, with no v128.not)
export let PVV: usize = 0; // v128 x blocks (passEN: two lanes' Pv, lane l at +8l)
export let MVV: usize = 0; // v128 x blocks
export let VB: usize = 0; // u64 x blocks (LCS)
export let CNT_A: usize = 0;
export let CNT_B: usize = 0;
export let ROW_P: usize = 0;
export let ROW_C: usize = 0;
export let STK: usize = 0;

export function grow2(cap: i32, want: i32): i32 {
  let c = cap > 0 ? cap : 64;
  while (c < want) c <<= 1;
  return c;
}

export function publishTable(bump: bool): void {
  if (bump) store<i32>(QI_TABLE, load<i32>(QI_TABLE) + 1);
  store<i32>(QI_TABLE + 4, <i32>CHARS);
  store<i32>(QI_TABLE + 8, <i32>CSTART);
  store<i32>(QI_TABLE + 12, <i32>CEND);
  store<i32>(QI_TABLE + 16, <i32>SW);
  store<i32>(QI_TABLE + 20, <i32>QUOTE);
  store<i32>(QI_TABLE + 24, <i32>OUT_WORDS);
  store<i32>(QI_TABLE + 28, <i32>OUT_RATIOS);
  store<i32>(QI_TABLE + 32, <i32>RANGES);
}

/**
 * Room for texts of `chars` key characters and `words` words in `sources`
 * texts, and a quote of `quoteLen` ids < `alphabet`. Returns the table address.
 */
export function qiReserve(chars: i32, words: i32, sources: i32, quoteLen: i32, alphabet: i32): usize {
  let moved = false;
  if (chars > capChars) {
    capChars = grow2(capChars, chars);
    CHARS = heap.alloc(<usize>capChars << 2);
    ES = heap.alloc(<usize>capChars << 1);
    TX = heap.alloc(<usize>capChars + 16);
    BITS = heap.alloc(<usize>((capChars + 63) >> 6) << 3);
    moved = true;
  }
  if (words > capWords) {
    capWords = grow2(capWords, words);
    CSTART = heap.alloc(<usize>capWords << 2);
    CEND = heap.alloc(<usize>capWords << 2);
    moved = true;
  }
  if (sources + 1 > capSrc) {
    capSrc = grow2(capSrc, sources + 1);
    SW = heap.alloc(<usize>capSrc << 2);
    moved = true;
  }
  if (capOut == 0) {
    capOut = 1024;
    OUT_WORDS = heap.alloc(<usize>capOut << 3);
    OUT_RATIOS = heap.alloc(<usize>capOut << 3);
  }
  if (quoteLen > capQuote || alphabet > capAlpha) {
    if (quoteLen > capQuote) capQuote = grow2(capQuote, quoteLen);
    if (alphabet > capAlpha) capAlpha = grow2(capAlpha, alphabet);
    const blocks = (capQuote + 63) >> 6;
    QUOTE = heap.alloc(<usize>capQuote << 2);
    PEQ = heap.alloc((<usize>capAlpha * <usize>blocks) << 3);
    NPEQ = heap.alloc((<usize>capAlpha * <usize>blocks) << 3);
    PVV = heap.alloc(<usize>blocks << 4);
    MVV = heap.alloc(<usize>blocks << 4);
    VB = heap.alloc(<usize>blocks << 3);
    CNT_A = heap.alloc(<usize>capAlpha << 2);
    CNT_B = heap.alloc(<usize>capAlpha << 2);
    ROW_P = heap.alloc(<usize>(capQuote + 1) << 2);
    ROW_C = heap.alloc(<usize>(capQuote + 1) << 2);
    STK = heap.alloc(<usize>(capQuote + 2) << 4);
    memory.fill(CNT_A, 0, <usize>capAlpha << 2);
  }
  publishTable(moved || load<i32>(QI_TABLE) == 0);
  return QI_TABLE;
}

/** Room for `count` word ranges (qiScanRanges) after qiReserve; returns the table address ([8] may move). */
export function qiReserveRanges(count: i32): usize {
  if (count > capRanges) {
    if (RANGES) heap.free(RANGES);
    capRanges = grow2(capRanges, count);
    RANGES = heap.alloc(<usize>capRanges << 3);
    publishTable(false);
  }
  return QI_TABLE;
}
