/**
 * The match module (assembly/match.ts: the sequence-match kernel of bestSpan and the quote
 * index's scans), inlined (hex) and compiled at its first use (bindings/wasm.ts).
 * bindings/sequence-match.ts and bindings/quote-index.ts bind its exports; ts/match asks
 * here which backend a call runs on.
 */
import { MATCH_WASM_HEX } from "./wasm-match.generated.js";
import { wasmModule, type BackendRequest, type WasmExports } from "./wasm.js";

const match = wasmModule("match", MATCH_WASM_HEX);

/** The match module's exports when this call runs on WASM, else null (see `WasmModule.exportsFor`). */
export function matchWasmFor(override?: BackendRequest): WasmExports | null {
  return match.exportsFor(override);
}
