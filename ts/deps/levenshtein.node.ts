/** fastest-levenshtein for the Node build: `require`d on first use (see ts/deps/README.md). */
import { createRequire } from "node:module";
import type { distance } from "fastest-levenshtein";

const require = createRequire(import.meta.url);
let loaded: typeof distance | null = null;

/** fastest-levenshtein's `distance`, loaded at the first call. Throws when fastest-levenshtein is not installed. */
export function levenshtein(): typeof distance {
  return (loaded ??= (require("fastest-levenshtein") as typeof import("fastest-levenshtein")).distance);
}
