/** hash-wasm for the Node build: `require`d on first use — Node hashes with node:crypto, so mostly never. */
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);

/** hash-wasm's `createSHA256`, loaded at the first call. Throws when hash-wasm is not installed. */
export function hashWasm(): { createSHA256: typeof import("hash-wasm").createSHA256 } {
  return { createSHA256: (require("hash-wasm") as typeof import("hash-wasm")).createSHA256 };
}
