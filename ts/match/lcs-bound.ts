/**
 * The LCS bound of one text b against many candidates a, on the backend of the call: WASM
 * (assembly/lcs-bound.ts in the suggest module, 64 positions of b a word) or the TS reference (`lcsAtLeast` over
 * `createLcsRun`, 30 a word). Both return LCS(a, b) when it is ≥ `need`, else the same number below
 * `need` (test/match/lcs-bound.test.ts runs both on the same inputs).
 */
import { lcsBoundBindingFor } from "../../bindings/lcs-bound.js";
import { suggestWasmFor } from "../../bindings/suggest.js";
import type { BackendRequest } from "../../bindings/wasm.js";
import { seqBindingFor } from "../../bindings/sequence-match.js";
import { matchingCharactersLong } from "./long-ratio.js";
import { createLcsRun, lcsAtLeast } from "./sequence-match.js";

/**
 * Pairs with |a|·|b| ≤ this times |a| + |b| go to the WASM kernel's difflib (its dense DP, the one
 * `matchingCharactersLong` runs on such pairs in TS: long-ratio.ts DP_FACTOR).
 */
const WASM_DP_FACTOR = 128;

export interface LcsBound {
  /** Which implementation runs it. */
  readonly backend: "wasm" | "ts";
  /** LCS(a, b) when it is ≥ `need`, else a number below `need` (`lcsAtLeast`). */
  atLeast(a: Int32Array, need: number): number;
  /**
   * difflib's M of b (seq1) and `a` (seq2), `matchingCharactersLong(b, a, need)`'s contract: M, or a
   * number below `need` once M cannot reach it. On WASM a small pair (|a|·|b| ≤ 128·(|a| + |b|)) is
   * counted by the kernel's difflib (assembly/difflib.ts `matchingCharacters`, the same M in full).
   */
  matching(a: Int32Array, need: number): number;
}

/**
 * `b`'s LCS bound (ids < `alphabetSize`; others, in a or b, match nothing). On WASM the kernel
 * holds one b's masks at a time, rebuilt when a call brings another b.
 */
export function createLcsBound(b: Int32Array, alphabetSize: number, backend?: BackendRequest): LcsBound {
  const exports = suggestWasmFor(backend);
  if (exports) {
    const binding = lcsBoundBindingFor(exports);
    const seq = seqBindingFor(exports);
    return {
      backend: "wasm",
      atLeast: (a, need) => binding.atLeast(b, alphabetSize, a, need),
      matching(a, need) {
        const total = b.length + a.length;
        if (total === 0 || b.length * a.length > WASM_DP_FACTOR * total) return matchingCharactersLong(b, a, need);
        // the kernel gives the ratio 2·M/total as a double: M is the integer nearest total·ratio/2
        return Math.round((seq.ratio(b, a) * total) / 2);
      },
    };
  }
  let run: ReturnType<typeof createLcsRun> | null = null;
  return {
    backend: "ts",
    atLeast(a, need) {
      run ??= createLcsRun(b, alphabetSize);
      return lcsAtLeast(run, a, need);
    },
    matching: (a, need) => matchingCharactersLong(b, a, need),
  };
}
