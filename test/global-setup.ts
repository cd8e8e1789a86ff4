// Runs once before all suites: says why some suites will be skipped, since the default
// reporter shows only their count.
import { existsSync } from "node:fs";

const SHARED = new URL("../../shared/data/", import.meta.url);

export default function announceSkips(): void {
  if (!existsSync(SHARED)) {
    console.log(
      `\nnote: ${SHARED.pathname} is absent: the suites over the large real data (QALD-9, W3C SPARQL, WordNet, ` +
        "the DBpedia and schema.org ontologies, CommonMark, the markdown histories, whole books) are skipped; " +
        "everything else runs on the fixtures in test/fixtures/.\n",
    );
  }
}
