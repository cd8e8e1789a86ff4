// The committed dialect fixture (test/fixtures/kernel/virtuoso-dialect.json), shared by the
// dialect suites: queries the virtuoso dialect accepts (with the standard form and the answer on
// the olympics graph) and queries it refuses.
import { readFileSync } from "node:fs";

export interface AcceptedCase {
  name: string;
  query: string;
  /** The standard SPARQL 1.1 form of each extension, in order (each warning's fix is `write` + this). */
  standard: string[];
  /** The first value of the first row, on Virtuoso as written and on any store as the standard form. */
  answer: string;
}
export interface RefusedCase {
  name: string;
  query: string;
  /** Part of the syntax error's detail (the same under both dialects). */
  detail: string;
}

export const DIALECT_FIXTURE = JSON.parse(readFileSync(new URL("../fixtures/kernel/virtuoso-dialect.json", import.meta.url), "utf8")) as { accepted: AcceptedCase[]; refused: RefusedCase[] };
