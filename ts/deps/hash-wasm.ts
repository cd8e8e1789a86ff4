/** hash-wasm's SHA-256 (static import; see ts/deps/README.md). Node uses node:crypto instead. */
import { createSHA256 } from "hash-wasm";

/** hash-wasm's `createSHA256` (async: compiles its WebAssembly). Never throws itself. */
export function hashWasm(): { createSHA256: typeof createSHA256 } {
  return { createSHA256 };
}
