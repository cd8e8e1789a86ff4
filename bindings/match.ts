/**
 * The match module (assembly/match.ts: the sequence-match kernel of bestSpan and the quote
 * index's scans), inlined (hex) in a chunk of its own and compiled at its first use (bindings/wasm.ts).
 * bindings/sequence-match.ts and bindings/quote-index.ts bind its exports; ts/match asks
 * here which backend a call runs on.
 */
import { wasmModule, type BackendRequest, type WasmExports } from "./wasm.js";

const match = /* @__PURE__ */ wasmModule("match", () => import("./wasm-match.generated.js").then((m) => m.MATCH_WASM_HEX));

/** The match module's exports when this call runs on WASM, else null (see `WasmModule.exportsFor`). */
export function matchWasmFor(override?: BackendRequest): WasmExports | null {
  return match.exportsFor(override);
}
