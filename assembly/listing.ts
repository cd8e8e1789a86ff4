// The triple listing of DESIGN §1 over a graph's terms: render every distinct term, order
// the triples, and write the fingerprint's bytes `s\tp\to\n`. The pure-TS twin with the
// same contract is ts/triple-index/ordering.ts (renderEntityKey + the string sorts +
// SortedTriples.encode); the binding is bindings/listing.ts. Parity is tested on the
// fixtures, random graphs and every real graph in ../shared.
//
// Input (written by JS at the addresses listingTriples, then listingInput, return):
//   triples   u32[3n]: subject, predicate, object term numbers per triple
//   keys      the UTF-8 of the store's entity keys (N3.js's internal term ids), concatenated
//   keyEnd    u32[T]: where term t's key ends, counted in UTF-16 code units
//   prefixes  [u32 count] then per namespace, longest first: [u32 nsLength][u32 nameLength]
//             namespace bytes, name bytes (PrefixMap's shortening order)
// Rendering (ts/rdf/format-term.ts, ts/rdf/prefixes.ts, renderEntityKey):
//   "lexical"[@tag | ^^datatype]  literal: body escaped as canonical N-Triples, tag
//                                 lower-cased, datatype rendered as an IRI; xsd:string and
//                                 rdf:langString datatypes dropped
//   _:label                       blank node, as is
//   <iri> or iri                  IRI: `name:local` for the first namespace (longest first)
//                                 whose remainder is a non-empty PN_LOCAL, else `<iri>` with
//                                 IRIREF's forbidden characters and U+0085/2028/2029 as \uXXXX
//   anything else (?var, .s.p.o quoted triples, [ …, a non-ASCII tag): listingRun returns
//   -1 and JS renders the whole graph in TS.
// Order: UTF-8 byte order is Unicode code point order, so terms are compared with memcmp.
// Subjects ascending; within a subject, rdf:type first, then predicate, then object.
// Both sorts are stable (merge sort, insertion sort for short runs).
//
// One arena (heap.alloc, grown with heap.realloc); all positions below are byte offsets
// from its start, so growing it (which may move it) never invalidates them.

let arena: usize = 0;
let arenaBytes: usize = 0;

let termCount: u32 = 0;
let tripleCount: u32 = 0;
let keyUnits: u32 = 0;
let subjectCount: u32 = 0;
let maxNameLength: u32 = 0;

// input regions
let oKeys: usize = 0;
let oKeyEnd: usize = 0;
let oTriples: usize = 0;
let oPrefixes: usize = 0;
// work and output regions
let oKeyStart: usize = 0; // u32[T+1] byte offsets into keys
let oROff: usize = 0; // u32[T+1] byte offsets into rendered
let oSubjectRank: usize = 0; // i32[T], -1 for non-subjects
let oPredicateRank: usize = 0; // i32[T], -1 for non-predicates
let oList: usize = 0; // u32[T] distinct subjects / predicates being sorted
let oTemp: usize = 0; // u32[max(T, n)] merge buffer
let oSortKey: usize = 0; // u64[T]: 8 bytes of each term's rendering after the list's common prefix
let oOrder: usize = 0; // u32[n] triple numbers in listing order
let oCounts: usize = 0; // u32[T+1] counting sort / block starts
let oSorted: usize = 0; // u32[3n] sorted triples
let oRendered: usize = 0; // rendered bytes (grows; then the listing follows it)
let renderedLength: usize = 0;
let renderedCapacity: usize = 0;
let oOutput: usize = 0;
let outputLength: usize = 0;

// Datatypes whose literals render without `^^` (as renderEntityKey); compared in place, so
// the arena stays the module's last heap block and grows without a copy.
const XSD_STRING = "http://www.w3.org/2001/XMLSchema#string";
const RDF_LANG_STRING = "http://www.w3.org/1999/02/22-rdf-syntax-ns#langString";

/** Whether bytes [from, from + length) of the arena are the ASCII constant `text`. */
function bytesAre(from: usize, length: usize, text: string): bool {
  if (length != <usize>text.length) return false;
  for (let i: usize = 0; i < length; i++) if (<u32>load<u8>(arena + from + i) != <u32>text.charCodeAt(<i32>i)) return false;
  return true;
}

@inline function align8(x: usize): usize {
  return (x + 7) & ~(<usize>7);
}
@inline function u32At(offset: usize, index: usize): u32 {
  return load<u32>(arena + offset + (index << 2));
}
@inline function setU32(offset: usize, index: usize, value: u32): void {
  store<u32>(arena + offset + (index << 2), value);
}
@inline function byteAt(position: usize): u32 {
  return <u32>load<u8>(arena + position);
}

function ensureBytes(bytes: usize): void {
  if (bytes <= arenaBytes) return;
  // Grow by what is needed plus an eighth, at least by half: WebAssembly memory counts as
  // external memory to the JS engine, and V8 starts a full GC for every 64 MB it grows by,
  // so doubling up to a power of two would cost a collection of the whole JS heap.
  let want = bytes + (bytes >> 3);
  const half = arenaBytes + (arenaBytes >> 1);
  if (want < half) want = half;
  arena = arena == 0 ? heap.alloc(want) : heap.realloc(arena, want);
  arenaBytes = want;
}

/**
 * Reserve room for n triples and return the address where JS writes their term numbers
 * (u32[3n]). Call first; listingInput keeps what was written there.
 */
export function listingTriples(triples: u32): usize {
  tripleCount = triples;
  oTriples = 0;
  ensureBytes(align8(12 * <usize>triples));
  return arena + oTriples;
}

/**
 * Reserve the other input regions, after the triples, for T terms whose keys hold `units`
 * UTF-16 code units (room for `keyCapacity` bytes of their UTF-8: 3·units always suffices)
 * and a prefix table of `prefixBytes` bytes; returns the arena's address
 * (it may have moved: the triples written before are kept). JS then writes at
 * listingKeysPtr(), listingKeyEndsPtr() and listingPrefixesPtr().
 */
export function listingInput(terms: u32, units: u32, keyCapacity: u32, prefixBytes: u32): usize {
  termCount = terms;
  keyUnits = units;
  oKeys = align8(oTriples + 12 * <usize>tripleCount);
  oKeyEnd = align8(oKeys + <usize>keyCapacity);
  oPrefixes = align8(oKeyEnd + 4 * <usize>terms);
  ensureBytes(align8(oPrefixes + <usize>prefixBytes));
  return arena;
}

export function listingKeysPtr(): usize {
  return arena + oKeys;
}
export function listingKeyEndsPtr(): usize {
  return arena + oKeyEnd;
}
export function listingTriplesPtr(): usize {
  return arena + oTriples;
}
export function listingPrefixesPtr(): usize {
  return arena + oPrefixes;
}
export function listingSortedPtr(): usize {
  return arena + oSorted;
}
export function listingBlockStartsPtr(): usize {
  return arena + oCounts;
}
export function listingRenderedPtr(): usize {
  return arena + oRendered;
}
export function listingRenderedOffsetsPtr(): usize {
  return arena + oROff;
}
export function listingOutputPtr(): usize {
  return arena + oOutput;
}
export function listingOutputLength(): usize {
  return outputLength;
}

// ---------------------------------------------------------------- rendering

@inline function reserveRendered(extra: usize): void {
  const need = renderedLength + extra;
  if (need <= renderedCapacity) return;
  let cap = renderedCapacity < 4096 ? <usize>4096 : renderedCapacity;
  while (cap < need) cap <<= 1;
  ensureBytes(oRendered + cap);
  renderedCapacity = cap;
}
@inline function emit(byte: u32): void {
  store<u8>(arena + oRendered + renderedLength, <u8>byte);
  renderedLength++;
}
function emitBytes(from: usize, length: usize): void {
  memory.copy(arena + oRendered + renderedLength, arena + from, length);
  renderedLength += length;
}
function emitHex4(code: u32): void {
  emit(0x5c); // backslash
  emit(0x75); // u
  for (let shift: i32 = 12; shift >= 0; shift -= 4) {
    const digit = (code >> <u32>shift) & 0xf;
    emit(digit < 10 ? 0x30 + digit : 0x41 + digit - 10);
  }
}

/** Code point of the UTF-8 sequence at `p` (valid UTF-8 assumed: JS encoded a well-formed string). */
@inline function decodeAt(p: usize, lead: u32): u32 {
  if (lead < 0x80) return lead;
  if (lead < 0xe0) return ((lead & 0x1f) << 6) | (byteAt(p + 1) & 0x3f);
  if (lead < 0xf0) return ((lead & 0x0f) << 12) | ((byteAt(p + 1) & 0x3f) << 6) | (byteAt(p + 2) & 0x3f);
  return ((lead & 0x07) << 18) | ((byteAt(p + 1) & 0x3f) << 12) | ((byteAt(p + 2) & 0x3f) << 6) | (byteAt(p + 3) & 0x3f);
}
@inline function sequenceLength(lead: u32): usize {
  return lead < 0x80 ? 1 : lead < 0xe0 ? 2 : lead < 0xf0 ? 3 : 4;
}

/** Whether the UTF-8 sequence at `p` is U+0085 (C2 85), U+2028 (E2 80 A8) or U+2029 (E2 80 A9). */
@inline function isLineBreakAt(p: usize, lead: u32): bool {
  if (lead == 0xc2) return byteAt(p + 1) == 0x85;
  return lead == 0xe2 && byteAt(p + 1) == 0x80 && (byteAt(p + 2) == 0xa8 || byteAt(p + 2) == 0xa9);
}

/** A literal's lexical form as canonical N-Triples (escapeLiteral in ts/rdf/format-term.ts). */
function emitEscapedLiteral(from: usize, to: usize): void {
  let p = from;
  while (p < to) {
    const lead = byteAt(p);
    if (lead >= 0x80) {
      const length = sequenceLength(lead);
      // U+FFFE and U+FFFF (EF BF BE, EF BF BF) and the line breaks U+0085, U+2028, U+2029
      // are escaped; every other non-ASCII character stays
      if ((lead == 0xef && byteAt(p + 1) == 0xbf && byteAt(p + 2) >= 0xbe) || isLineBreakAt(p, lead)) emitHex4(decodeAt(p, lead));
      else emitBytes(p, length);
      p += length;
      continue;
    }
    if (lead >= 0x20 && lead != 0x22 && lead != 0x5c && lead != 0x7f) emit(lead);
    else if (lead == 0x22 || lead == 0x5c) {
      emit(0x5c);
      emit(lead);
    } else if (lead == 0x09) { emit(0x5c); emit(0x74); }
    else if (lead == 0x0a) { emit(0x5c); emit(0x6e); }
    else if (lead == 0x0d) { emit(0x5c); emit(0x72); }
    else if (lead == 0x08) { emit(0x5c); emit(0x62); }
    else if (lead == 0x0c) { emit(0x5c); emit(0x66); }
    else emitHex4(lead);
    p++;
  }
}

/** PN_CHARS_BASE of Turtle (ts/rdf/prefixes.ts). */
@inline function isPnCharsBase(c: u32): bool {
  if (c < 0x80) return (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
  return (
    (c >= 0xc0 && c <= 0xd6) || (c >= 0xd8 && c <= 0xf6) || (c >= 0xf8 && c <= 0x2ff) ||
    (c >= 0x370 && c <= 0x37d) || (c >= 0x37f && c <= 0x1fff) || (c >= 0x200c && c <= 0x200d) ||
    (c >= 0x2070 && c <= 0x218f) || (c >= 0x2c00 && c <= 0x2fef) || (c >= 0x3001 && c <= 0xd7ff) ||
    (c >= 0xf900 && c <= 0xfdcf) || (c >= 0xfdf0 && c <= 0xfffd) || (c >= 0x10000 && c <= 0xeffff)
  );
}
/** PN_CHARS: PN_CHARS_U, '-', digits, U+00B7, U+0300–U+036F, U+203F–U+2040. */
@inline function isPnChars(c: u32): bool {
  return (
    isPnCharsBase(c) || c == 0x5f || c == 0x2d || (c >= 0x30 && c <= 0x39) || c == 0xb7 ||
    (c >= 0x300 && c <= 0x36f) || c == 0x203f || c == 0x2040
  );
}
@inline function isHex(b: u32): bool {
  return (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x46) || (b >= 0x61 && b <= 0x66);
}

/**
 * Whether bytes [from, to) are a non-empty PN_LOCAL without backslash escapes: first
 * PN_CHARS_U | ':' | digit | %HH, then PN_CHARS | '.' | ':' | %HH, not ending in '.'.
 */
function isPnLocal(from: usize, to: usize): bool {
  if (from >= to) return false;
  let p = from;
  let first = true;
  let lastWasDot = false;
  while (p < to) {
    const lead = byteAt(p);
    if (lead == 0x25) {
      if (p + 2 >= to || !isHex(byteAt(p + 1)) || !isHex(byteAt(p + 2))) return false;
      p += 3;
      first = false;
      lastWasDot = false;
      continue;
    }
    const c = decodeAt(p, lead);
    p += sequenceLength(lead);
    if (first) {
      if (!(isPnCharsBase(c) || c == 0x5f || c == 0x3a || (c >= 0x30 && c <= 0x39))) return false;
      first = false;
      lastWasDot = false;
    } else {
      if (!(isPnChars(c) || c == 0x2e || c == 0x3a)) return false;
      lastWasDot = c == 0x2e;
    }
  }
  return !lastWasDot;
}

@inline function bytesEqual(a: usize, b: usize, length: usize): bool {
  return memory.compare(arena + a, arena + b, length) == 0;
}

/** An IRI (bytes [from, to)) as `name:local` or `<iri>` (PrefixMap.formatIri). */
function emitIri(from: usize, to: usize): void {
  const length = to - from;
  const count = load<u32>(arena + oPrefixes);
  let q = oPrefixes + 4;
  for (let i: u32 = 0; i < count; i++) {
    const nsLength = <usize>load<u32>(arena + q);
    const nameLength = <usize>load<u32>(arena + q + 4);
    const ns = q + 8;
    const name = ns + nsLength;
    q = name + nameLength;
    // the namespaces of one map mostly differ near their end: test the last byte first
    if (nsLength <= length && (nsLength == 0 || byteAt(ns + nsLength - 1) == byteAt(from + nsLength - 1)) && bytesEqual(ns, from, nsLength) && isPnLocal(from + nsLength, to)) {
      emitBytes(name, nameLength);
      emit(0x3a);
      emitBytes(from + nsLength, length - nsLength);
      return;
    }
  }
  emit(0x3c);
  for (let p = from; p < to; p++) {
    const b = byteAt(p);
    if (b <= 0x20 || b == 0x3c || b == 0x3e || b == 0x22 || b == 0x7b || b == 0x7d || b == 0x7c || b == 0x5e || b == 0x60 || b == 0x5c) emitHex4(b);
    else if (isLineBreakAt(p, b)) {
      emitHex4(decodeAt(p, b));
      p += sequenceLength(b) - 1;
    } else emit(b);
  }
  emit(0x3e);
}

/** Render term t from its key; false when the key is of a kind only the TS path renders. */
function renderTerm(t: usize): bool {
  const from = oKeys + <usize>u32At(oKeyStart, t);
  const to = oKeys + <usize>u32At(oKeyStart, t + 1);
  const length = to - from;
  reserveRendered(6 * length + <usize>maxNameLength + 16);
  if (length == 0) return false;
  const first = byteAt(from);
  if (first == 0x22) {
    // literal: "lexical" then @tag, ^^datatype or nothing; the body ends at the last quote
    let close = to - 1;
    while (close > from && byteAt(close) != 0x22) close--;
    if (close == from) return false;
    emit(0x22);
    emitEscapedLiteral(from + 1, close);
    emit(0x22);
    if (close + 1 == to) return true;
    const marker = byteAt(close + 1);
    if (marker == 0x40) {
      for (let p = close + 1; p < to; p++) {
        const b = byteAt(p);
        if (b >= 0x80) return false; // non-ASCII tag: JS lower-cases it with Unicode rules
        emit(b >= 0x41 && b <= 0x5a ? b + 0x20 : b);
      }
      return true;
    }
    if (marker != 0x5e || close + 3 > to) return false;
    const datatype = close + 3;
    const dtLength = to - datatype;
    if (bytesAre(datatype, dtLength, XSD_STRING) || bytesAre(datatype, dtLength, RDF_LANG_STRING)) return true;
    emit(0x5e);
    emit(0x5e);
    emitIri(datatype, to);
    return true;
  }
  if (first == 0x5f && length > 1 && byteAt(from + 1) == 0x3a) {
    emitBytes(from, length);
    return true;
  }
  if (first == 0x3c) {
    if (length < 2 || byteAt(to - 1) != 0x3e) return false;
    emitIri(from + 1, to - 1);
    return true;
  }
  if (first == 0x2e || first == 0x3f || first == 0x5b) return false;
  emitIri(from, to);
  return true;
}

// ---------------------------------------------------------------- ordering

/** Compare the renderings of terms x and y bytewise (= by code point). */
function compareTerms(x: u32, y: u32): i32 {
  if (x == y) return 0;
  const ax = u32At(oROff, x);
  const ay = u32At(oROff, y);
  const lx = <usize>(u32At(oROff, x + 1) - ax);
  const ly = <usize>(u32At(oROff, y + 1) - ay);
  const px = arena + oRendered + <usize>ax;
  const py = arena + oRendered + <usize>ay;
  const n = lx < ly ? lx : ly;
  let i: usize = 0;
  while (i + 8 <= n) {
    const wx = load<u64>(px + i);
    const wy = load<u64>(py + i);
    if (wx != wy) return bswap<u64>(wx) < bswap<u64>(wy) ? -1 : 1;
    i += 8;
  }
  while (i < n) {
    const bx = <i32>load<u8>(px + i);
    const by = <i32>load<u8>(py + i);
    if (bx != by) return bx - by;
    i++;
  }
  return lx < ly ? -1 : lx > ly ? 1 : 0;
}

@inline function sortKeyOf(t: u32): u64 {
  return load<u64>(arena + oSortKey + (<usize>t << 3));
}

/**
 * Order of terms x, y by rendering, with their sort keys (computed by sortTerms): the keys
 * hold the 8 bytes after the common prefix of the list being sorted, big-endian, zero-padded
 * — so unequal keys order the renderings, and equal keys fall back to the full comparison.
 */
@inline function compareKeyed(x: u32, y: u32): i32 {
  const kx = sortKeyOf(x);
  const ky = sortKeyOf(y);
  if (kx != ky) return kx < ky ? -1 : 1;
  return compareTerms(x, y);
}

/** Stable sort of u32 term numbers at [list, list + 4·count) by rendering (merge sort, temp at oTemp). */
function sortTerms(list: usize, count: usize): void {
  if (count < 2) return;
  // the common prefix of all renderings in the list, then each term's next 8 bytes as a key
  const first = u32At(list, 0);
  const firstAt = arena + oRendered + <usize>u32At(oROff, first);
  let common = <usize>(u32At(oROff, first + 1) - u32At(oROff, first));
  for (let i: usize = 1; i < count && common > 0; i++) {
    const t = u32At(list, i);
    const at = arena + oRendered + <usize>u32At(oROff, t);
    const length = <usize>(u32At(oROff, t + 1) - u32At(oROff, t));
    if (length < common) common = length;
    let j: usize = 0;
    while (j < common && load<u8>(firstAt + j) == load<u8>(at + j)) j++;
    common = j;
  }
  for (let i: usize = 0; i < count; i++) {
    const t = u32At(list, i);
    const at = arena + oRendered + <usize>u32At(oROff, t) + common;
    const length = <usize>(u32At(oROff, t + 1) - u32At(oROff, t)) - common;
    let key: u64 = 0;
    for (let j: usize = 0; j < 8; j++) key = (key << 8) | (j < length ? <u64>load<u8>(at + j) : 0);
    store<u64>(arena + oSortKey + (<usize>t << 3), key);
  }
  // insertion-sort runs of 16, then merge bottom-up, ping-ponging with the temp region
  const RUN: usize = 16;
  for (let lo: usize = 0; lo < count; lo += RUN) {
    const hi = lo + RUN < count ? lo + RUN : count;
    for (let i = lo + 1; i < hi; i++) {
      const v = u32At(list, i);
      let j = i;
      while (j > lo && compareKeyed(u32At(list, j - 1), v) > 0) {
        setU32(list, j, u32At(list, j - 1));
        j--;
      }
      setU32(list, j, v);
    }
  }
  let from = list;
  let to = oTemp;
  for (let width = RUN; width < count; width <<= 1) {
    for (let lo: usize = 0; lo < count; lo += 2 * width) {
      const mid = lo + width < count ? lo + width : count;
      const hi = lo + 2 * width < count ? lo + 2 * width : count;
      let i = lo;
      let j = mid;
      let k = lo;
      while (i < mid && j < hi) {
        const a = u32At(from, i);
        const b = u32At(from, j);
        if (compareKeyed(b, a) < 0) {
          setU32(to, k++, b);
          j++;
        } else {
          setU32(to, k++, a);
          i++;
        }
      }
      while (i < mid) setU32(to, k++, u32At(from, i++));
      while (j < hi) setU32(to, k++, u32At(from, j++));
    }
    const swap = from;
    from = to;
    to = swap;
  }
  if (from != list) memory.copy(arena + list, arena + from, count << 2);
}

/** Order of triples a, b inside one subject block: predicate rank, then object rendering. */
@inline function compareTriples(a: u32, b: u32): i32 {
  const pa = u32At(oTriples, 3 * <usize>a + 1);
  const pb = u32At(oTriples, 3 * <usize>b + 1);
  if (pa != pb) return load<i32>(arena + oPredicateRank + (<usize>pa << 2)) - load<i32>(arena + oPredicateRank + (<usize>pb << 2));
  return compareTerms(u32At(oTriples, 3 * <usize>a + 2), u32At(oTriples, 3 * <usize>b + 2));
}

/**
 * Stable sort of the triple numbers at order[lo, hi) (insertion sort, merge sort when long).
 * The same merge sort as sortTerms, written out with its own comparator: one shared sort
 * choosing the comparator per comparison made WordNet's listing 20–30 % slower (measured).
 */
function sortBlock(lo: usize, hi: usize): void {
  const count = hi - lo;
  if (count <= 24) {
    for (let i = lo + 1; i < hi; i++) {
      const v = u32At(oOrder, i);
      let j = i;
      while (j > lo && compareTriples(u32At(oOrder, j - 1), v) > 0) {
        setU32(oOrder, j, u32At(oOrder, j - 1));
        j--;
      }
      setU32(oOrder, j, v);
    }
    return;
  }
  let from = oOrder + (lo << 2);
  let to = oTemp;
  for (let width: usize = 1; width < count; width <<= 1) {
    for (let a: usize = 0; a < count; a += 2 * width) {
      const mid = a + width < count ? a + width : count;
      const end = a + 2 * width < count ? a + 2 * width : count;
      let i = a;
      let j = mid;
      let k = a;
      while (i < mid && j < end) {
        const x = u32At(from, i);
        const y = u32At(from, j);
        if (compareTriples(y, x) < 0) {
          setU32(to, k++, y);
          j++;
        } else {
          setU32(to, k++, x);
          i++;
        }
      }
      while (i < mid) setU32(to, k++, u32At(from, i++));
      while (j < end) setU32(to, k++, u32At(from, j++));
    }
    const swap = from;
    from = to;
    to = swap;
  }
  if (from != oOrder + (lo << 2)) memory.copy(arena + oOrder + (lo << 2), arena + from, count << 2);
}

/**
 * Render, order and write the listing. `keyBytes` is how many bytes JS wrote at
 * listingKeysPtr(); `typeTerm` is rdf:type's term number, or -1 when no triple uses it.
 * Returns the number of subject blocks (≥ 0); -1 when a term is of a kind only the TS path
 * renders (see the module note); -2 when the keys' lengths do not match their bytes.
 * Outputs: listingSortedPtr() u32[3n], listingBlockStartsPtr() u32[blocks + 1],
 * listingRenderedPtr() + listingRenderedOffsetsPtr() u32[T + 1], and the listing bytes
 * at listingOutputPtr(), listingOutputLength() long.
 */
export function listingRun(keyBytes: u32, typeTerm: i32): i32 {
  const T = <usize>termCount;
  const n = <usize>tripleCount;
  oKeyStart = align8(oPrefixes + 4 + prefixTableBytes());
  oROff = align8(oKeyStart + 4 * (T + 1));
  oSubjectRank = align8(oROff + 4 * (T + 1));
  oPredicateRank = align8(oSubjectRank + 4 * T);
  oList = align8(oPredicateRank + 4 * T);
  oTemp = align8(oList + 4 * T);
  oSortKey = align8(oTemp + 4 * (T > n ? T : n));
  oOrder = align8(oSortKey + 8 * T);
  oCounts = align8(oOrder + 4 * n);
  oSorted = align8(oCounts + 4 * (T + 1));
  oRendered = align8(oSorted + 12 * n);
  renderedLength = 0;
  // most renderings are their key, or the key and two brackets; reserveRendered grows it
  renderedCapacity = <usize>keyBytes + 8 * T + 4096;
  ensureBytes(oRendered + renderedCapacity);

  // 1. byte offsets of the keys from their UTF-16 lengths
  setU32(oKeyStart, 0, 0);
  if (keyBytes == keyUnits) {
    for (let t: usize = 0; t < T; t++) setU32(oKeyStart, t + 1, u32At(oKeyEnd, t));
  } else {
    let b: usize = 0;
    let u: u32 = 0;
    for (let t: usize = 0; t < T; t++) {
      const end = u32At(oKeyEnd, t);
      while (u < end) {
        const lead = byteAt(oKeys + b);
        const length = sequenceLength(lead);
        b += length;
        u += length == 4 ? 2 : 1;
      }
      if (u != end) return -2; // a surrogate pair split across two keys
      setU32(oKeyStart, t + 1, <u32>b);
    }
    if (b != <usize>keyBytes) return -2;
  }

  // 2. render every term
  maxNameLength = 0;
  {
    const count = load<u32>(arena + oPrefixes);
    let q = oPrefixes + 4;
    for (let i: u32 = 0; i < count; i++) {
      const nameLength = load<u32>(arena + q + 4);
      if (nameLength > maxNameLength) maxNameLength = nameLength;
      q += 8 + <usize>load<u32>(arena + q) + <usize>nameLength;
    }
  }
  setU32(oROff, 0, 0);
  for (let t: usize = 0; t < T; t++) {
    if (!renderTerm(t)) return -1;
    setU32(oROff, t + 1, <u32>renderedLength);
  }

  // 3. rank subjects and predicates by rendering; rdf:type is predicate rank 0
  memory.fill(arena + oSubjectRank, 0xff, 4 * T); // -1: not a subject
  memory.fill(arena + oPredicateRank, 0xff, 4 * T); // -1: not a predicate
  let subjects: usize = 0;
  let predicates: usize = 0;
  for (let k: usize = 0; k < n; k++) {
    const s = <usize>u32At(oTriples, 3 * k);
    if (load<i32>(arena + oSubjectRank + (s << 2)) == -1) {
      store<i32>(arena + oSubjectRank + (s << 2), 0);
      setU32(oList, subjects++, <u32>s);
    }
  }
  sortTerms(oList, subjects);
  for (let r: usize = 0; r < subjects; r++) store<i32>(arena + oSubjectRank + (<usize>u32At(oList, r) << 2), <i32>r);
  for (let k: usize = 0; k < n; k++) {
    const p = <usize>u32At(oTriples, 3 * k + 1);
    if (load<i32>(arena + oPredicateRank + (p << 2)) == -1) {
      store<i32>(arena + oPredicateRank + (p << 2), 0);
      setU32(oList, predicates++, <u32>p);
    }
  }
  sortTerms(oList, predicates);
  for (let r: usize = 0; r < predicates; r++) {
    const p = u32At(oList, r);
    store<i32>(arena + oPredicateRank + (<usize>p << 2), <i32>p == typeTerm ? 0 : <i32>r + 1);
  }

  // 4. group triples by subject rank (counting sort, stable), then order each block
  memory.fill(arena + oCounts, 0, 4 * (subjects + 1));
  for (let k: usize = 0; k < n; k++) {
    const r = <usize>load<i32>(arena + oSubjectRank + (<usize>u32At(oTriples, 3 * k) << 2));
    setU32(oCounts, r + 1, u32At(oCounts, r + 1) + 1);
  }
  for (let r: usize = 0; r < subjects; r++) setU32(oCounts, r + 1, u32At(oCounts, r + 1) + u32At(oCounts, r));
  // fill positions with a moving cursor per block (the temp region holds the cursors)
  memory.copy(arena + oTemp, arena + oCounts, 4 * subjects);
  for (let k: usize = 0; k < n; k++) {
    const r = <usize>load<i32>(arena + oSubjectRank + (<usize>u32At(oTriples, 3 * k) << 2));
    const at = u32At(oTemp, r);
    setU32(oOrder, at, <u32>k);
    setU32(oTemp, r, at + 1);
  }
  for (let r: usize = 0; r < subjects; r++) {
    const lo = <usize>u32At(oCounts, r);
    const hi = <usize>u32At(oCounts, r + 1);
    if (hi - lo > 1) sortBlock(lo, hi);
  }
  subjectCount = <u32>subjects;

  // 5. the sorted triples and the listing bytes `s\tp\to\n`
  let total: usize = 0;
  for (let k: usize = 0; k < n; k++) {
    const i = <usize>u32At(oOrder, k);
    const s = <usize>u32At(oTriples, 3 * i);
    const p = <usize>u32At(oTriples, 3 * i + 1);
    const o = <usize>u32At(oTriples, 3 * i + 2);
    setU32(oSorted, 3 * k, <u32>s);
    setU32(oSorted, 3 * k + 1, <u32>p);
    setU32(oSorted, 3 * k + 2, <u32>o);
    total += <usize>(u32At(oROff, s + 1) - u32At(oROff, s)) + <usize>(u32At(oROff, p + 1) - u32At(oROff, p)) + <usize>(u32At(oROff, o + 1) - u32At(oROff, o)) + 3;
  }
  oOutput = align8(oRendered + renderedLength);
  ensureBytes(oOutput + total + 8); // + 8: the word copies below may overrun a term by 7 bytes
  outputLength = total;
  let out = arena + oOutput;
  const rendered = arena + oRendered;
  for (let k: usize = 0; k < n; k++) {
    for (let j: usize = 0; j < 3; j++) {
      const t = <usize>u32At(oSorted, 3 * k + j);
      const a = u32At(oROff, t);
      const length = <usize>(u32At(oROff, t + 1) - a);
      const from = rendered + <usize>a;
      if (length <= 32) {
        // most terms are short: word copies beat a bulk-memory call here (may copy up to 7
        // bytes past the term: the output region has room, as the newline follows)
        for (let b: usize = 0; b < length; b += 8) store<u64>(out + b, load<u64>(from + b));
      } else memory.copy(out, from, length);
      out += length;
      store<u8>(out, j == 2 ? 0x0a : 0x09);
      out++;
    }
  }
  return <i32>subjects;
}

/** Bytes of the prefix table after its count word. */
function prefixTableBytes(): usize {
  const count = load<u32>(arena + oPrefixes);
  let q = oPrefixes + 4;
  for (let i: u32 = 0; i < count; i++) q += 8 + <usize>load<u32>(arena + q) + <usize>load<u32>(arena + q + 4);
  return q - (oPrefixes + 4);
}
