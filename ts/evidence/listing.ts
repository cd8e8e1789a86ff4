/**
 * The human-readable listing of a fragment tree (what `groundwire fragments` prints
 * and what the golden fixtures pin): one line per fragment, in document order.
 *
 *   <versionId>  L<line>  <two spaces per depth><kind>:<anchor>  <first words>
 *
 * The address is the chain of `<kind>:<anchor>` segments from the top-level line
 * down to this one (the full path is `fragment.path`, also in `--json`).
 */
import type { Artifact } from "./artifact.js";
import type { Fragment } from "./fragment/index.js";
import { normalizeWhitespace } from "./text.js";
import { checkArgs } from "../arg-kinds.js";
import { cutText } from "../errors.js";

/** The first words of a text: whitespace normalized, cut at a word boundary to at most `max` UTF-16 units, `…` when cut. */
export function firstWords(text: string, max = 60): string {
  checkArgs("firstWords", arguments, "text:string max?:int");
  const flat = normalizeWhitespace(text);
  if (flat.length <= max) return flat;
  const cut = cutText(flat, max);
  const space = cut.lastIndexOf(" ");
  return `${space > max / 2 ? cut.slice(0, space) : cut}…`;
}

/**
 * `text` as a JSON string on one line for every common reader: JSON.stringify escapes C0
 * (so LF, CR, VT, FF and U+001C–U+001E, which Python's `str.splitlines` also splits on), and
 * U+0085, U+2028 and U+2029, which it leaves raw, become `\u0085`, `\u2028`, `\u2029`
 * (the same JSON value).
 */
function quoteOneLine(text: string): string {
  return JSON.stringify(text).replace(/[\u0085\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/**
 * Render the listing. The first line describes the artifact when one is given:
 * `<artifactId>  <mediaType>  <byteLength> bytes  <contentHash>  <n> fragments`.
 * Ends with a newline; deterministic (no clock, no locale).
 * (Line by line, for output written as it is made: {@link listingLines}.)
 */
export function formatFragmentListing(fragments: readonly Fragment[], artifact?: Artifact): string {
  checkArgs("formatFragmentListing", arguments, "fragments:array artifact?:artifact");
  return `${Array.from(listingLines(fragments, artifact)).join("\n")}\n`;
}

/** The lines of {@link formatFragmentListing}, without their line ends, one at a time. */
export function listingLines(fragments: readonly Fragment[], artifact?: Artifact): Generator<string> {
  checkArgs("listingLines", arguments, "fragments:array artifact?:artifact");
  return lines(fragments, artifact);
}

function* lines(fragments: readonly Fragment[], artifact?: Artifact): Generator<string> {
  if (artifact) {
    yield `${artifact.artifactId}  ${artifact.mediaType}  ${artifact.byteLength} bytes  ${artifact.contentHash}  ${fragments.length} fragments`;
  }
  const lineWidth = String(fragments.reduce((m, f) => Math.max(m, f.line), 0)).length;
  for (const f of fragments) {
    yield `${f.versionId}  L${String(f.line).padEnd(lineWidth)}  ${"  ".repeat(f.depth)}${f.kind}:${f.anchor}  ${quoteOneLine(firstWords(f.text))}`;
  }
}
