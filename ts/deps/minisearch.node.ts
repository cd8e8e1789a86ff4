/** MiniSearch for the Node build: `require`d on first use (see ts/deps/README.md). */
import { createRequire } from "node:module";
import type MiniSearch from "minisearch";

const require = createRequire(import.meta.url);
let loaded: typeof MiniSearch | null = null;

/** MiniSearch's index class, loaded at the first call (its CommonJS build). Throws when minisearch is not installed. */
export function miniSearch(): typeof MiniSearch {
  // the CommonJS build exports the class itself (module.exports = MiniSearch)
  return (loaded ??= require("minisearch") as typeof MiniSearch);
}
