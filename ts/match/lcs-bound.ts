/**
 * The LCS bound of one text b against many candidates a, on the backend of the call: WASM
 * (assembly/lcs-bound.ts, 64 positions of b a word) or the TS reference (`lcsAtLeast` over
 * `createLcsRun`, 30 a word). Both return LCS(a, b) when it is ≥ `need`, else the same number below
 * `need` (test/match/lcs-bound.test.ts runs both on the same inputs).
 */
import { lcsBoundBindingFor } from "../../bindings/lcs-bound.js";
import { matchWasmFor } from "../../bindings/match.js";
import type { BackendRequest } from "../../bindings/wasm.js";
import { createLcsRun, lcsAtLeast } from "./sequence-match.js";

export interface LcsBound {
  /** Which implementation runs it. */
  readonly backend: "wasm" | "ts";
  /** LCS(a, b) when it is ≥ `need`, else a number below `need` (`lcsAtLeast`). */
  atLeast(a: Int32Array, need: number): number;
}

/**
 * `b`'s LCS bound (ids < `alphabetSize`; others, in a or b, match nothing). On WASM the kernel
 * holds one b's masks at a time, rebuilt when a call brings another b.
 */
export function createLcsBound(b: Int32Array, alphabetSize: number, backend?: BackendRequest): LcsBound {
  const exports = matchWasmFor(backend);
  if (exports) {
    const binding = lcsBoundBindingFor(exports);
    return { backend: "wasm", atLeast: (a, need) => binding.atLeast(b, alphabetSize, a, need) };
  }
  let run: ReturnType<typeof createLcsRun> | null = null;
  return {
    backend: "ts",
    atLeast(a, need) {
      run ??= createLcsRun(b, alphabetSize);
      return lcsAtLeast(run, a, need);
    },
  };
}
