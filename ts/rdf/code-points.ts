/**
 * Ordering strings by Unicode code point, as RDF canonical forms and Python's `str`
 * order them. JavaScript's `<` and default `sort()` compare UTF-16 code units, which
 * disagree with code point order exactly when a surrogate (an astral character, U+10000
 * and above) meets a BMP character in U+E000–U+FFFF: `"\u{25651}" < "\uFF3A"` is true
 * in JavaScript although U+25651 > U+FF3A.
 */

/** Characters at or above U+D800: only strings holding one need a remapped key. */
const HIGH_UNITS = /[\uD800-\uFFFF]/;

/**
 * A string whose UTF-16 code-unit order equals the code-point order of `text`.
 *
 * Strings without a code unit ≥ U+D800 are returned as they are (no copy). Otherwise
 * every unit U+E000–U+FFFF moves down by 0x800 (to U+D800–U+F7FF) and every surrogate
 * moves up by 0x2000 (to U+F800–U+FFFF): relative order inside each group is kept and
 * astral characters now sort after the whole BMP, as their code points do. Pairs stay
 * aligned at the first difference of two strings with a common prefix, so comparing the
 * high surrogate first and the low one second is comparing code points. Compare keys
 * with `<` / `>` only; a key is not text to show.
 *
 * Cost: O(length) for strings holding such units, O(length) regex scan otherwise.
 */
export function codePointSortKey(text: string): string {
  if (!HIGH_UNITS.test(text)) return text;
  let out = "";
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit >= 0xe000) out += String.fromCharCode(unit - 0x800);
    else if (unit >= 0xd800) out += String.fromCharCode(unit + 0x2000);
    else out += text[i];
  }
  return out;
}

/**
 * Compare two strings by Unicode code point: negative, zero or positive, for `sort()`.
 * Equivalent to comparing the UTF-8 bytes. For sorting many strings precompute
 * {@link codePointSortKey} once per string instead.
 */
export function compareCodePoints(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    if (x >= 0xd800 && y >= 0xd800) {
      // Map as in codePointSortKey: surrogates above U+E000–U+FFFF.
      const kx = x >= 0xe000 ? x - 0x800 : x + 0x2000;
      const ky = y >= 0xe000 ? y - 0x800 : y + 0x2000;
      return kx - ky;
    }
    return x - y;
  }
  return a.length - b.length;
}
