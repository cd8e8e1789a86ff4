/**
 * Every WASM module's bytes given at once, for the entries that carry them all anyway: Node's
 * start-up (bindings/init-node.ts) and the self-contained browser file (ts/browser.ts). A bundled
 * page never reaches this file: each binding imports its own module's hex at first use
 * (bindings/wasm.ts, bindings/deferred.ts).
 */
import { provideWasmHex } from "./wasm.js";
import { CLOSURE_WASM_HEX } from "./wasm-closure.generated.js";
import { LISTING_WASM_HEX } from "./wasm-listing.generated.js";
import { MATCH_WASM_HEX } from "./wasm-match.generated.js";
import { SUGGEST_WASM_HEX } from "./wasm-suggest.generated.js";

/** Give the closure, listing, match and suggest modules' hex to `provideWasmHex`. Idempotent; compiles nothing. */
export function provideAllWasmHex(): void {
  provideWasmHex({ closure: CLOSURE_WASM_HEX, listing: LISTING_WASM_HEX, match: MATCH_WASM_HEX, suggest: SUGGEST_WASM_HEX });
}
