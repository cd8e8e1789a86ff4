/**
 * The chapter text a critic reads: one triple a line, in listing order, each numbered with
 * the id the critic cites, read-only lines visibly marked and unnumbered.
 */
import type { TripleIndex } from "./triple-index.js";
import { checkArgs } from "../arg-kinds.js";

/** The marker that replaces the id on a read-only (out-of-scope) line. */
export const READ_ONLY_MARKER = "[read-only]";

/**
 * Render the listing of `index`.
 *
 * Line format: `[<id>] <s> <p> <o>` for a triple with an id, `[read-only] <s> <p> <o>` for
 * one outside the scope; terms as formatTerm renders them (one line each, never a raw tab
 * or newline), separated by one space. Exactly one line per triple, each ending in "\n";
 * the empty index renders as "".
 *
 * @param index a TripleIndex from buildTripleIndex
 * @returns the listing text
 */
export function renderListing(index: TripleIndex): string {
  checkArgs("renderListing", arguments, "index:tripleIndex");
  const out: string[] = [];
  for (const block of index.order) {
    for (const entry of block.triples) {
      const label = entry.tripleId === null ? READ_ONLY_MARKER : `[${entry.tripleId}]`;
      out.push(`${label} ${entry.line.replaceAll("\t", " ")}\n`);
    }
  }
  return out.join("");
}
