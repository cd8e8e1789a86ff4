/**
 * groundwire — the self-contained browser file (dist/browser/groundwire.js, the export
 * "groundwire/browser"): the browser-safe entry (ts/index.ts) with every dependency bundled.
 * It carries the WASM modules' bytes and bestSpan's pre-pass anyway (one file, no chunks), so it
 * gives them at import instead of behind dynamic imports (bindings/deferred.ts): a module's
 * first call compiles it at once where the runtime allows, as in Node. Nothing is compiled at
 * import (no top-level await).
 */
import { provideWasmHex } from "../bindings/wasm.js";
import { CLOSURE_WASM_HEX } from "../bindings/wasm-closure.generated.js";
import { LISTING_WASM_HEX } from "../bindings/wasm-listing.generated.js";
import { MATCH_WASM_HEX } from "../bindings/wasm-match.generated.js";
import { SUGGEST_WASM_HEX } from "../bindings/wasm-suggest.generated.js";
import { providePrePass } from "./match/index.js";

export * from "./index.js";

provideWasmHex({ closure: CLOSURE_WASM_HEX, listing: LISTING_WASM_HEX, match: MATCH_WASM_HEX, suggest: SUGGEST_WASM_HEX });
providePrePass();
