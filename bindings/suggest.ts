/**
 * The suggest module (assembly/suggest.ts: the LCS bound and difflib's ratio of citationStatus's
 * suggestions), inlined (hex) in a chunk of its own and compiled at its first use (bindings/wasm.ts).
 * bindings/lcs-bound.ts and bindings/sequence-match.ts bind its exports; ts/match/lcs-bound.ts
 * asks here which backend a call runs on.
 */
import { wasmModule, type BackendRequest, type WasmExports } from "./wasm.js";

const suggest = /* @__PURE__ */ wasmModule("suggest", () => import("./wasm-suggest.generated.js").then((m) => m.SUGGEST_WASM_HEX));

/** The suggest module's exports when this call runs on WASM, else null (see `WasmModule.exportsFor`). */
export function suggestWasmFor(override?: BackendRequest): WasmExports | null {
  return suggest.exportsFor(override);
}
