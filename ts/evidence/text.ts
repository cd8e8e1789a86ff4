/**
 * Text rules of the evidence spine: whitespace normalization (what a content hash
 * covers), slugs (what an address anchor is made of) and the escape that keeps
 * disambiguated anchors apart from every slug.
 */

/**
 * Collapse every run of whitespace (JS `\s`: Unicode spaces, tabs, CR, LF, NBSP)
 * to one U+0020 and trim both ends. Reflowing a paragraph or adding trailing
 * spaces therefore never changes a content hash.
 */
export function normalizeWhitespace(text: string): string {
  return text.replace(/\s+/gu, " ").trim();
}

/**
 * Characters a slug keeps: letters, combining marks, numbers, connector punctuation
 * (`_`) and `-`. Everything else (punctuation, symbols, `~`, `/`, `:`, `#`) is dropped,
 * as GitHub's heading slugger drops it.
 */
const DROPPED = /[^\p{L}\p{M}\p{N}\p{Pc}\-\s]/gu;

/**
 * The slug of a label (heading text, a table's header row, a row's first cell):
 * NFC, Unicode default lowercase, characters other than `[\p{L}\p{M}\p{N}\p{Pc}-]`
 * and whitespace dropped, then whitespace normalized and spaces turned into `-`.
 * Like github-slugger except that whitespace runs collapse (so `Setup  1` and
 * `Setup 1` share a slug, and `P(A | B)` gives `pa-b`, not `pa--b`). The result
 * never contains `~`, `/`, `:` or `#`: those are free for the path syntax and
 * the duplicate escape (see `anchorFor`). May be "" (a label of punctuation only,
 * or no label).
 */
export function slugify(label: string): string {
  return normalizeWhitespace(label.normalize("NFC").toLowerCase().replace(DROPPED, "")).replace(/ /g, "-");
}

/**
 * The anchor of the `occurrence`-th (1-based) sibling of one kind whose label slugs
 * to `slug`: the slug itself for the first occurrence, `slug~N` for later ones and
 * `~N` when the slug is empty. `~` is a character no slug contains, so a
 * disambiguated anchor can never equal another label's slug: headings `Setup`,
 * `Setup`, `Setup 1`, `Setup-1` get `setup`, `setup~2`, `setup-1`, `setup-1~2`
 * (github-slugger would give `setup`, `setup-1`, `setup-1-1`, `setup-1-2`, where the
 * second heading's anchor is the third heading's slug).
 */
export function anchorFor(slug: string, occurrence: number): string {
  return occurrence === 1 && slug !== "" ? slug : `${slug}~${occurrence}`;
}
