/**
 * Text rules MemDSL relies on: code point order, the wire escapes, and the
 * invisible/bidi character scan. Offsets here are UTF-16 code units (JS string
 * indices) unless a name says code points.
 */
import { GroundwireError } from "../errors.js";
import { checkArgs } from "../args.js";

// Code point order is ts/rdf's (compareCodePoints); it is re-exported here for this part's modules.
export { compareCodePoints } from "../rdf/code-points.js";

/**
 * Characters that the wire never carries raw (escaped as `\u{HEX}` unless they
 * have a short escape): C0/C1 controls except TAB (NUL, CR, LF, VT, FF, NEL…),
 * format characters (Cf: bidi controls, zero-width joiners, BOM, tags…),
 * other default-ignorable code points (variation selectors, Hangul fillers…),
 * the line and paragraph separators U+2028/U+2029, and lone surrogates. After
 * escaping, a physical wire line is always exactly one logical line, for any
 * reader that splits on any Unicode line break, and nothing invisible reorders it.
 */
const MUST_ESCAPE_ONE = /^[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{DI}\p{Cs}]$/u;

/**
 * The same set as a memo table over the BMP, so hot loops test one byte per
 * code unit instead of running a Unicode-property regex: 0 = raw, 1 = escape,
 * 2 = not yet known (filled on first sight, so the cost is per distinct
 * character seen). Astral code points go through MUST_ESCAPE_ONE (rare).
 */
let BMP_TABLE: Uint8Array | null = null;
function bmpTable(): Uint8Array {
  if (BMP_TABLE) return BMP_TABLE;
  const t = new Uint8Array(0x10000).fill(2);
  for (let c = 0; c < 0x80; c++) t[c] = c < 0x20 || c === 0x7f ? 1 : 0;
  t[0x09] = 0;
  return (BMP_TABLE = t);
}

function bmpMustEscape(table: Uint8Array, c: number): boolean {
  let v = table[c];
  if (v === 2) v = table[c] = MUST_ESCAPE_ONE.test(String.fromCharCode(c)) ? 1 : 0;
  return v === 1;
}

function isLowSurrogate(c: number): boolean {
  return c >= 0xdc00 && c <= 0xdfff;
}

function mustEscapeAt(text: string, i: number, table: Uint8Array): number {
  const c = text.charCodeAt(i);
  if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
    const d = text.charCodeAt(i + 1);
    if (d >= 0xdc00 && d <= 0xdfff) return MUST_ESCAPE_ONE.test(text.slice(i, i + 2)) ? 2 : 0;
  }
  return bmpMustEscape(table, c) ? 1 : 0;
}

function escapeChar(ch: string): string {
  switch (ch) {
    case "\t":
      return "\t";
    case "\\":
      return "\\\\";
    case "\n":
      return "\\n";
    case "\r":
      return "\\r";
    case '"':
      return '\\"';
    default:
      return `\\u{${ch.codePointAt(0)!.toString(16).toUpperCase()}}`;
  }
}

/**
 * Escape text for one wire line. `quoted` also escapes `"` (inside a `"…"` field).
 * Escapes: `\\`, `\n`, `\r`, `\"` (quoted only) and `\u{HEX}` (uppercase hex, no
 * padding) for every other character in the must-escape set; TAB stays raw.
 */
export function escapeWire(text: string, quoted: boolean): string {
  checkArgs("escapeWire", arguments, "text:string quoted:boolean");
  const table = bmpTable();
  let out = "";
  let run = 0;
  for (let i = 0; i < text.length; ) {
    const c = text.charCodeAt(i);
    const n = c === 0x5c || (quoted && c === 0x22) ? 1 : mustEscapeAt(text, i, table);
    if (n === 0) {
      // Step over a whole surrogate pair, so its low half is never seen alone.
      i += c >= 0xd800 && c <= 0xdbff && isLowSurrogate(text.charCodeAt(i + 1)) ? 2 : 1;
      continue;
    }
    const ch = text.slice(i, i + n);
    out += text.slice(run, i) + escapeChar(ch);
    i += n;
    run = i;
  }
  return run === 0 ? text : out + text.slice(run);
}

/** A wire text failed to decode: `index` is the 0-based UTF-16 offset within the decoded line part. */
export class WireEscapeError extends GroundwireError {
  constructor(
    readonly index: number,
    detail: string,
  ) {
    super(detail, { code: "bad_request", status: 400 });
    this.name = "WireEscapeError";
  }
}

/**
 * Decode an escaped wire text from `start` until the end of `line` or (when
 * `quoted`) the closing unescaped `"`. Strict: only canonical escapes are
 * accepted (the ones {@link escapeWire} writes), and `\n` only when `quoted`
 * (unquoted text is a body line, split on LF before escaping). Raw characters that must be
 * escaped are checked per line by {@link findRawForbidden}; with both checks,
 * `escapeWire(decode(x)) === x` for every accepted x.
 *
 * @returns the decoded text and the index just past what was consumed (past the closing quote when quoted)
 * @throws WireEscapeError with the offending index in `line`
 */
export function unescapeWire(line: string, start: number, quoted: boolean): { text: string; end: number } {
  // a body line never holds a line feed (the body is split on it): `\n` there is never written
  const newline = quoted;
  let out = "";
  let i = start;
  let runStart = i;
  while (i < line.length) {
    const c = line.charCodeAt(i);
    if (quoted && c === 0x22) {
      out += line.slice(runStart, i);
      return { text: out, end: i + 1 };
    }
    if (c === 0x5c) {
      out += line.slice(runStart, i);
      const e = line[i + 1];
      if (e === "\\") out += "\\";
      else if (e === "n") {
        if (!newline) throw new WireEscapeError(i, "a body line cannot hold \\n: a line feed in a body starts the next body line");
        out += "\n";
      }
      else if (e === "r") out += "\r";
      else if (e === '"' && quoted) out += '"';
      else if (e === "u" && line[i + 2] === "{") {
        const close = line.indexOf("}", i + 3);
        const hex = close < 0 ? "" : line.slice(i + 3, close);
        if (!/^[0-9A-F]{1,6}$/.test(hex)) throw new WireEscapeError(i, "malformed \\u{HEX} escape (1–6 uppercase hex digits)");
        const cp = parseInt(hex, 16);
        if (cp > 0x10ffff) throw new WireEscapeError(i, `\\u{${hex}} is beyond U+10FFFF`);
        if (hex.length > 1 && hex[0] === "0") throw new WireEscapeError(i, `non-canonical escape \\u{${hex}} (leading zero)`);
        const ch = String.fromCodePoint(cp);
        if (mustEscapeAt(ch, 0, bmpTable()) === 0 || ch === "\n" || ch === "\r" || ch === "\t")
          throw new WireEscapeError(i, `non-canonical escape \\u{${hex}}: that character is written ${ch === "\t" ? "raw" : "with its short form or raw"}`);
        out += ch;
        i = close + 1;
        runStart = i;
        continue;
      } else throw new WireEscapeError(i, `unknown escape \\${e ?? "(end of line)"}`);
      i += 2;
      runStart = i;
      continue;
    }
    i++;
  }
  if (quoted) throw new WireEscapeError(line.length, "unterminated quoted string");
  out += line.slice(runStart);
  return { text: out, end: line.length };
}

/**
 * Index (UTF-16) of the first raw character in `line` that the wire must escape
 * (see {@link escapeWire}), or -1. One pass.
 */
export function findRawForbidden(line: string): number {
  const table = bmpTable();
  for (let i = 0; i < line.length; i++) {
    const c = line.charCodeAt(i);
    if (c < 0x7f && c >= 0x20) continue;
    const n = mustEscapeAt(line, i, table);
    if (n) return i;
    if (c >= 0xd800 && c <= 0xdbff) i++; // a valid pair that needs no escape (a lone one returned above)
  }
  return -1;
}

/** Matches one invisible or bidi character: format (Cf) or default-ignorable code points. */
const INVISIBLE = /[\p{Cf}\p{DI}]/gu;
const INVISIBLE_ONE = /[\p{Cf}\p{DI}]/u;

/**
 * The invisible and bidi characters in `text`: format characters (Cf: bidi
 * embeddings/overrides/isolates U+202A–202E, U+2066–2069, marks U+200E/F/061C,
 * zero-width U+200B–200D, U+2060, BOM U+FEFF, soft hyphen, tag characters…)
 * and every other default-ignorable code point (variation selectors, Hangul
 * fillers, Mongolian free variation selectors…). Returns `U+XXXX` → count,
 * keys in code point order. O(n).
 */
export function invisibleCharacters(text: string): Map<string, number> {
  checkArgs("invisibleCharacters", arguments, "text:string");
  const counts = new Map<number, number>();
  if (!INVISIBLE_ONE.test(text)) return new Map();
  for (const m of text.matchAll(INVISIBLE)) {
    const cp = m[0].codePointAt(0)!;
    counts.set(cp, (counts.get(cp) ?? 0) + 1);
  }
  return new Map(
    [...counts.entries()].sort((a, b) => a[0] - b[0]).map(([cp, n]) => [`U+${cp.toString(16).toUpperCase().padStart(4, "0")}`, n]),
  );
}

/** Number of code points in `text` (a lone surrogate counts as one). */
export function codePointLength(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) i++;
    }
    n++;
  }
  return n;
}

/** The first `max` code points of `text` (never splits a surrogate pair). */
export function sliceCodePoints(text: string, max: number): string {
  let n = 0;
  let i = 0;
  while (i < text.length && n < max) {
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const d = text.charCodeAt(i + 1);
      i += d >= 0xdc00 && d <= 0xdfff ? 2 : 1;
    } else i++;
    n++;
  }
  return text.slice(0, i);
}
