import { BITS, CHARS, PEQ, QUOTE, SW, TX } from "./arena";
import { setupQuote } from "./pass";
import { markedRanges, nOut, scanRangeList } from "./scan";

// ---------------------------------------------------------------------------------------------
// The lanes pass (qiScanLanes): the linear pass at a high threshold T through a prefix of the
// quote, as qiScanPrefix, but over 16 lanes of W = 16 or 32 bits at once and with the semi-global
// INDEL distance in place of Levenshtein (ts/match/quote-index/search.ts `searchBest` (h) and (i) have the
// proofs of what a mark covers).
//
// Layout (qiLanesLayout, once per texts): the C key characters of all texts are cut into 16
// shares of `share` = ceil(C/16) characters; TX[16t + l] is the code of character l·share + t
// (255 past C). Code = the alphabet id when < 254, else 254 (one code for every rarer id: a text
// character then "matches" every quote character of code 254, which can only lower a distance,
// so every bound below stays sound); 255 matches nothing. Lane l runs the DP from character
// l·share fresh (D[i][l·share − 1] = i): its score after character p of its share is
//   E_l(p) = min over X = text[s, p], s >= l·share, of indel(X, b1),
// and a window that starts before l·share and ends in lane l's share straddles the boundary
// l·share: those are covered by marking every e1 in [c − lb + m − D − 1, c + m + D] (c = l·share;
// proof at qiScanLanes). Texts follow each other in the characters with no separator; a DP running
// from one text into the next is a min over more substrings, so it is never larger than the
// one-text value (sound), and marks are mapped to words per text.
//
// ~Peq of the 16 lanes: one 16-byte load of codes, then per byte plane of the lane word
// ~Peq[c] = ~LO[c & 15] | ~HI[c >> 4], where LO[x] has bit j set when the quote's code at row j
// has low nibble x and HI[y] when its high nibble is y; their AND is exactly the rows whose code
// is c (both nibbles equal), so the complement is the OR of the complements: two i8x16.swizzle
// per plane (W/8 planes). Unpack shuffles then put plane k's byte of lane l into byte k of lane l's
// word (two for W = 16; six for W = 32: bytes, then 16-bit pairs).
//
// The pattern b1 = the quote's first m = min(lb, W) characters sits in the lane's top m bits;
// the W − m rows below match nothing. Such rows have D[i][j] = i for every j (row 0 is 0, and a
// row that never matches is its row above plus one), so row W − m is the constant W − m and the
// rows above it compute the semi-global DP of b1 plus W − m: the lane's score is E + (W − m),
// compared against D + (W − m). Scores are <= W (D[W][j] <= D[W][-1] = W) and kept less
// (D + W − m + 1) > -W - 1 in one i8x16 for both widths.
//
// Semi-global indel distance (no substitutions; D[i][j] = min(D[i-1][j] + 1, D[i][j-1] + 1,
// D[i-1][j-1] if b_i = t_j), D[0][j] = 0, D[i][-1] = i), bit-parallel. Adjacent cells still
// differ by -1, 0 or +1 (adding one character to either string changes an indel distance by
// exactly 1, and a min over starts keeps |difference| <= 1), so the column is (Pv, Mv) as in
// Myers. For cell (i, j) with a = D[i-1][j-1], dv = D[i][j-1] - a (the previous column's vertical
// delta), dh = D[i-1][j] - a (the horizontal delta one row down): D[i][j] - a = 1 + x with
// x = min(eq ? -1 : +inf, dh, dv) in {-1, 0, 1}; the new horizontal delta is 1 + x - dv and the
// new vertical one 1 + x - dh. Case by case (Xh = eq | dh == -1, Xv = eq | dv == -1):
//   Mh = Pv & Xh (as Myers: its chain Xh = (((Eq & Pv) + Pv) ^ Pv) | Eq is the same);
//   Ph = Mv | ~Xh & ~Pv | ~Xh & Pv & Ph_in (the last term is new: x = +1 when nothing matches
//        and dh = dv = +1), a carry chain Ph[i] = G[i] | Pr[i] & Ph[i-1] with G = Mv | ~(Xh | Pv),
//        Pr = Pv & ~Xh (disjoint): Ph = G | Pr & ((G + (G | Pr)) ^ Pr), G | Pr = Mv | ~Xh;
//   Pv' = Mh_in | ~Xv & (~Ph_in | Pv), Mv' = Ph_in & Xv (Ph_in, Mh_in: Ph, Mh shifted up one row,
//        0 into row 1: row 0 is all zeros).
// Checked against the plain DP on 20,000 random pairs (m <= 32, alphabets of 2-5) while writing
// it, and by test/match/quote-index-lanes.test.ts through the windows found (a wrong Ph fails it).

/** Lane share of the layout in TX, and the characters it holds (-1: none yet). */
let txShare: i32 = 0;
let txChars: i32 = -1;
/** The lanes pass's tables: ~LO, ~HI of byte plane k (rows 8k to 8k + 7) at 32k, 32k + 16 (k < W/8). */
const LTAB: usize = memory.data(128, 16);
/** [0, 16): 0x0F bytes; [16, 32): every lane's starting score less (its limit + 1), i8 lanes. */
const LCONST: usize = memory.data(32, 16);
/** The lanes' scores at a rare step (laneMarks). */
const LSCORES: usize = memory.data(16, 16);

/**
 * Transpose the C key characters in CHARS into TX for the lanes pass (after the texts are copied;
 * again whenever they change). Returns the share (steps per lane).
 */
export function qiLanesLayout(C: i32): i32 {
  const share = (C + 15) >> 4;
  for (let l = 0; l < 16; l++) {
    for (let t = 0; t < share; t++) {
      const p = l * share + t;
      store<u8>(TX + (<usize>t << 4) + <usize>l, <u8>(p < C ? min(load<i32>(CHARS + (<usize>p << 2)), 254) : 255));
    }
  }
  txShare = share;
  txChars = C;
  return share;
}

/**
 * The second check of the 32-bit lanes' marks (the quote's lb <= 64 characters, PEQ built for the
 * whole quote in one block; m, D as in qiScanLanes): a window W >= T whose part W1 aligned to b1
 * ends at e1 lies in
 * characters [e1 − m − D + 1, e1 + lb − m + D] (searchBest (h)) and has indel(W, b) <= D, so the
 * semi-global indel distance of the whole quote, run from that range's first character (the lanes'
 * recurrences, scalar, one block; rows above lb only receive carries) is <= D at W's last
 * character. When it stays above D over the whole range no window >= T has its W1 ending at e1
 * (the characters are all texts' in a row: a DP across a text boundary is a min over more
 * substrings, as in the lanes): the mark is dropped
 * (the runs at the lane boundaries are marked after it). A run of marks e1 <= e' <= e2 is checked
 * at once over [e1 − m − D + 1, e2 + lb − m + D], the union of their ranges: a DP from an earlier
 * start is a min over more substrings, so no score <= D there means none in any mark's own range.
 * Returns whether the marks may hold.
 */
function markHolds(e1: i32, e2: i32, chars: i32, lb: i32, m: i32, D: i32): bool {
  const peq = PEQ, text = CHARS;
  const sh = <u64>(lb - 1);
  let P: u64 = lb == 64 ? ~(<u64>0) : (<u64>1 << <u64>lb) - 1, M: u64 = 0;
  let score = lb;
  for (let p = max(0, e1 - m - D + 1), z = min(chars - 1, e2 + lb - m + D); p <= z; p++) {
    const E = load<u64>(peq + (<usize>load<i32>(text + (<usize>p << 2)) << 3));
    const Xv = E | M;
    const Xh = (((E & P) + P) ^ P) | E;
    const Mh = P & Xh;
    const G = M | ~(Xh | P), Pr = P & ~Xh; // the indel recurrences of the lanes (above)
    const Ph = G | (Pr & ~(G + (G | Pr)));
    score += <i32>((Ph >> sh) & 1) - <i32>((Mh >> sh) & 1);
    if (score <= D) return true;
    const Ps = Ph << 1;
    P = (Mh << 1) | ~Xv & (~Ps | P);
    M = Ps & Xv;
  }
  return false;
}

/** Clear the marks of BITS[0, C) that do not hold (markHolds), in runs of marks less than MARK_RUN apart. */
function checkMarks(C: i32, lb: i32, m: i32, D: i32): void {
  let first = -1, last = -1;
  for (let wi = 0, wn = (C - 1) >> 6; wi <= wn; wi++) {
    let bits = load<u64>(BITS + (<usize>wi << 3));
    while (bits != 0) {
      const e = (wi << 6) + <i32>ctz(bits);
      bits &= bits - 1;
      if (first >= 0 && e - last >= MARK_RUN) {
        if (!markHolds(first, last, C, lb, m, D)) clearBits(first, last);
        first = -1;
      }
      if (first < 0) first = e;
      last = e;
    }
  }
  if (first >= 0 && !markHolds(first, last, C, lb, m, D)) clearBits(first, last);
}

/** Marks less than this many characters apart are checked as one run (checkMarks). */
const MARK_RUN = 16;

/** Clear BITS for characters [a, b]. */
function clearBits(a: i32, b: i32): void {
  for (let p = a; p <= b; p++) {
    const q = BITS + (<usize>p >> 3);
    store<u8>(q, load<u8>(q) & ~(<u8>1 << <u8>(p & 7)));
  }
}

/** Set BITS for each lane whose score in S is negative (its E <= limit) at step t; returns how many. */
function laneMarks(S: v128, t: i32, share: i32, chars: i32): i32 {
  v128.store(LSCORES, S);
  let marks = 0;
  for (let l = 0; l < 16; l++) {
    const p = l * share + t;
    if (load<i8>(LSCORES + <usize>l) >= 0 || p >= chars) continue;
    const b = BITS + (<usize>p >> 3);
    store<u8>(b, load<u8>(b) | (<u8>1 << <u8>(p & 7)));
    marks++;
  }
  return marks;
}

/** The lanes pass: 16 lanes of 16 bits, semi-global indel distance, `steps` steps from step 0; marks (laneMarks) the characters after which a lane's score is <= its limit; returns the marks, or -1 past maxMarks. */
function lanes16i(steps: i32, share: i32, chars: i32, maxMarks: i32): i32 {
  const tx = TX;
  const NIB = v128.load(LCONST); // 0x0F bytes
  const NLO0 = v128.load(LTAB, 0), NHI0 = v128.load(LTAB, 16), NLO1 = v128.load(LTAB, 32), NHI1 = v128.load(LTAB, 48);
  let P0 = i16x8.splat(-1), M0 = i16x8.splat(0), P1 = i16x8.splat(-1), M1 = i16x8.splat(0);
  let S = v128.load(LCONST, 16); // i8x16: the 16 lanes' scores less (limit + 1)
  let marks = 0;
  for (let t = 0; t < steps; t++) {
    const c = v128.load(tx + (<usize>t << 4));
    const lo = v128.and(c, NIB), hi = v128.and(i16x8.shr_u(c, 4), NIB);
    const N0 = v128.or(i8x16.swizzle(NLO0, lo), i8x16.swizzle(NHI0, hi)); // ~Peq, rows 0-7 of the 16 lanes
    const N1 = v128.or(i8x16.swizzle(NLO1, lo), i8x16.swizzle(NHI1, hi)); // rows 8-15
    const E0 = i8x16.shuffle(N0, N1, 0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23); // lanes 0-7
    const E1 = i8x16.shuffle(N0, N1, 8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15, 31); // lanes 8-15
    const s0 = i16x8.add(v128.andnot(P0, E0), P0); // (Eq & Pv) + Pv
    const NXh0 = v128.andnot(E0, v128.xor(s0, P0)); // ~Xh
    const Mh0 = v128.andnot(P0, NXh0);
    const G0 = v128.or(M0, v128.andnot(NXh0, P0)), Pr0 = v128.and(P0, NXh0);
    const Ph0 = v128.or(G0, v128.and(Pr0, v128.xor(i16x8.add(G0, v128.or(M0, NXh0)), Pr0)));
    const NXv0 = v128.andnot(E0, M0); // ~Xv
    const Ps0 = i16x8.shl(Ph0, 1), Ms0 = i16x8.shl(Mh0, 1);
    P0 = v128.or(Ms0, v128.andnot(NXv0, v128.andnot(Ps0, P0)));
    M0 = v128.andnot(Ps0, NXv0);
    const s1 = i16x8.add(v128.andnot(P1, E1), P1); // (Eq & Pv) + Pv
    const NXh1 = v128.andnot(E1, v128.xor(s1, P1)); // ~Xh
    const Mh1 = v128.andnot(P1, NXh1);
    const G1 = v128.or(M1, v128.andnot(NXh1, P1)), Pr1 = v128.and(P1, NXh1);
    const Ph1 = v128.or(G1, v128.and(Pr1, v128.xor(i16x8.add(G1, v128.or(M1, NXh1)), Pr1)));
    const NXv1 = v128.andnot(E1, M1); // ~Xv
    const Ps1 = i16x8.shl(Ph1, 1), Ms1 = i16x8.shl(Mh1, 1);
    P1 = v128.or(Ms1, v128.andnot(NXv1, v128.andnot(Ps1, P1)));
    M1 = v128.andnot(Ps1, NXv1);
    S = i8x16.add(i8x16.sub(S, i8x16.narrow_i16x8_s(i16x8.shr_s(Ph0, 15), i16x8.shr_s(Ph1, 15))), i8x16.narrow_i16x8_s(i16x8.shr_s(Mh0, 15), i16x8.shr_s(Mh1, 15)));
    if (i8x16.bitmask(S) != 0) { // rare: some lane's score <= its limit (sign bit set)
      marks += laneMarks(S, t, share, chars);
      if (marks > maxMarks) return -1;
    }
  }
  return marks;
}

/** The lanes pass: 16 lanes of 32 bits, semi-global indel distance, `steps` steps from step 0; marks (laneMarks) the characters after which a lane's score is <= its limit; returns the marks, or -1 past maxMarks. */
function lanes32i(steps: i32, share: i32, chars: i32, maxMarks: i32): i32 {
  const tx = TX;
  const NIB = v128.load(LCONST); // 0x0F bytes
  const NLO0 = v128.load(LTAB, 0), NHI0 = v128.load(LTAB, 16);
  const NLO1 = v128.load(LTAB, 32), NHI1 = v128.load(LTAB, 48);
  const NLO2 = v128.load(LTAB, 64), NHI2 = v128.load(LTAB, 80);
  const NLO3 = v128.load(LTAB, 96), NHI3 = v128.load(LTAB, 112);
  let P0 = i32x4.splat(-1), M0 = i32x4.splat(0), P1 = i32x4.splat(-1), M1 = i32x4.splat(0);
  let P2 = i32x4.splat(-1), M2 = i32x4.splat(0), P3 = i32x4.splat(-1), M3 = i32x4.splat(0);
  let S = v128.load(LCONST, 16); // i8x16: the 16 lanes' scores less (limit + 1)
  let marks = 0;
  for (let t = 0; t < steps; t++) {
    const c = v128.load(tx + (<usize>t << 4));
    const lo = v128.and(c, NIB), hi = v128.and(i16x8.shr_u(c, 4), NIB);
    const N0 = v128.or(i8x16.swizzle(NLO0, lo), i8x16.swizzle(NHI0, hi)); // ~Peq, rows 0-7 of the 16 lanes
    const N1 = v128.or(i8x16.swizzle(NLO1, lo), i8x16.swizzle(NHI1, hi)); // ~Peq, rows 8-15 of the 16 lanes
    const N2 = v128.or(i8x16.swizzle(NLO2, lo), i8x16.swizzle(NHI2, hi)); // ~Peq, rows 16-23 of the 16 lanes
    const N3 = v128.or(i8x16.swizzle(NLO3, lo), i8x16.swizzle(NHI3, hi)); // ~Peq, rows 24-31 of the 16 lanes
    const u0 = i8x16.shuffle(N0, N1, 0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23), u1 = i8x16.shuffle(N0, N1, 8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15, 31); // planes 0, 1 of lanes 0-7; of lanes 8-15
    const u2 = i8x16.shuffle(N2, N3, 0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23), u3 = i8x16.shuffle(N2, N3, 8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15, 31); // planes 2, 3
    const E0 = i8x16.shuffle(u0, u2, 0, 1, 16, 17, 2, 3, 18, 19, 4, 5, 20, 21, 6, 7, 22, 23); // lanes 0-3
    const s0 = i32x4.add(v128.andnot(P0, E0), P0); // (Eq & Pv) + Pv
    const NXh0 = v128.andnot(E0, v128.xor(s0, P0)); // ~Xh
    const Mh0 = v128.andnot(P0, NXh0);
    const G0 = v128.or(M0, v128.andnot(NXh0, P0)), Pr0 = v128.and(P0, NXh0);
    const Ph0 = v128.or(G0, v128.andnot(Pr0, i32x4.add(G0, v128.or(M0, NXh0)))); // Pr & ((G + (G | Pr)) ^ Pr) = Pr & ~(G + (G | Pr))
    const NXv0 = v128.andnot(E0, M0); // ~Xv
    const Ps0 = i32x4.shl(Ph0, 1), Ms0 = i32x4.shl(Mh0, 1);
    P0 = v128.or(Ms0, v128.andnot(NXv0, v128.andnot(Ps0, P0)));
    M0 = v128.andnot(Ps0, NXv0);
    const E1 = i8x16.shuffle(u0, u2, 8, 9, 24, 25, 10, 11, 26, 27, 12, 13, 28, 29, 14, 15, 30, 31); // lanes 4-7
    const s1 = i32x4.add(v128.andnot(P1, E1), P1); // (Eq & Pv) + Pv
    const NXh1 = v128.andnot(E1, v128.xor(s1, P1)); // ~Xh
    const Mh1 = v128.andnot(P1, NXh1);
    const G1 = v128.or(M1, v128.andnot(NXh1, P1)), Pr1 = v128.and(P1, NXh1);
    const Ph1 = v128.or(G1, v128.andnot(Pr1, i32x4.add(G1, v128.or(M1, NXh1)))); // Pr & ((G + (G | Pr)) ^ Pr) = Pr & ~(G + (G | Pr))
    const NXv1 = v128.andnot(E1, M1); // ~Xv
    const Ps1 = i32x4.shl(Ph1, 1), Ms1 = i32x4.shl(Mh1, 1);
    P1 = v128.or(Ms1, v128.andnot(NXv1, v128.andnot(Ps1, P1)));
    M1 = v128.andnot(Ps1, NXv1);
    const up0 = i16x8.narrow_i32x4_s(Ph0, Ph1), down0 = i16x8.narrow_i32x4_s(Mh0, Mh1); // signs kept
    const E2 = i8x16.shuffle(u1, u3, 0, 1, 16, 17, 2, 3, 18, 19, 4, 5, 20, 21, 6, 7, 22, 23); // lanes 8-11
    const s2 = i32x4.add(v128.andnot(P2, E2), P2); // (Eq & Pv) + Pv
    const NXh2 = v128.andnot(E2, v128.xor(s2, P2)); // ~Xh
    const Mh2 = v128.andnot(P2, NXh2);
    const G2 = v128.or(M2, v128.andnot(NXh2, P2)), Pr2 = v128.and(P2, NXh2);
    const Ph2 = v128.or(G2, v128.andnot(Pr2, i32x4.add(G2, v128.or(M2, NXh2)))); // Pr & ((G + (G | Pr)) ^ Pr) = Pr & ~(G + (G | Pr))
    const NXv2 = v128.andnot(E2, M2); // ~Xv
    const Ps2 = i32x4.shl(Ph2, 1), Ms2 = i32x4.shl(Mh2, 1);
    P2 = v128.or(Ms2, v128.andnot(NXv2, v128.andnot(Ps2, P2)));
    M2 = v128.andnot(Ps2, NXv2);
    const E3 = i8x16.shuffle(u1, u3, 8, 9, 24, 25, 10, 11, 26, 27, 12, 13, 28, 29, 14, 15, 30, 31); // lanes 12-15
    const s3 = i32x4.add(v128.andnot(P3, E3), P3); // (Eq & Pv) + Pv
    const NXh3 = v128.andnot(E3, v128.xor(s3, P3)); // ~Xh
    const Mh3 = v128.andnot(P3, NXh3);
    const G3 = v128.or(M3, v128.andnot(NXh3, P3)), Pr3 = v128.and(P3, NXh3);
    const Ph3 = v128.or(G3, v128.andnot(Pr3, i32x4.add(G3, v128.or(M3, NXh3)))); // Pr & ((G + (G | Pr)) ^ Pr) = Pr & ~(G + (G | Pr))
    const NXv3 = v128.andnot(E3, M3); // ~Xv
    const Ps3 = i32x4.shl(Ph3, 1), Ms3 = i32x4.shl(Mh3, 1);
    P3 = v128.or(Ms3, v128.andnot(NXv3, v128.andnot(Ps3, P3)));
    M3 = v128.andnot(Ps3, NXv3);
    const up1 = i16x8.narrow_i32x4_s(Ph2, Ph3), down1 = i16x8.narrow_i32x4_s(Mh2, Mh3); // signs kept
    const up = i8x16.narrow_i16x8_s(up0, up1), down = i8x16.narrow_i16x8_s(down0, down1); // sign = the lane's row-32 Ph, Mh
    S = i8x16.add(i8x16.sub(S, i8x16.lt_s(up, i8x16.splat(0))), i8x16.lt_s(down, i8x16.splat(0)));
    if (i8x16.bitmask(S) != 0) { // rare: some lane's score <= its limit (sign bit set)
      marks += laneMarks(S, t, share, chars);
      if (marks > maxMarks) return -1;
    }
  }
  return marks;
}

/**
 * The linear pass at threshold minRatio through the quote's first m = min(lb, W) characters in
 * 16 lanes of W = 16 or 32 bits (the layout of qiLanesLayout must be current), with the semi-global
 * indel distance; D = the indel budget of a window with ratio >= minRatio (ts/match/quote-index/search.ts
 * `searchBest` (b)), < m. The two widths differ only in m (the proof below holds for any m <= lb):
 * 32 bits cost about twice the DP a character and mark far less at a larger D (docs/moot.md). Every character e1 whose lane scores E_l(e1) <= D marks the words of
 * characters [e1 − m − D + 1, e1 + (lb − m) + D] of its text (proof (h), (i): W1, the part of a
 * window W >= T aligned to b1, has indel(W1, b1) <= D, ends at e1 inside W and starts at
 * >= e1 − m − D + 1, and W2 ends by e1 + (lb − m) + D); lane l's E_l(e1) bounds indel(W1, b1) when
 * W starts at or after l·share. A window W = [s, e] >= T starting before c = l·share and ending at
 * or after it straddles c: its la <= lb + D (d >= la − lb), so s >= c − lb − D + 1 and
 * e <= c + lb + D − 2, and the character e1 = max(e − lb + m − D, s) lies in W (e − s + 1 <= lb + D
 * and m <= lb) with [e1 − m − D + 1, e1 + lb − m + D] ⊇ [s, e] (e1 <= s + m + D − 1 and
 * e1 >= e − lb + m − D) and c − lb + m − D − 1 < e1 < c + m + D: so marking that whole run of
 * characters covers every straddling window through a character of its own text. The marked
 * ranges (merged, ascending) are then scanned with the whole quote as qiScanRanges does. Returns
 * the windows >= minRatio (qiScan's, in no order), or -1 when the marks exceed maxMarks or the
 * ranges maxRanges (the caller then runs qiScan).
 */
export function qiScanLanes(nSources: i32, lb: i32, n: i32, alphabet: i32, minRatio: f64, onlySource: i32, W: i32, D: i32, maxMarks: i32, maxRanges: i32): i32 {
  nOut = 0;
  const C = txChars;
  if (lb == 0 || C <= 0) return 0;
  const share = txShare;
  const m = min(lb, W);
  const pad = W - m;
  memory.fill(LTAB, 0, 128);
  for (let j = 0; j < m; j++) {
    const code = min(load<i32>(QUOTE + (<usize>j << 2)), 254);
    const bit = pad + j;
    const plane = LTAB + (<usize>(bit >> 3) << 5);
    const b = <u8>1 << <u8>(bit & 7);
    store<u8>(plane + <usize>(code & 15), load<u8>(plane + <usize>(code & 15)) | b);
    store<u8>(plane + 16 + <usize>(code >> 4), load<u8>(plane + 16 + <usize>(code >> 4)) | b);
  }
  for (let k: usize = 0; k < 128; k += 16) v128.store(LTAB + k, v128.not(v128.load(LTAB + k)));
  v128.store(LCONST, i8x16.splat(0x0f));
  v128.store(LCONST, i8x16.splat(<i8>(W - (D + pad + 1))), 16);
  memory.fill(BITS, 0, <usize>((C + 63) >> 6) << 3);
  if ((W == 32 ? lanes32i(share, share, C, maxMarks) : lanes16i(share, share, C, maxMarks)) < 0) return -1;
  // 32-bit lanes: each mark checked with the whole quote when it fits one block (markHolds)
  if (W == 32 && lb <= 64) {
    setupQuote(lb, alphabet, 1);
    checkMarks(C, lb, m, D);
  }
  // the lane boundaries: every character that may carry a straddling window (see above)
  for (let c = share; c < C; c += share) {
    for (let p = max(0, c - lb + m - D - 1), z = min(C - 1, c + m + D); p <= z; p++) {
      const b = BITS + (<usize>p >> 3);
      store<u8>(b, load<u8>(b) | (<u8>1 << <u8>(p & 7)));
    }
  }
  let count = 0;
  for (let s = 0; s < nSources; s++) {
    if (onlySource >= 0 && s != onlySource) continue;
    const w0 = load<i32>(SW + (<usize>s << 2));
    const w1 = load<i32>(SW + (<usize>(s + 1) << 2));
    if (w1 == w0) continue;
    count = markedRanges(w0, w1, lb, m, D, count, maxRanges);
    if (count < 0) return -1;
  }
  return scanRangeList(count, lb, n, alphabet, minRatio);
}
