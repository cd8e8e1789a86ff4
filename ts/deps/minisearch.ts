/** MiniSearch, the BM25+ full-text index (static import; see ts/deps/README.md for the Node variant). */
import MiniSearch from "minisearch";

/** MiniSearch's index class. Never throws. */
export function miniSearch(): typeof MiniSearch {
  return MiniSearch;
}
