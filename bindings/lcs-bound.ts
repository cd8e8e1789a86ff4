/**
 * Binding of the WASM LCS bound (assembly/lcs-bound.ts), for citationStatus's suggestions.
 *
 * `prepare(b, alphabetSize)` copies the cited text's ids in and builds its position masks once;
 * each `atLeast(a, need)` copies one candidate's ids in and runs one `lcsBounded` call.
 */
import type { WasmExports } from "./wasm.js";

/** The raw exports of assembly/lcs-bound.ts. */
export interface LcsBoundExports {
  memory: WebAssembly.Memory;
  lcsReserve(lb: number, la: number, alphabet: number): number;
  lcsPrepare(lb: number, alphabet: number): void;
  lcsBounded(la: number, need: number): number;
}

/** The names every groundwire .wasm must export for this kernel. */
export const LCS_BOUND_EXPORTS = ["lcsReserve", "lcsPrepare", "lcsBounded"] as const;

/** The LCS of candidates against a b, prepared once and kept while the same b is asked for. */
export interface LcsBoundBinding {
  /**
   * LCS(a, b) (ids; outside [0, alphabetSize) they match nothing) when it is ≥ `need`, else a
   * number below `need` (ts/match/sequence-match.ts `lcsAtLeast`, the twin). b's masks are built when `b` (by identity) or `alphabetSize` differs from the last call's.
   */
  atLeast(b: Int32Array, alphabetSize: number, a: Int32Array, need: number): number;
}

const bindings = new WeakMap<object, LcsBoundBinding>();

/** The binding for `exports` (one per instance). Throws when the kernel's exports are missing. */
export function lcsBoundBindingFor(exports: WasmExports): LcsBoundBinding {
  let b = bindings.get(exports);
  if (!b) {
    for (const name of LCS_BOUND_EXPORTS) {
      if (typeof exports[name] !== "function") throw new Error(`groundwire wasm: export ${name} is missing (rebuild with npm run build:wasm)`);
    }
    b = createBinding(exports as unknown as LcsBoundExports);
    bindings.set(exports, b);
  }
  return b;
}

function createBinding(x: LcsBoundExports): LcsBoundBinding {
  let preparedB: Int32Array | null = null;
  let preparedAlphabet = -1;
  let preparedGeneration = -1;
  let buffer: ArrayBuffer | null = null;
  let view = new Int32Array(0);
  // a view of the whole memory, made again only when memory grew (the old buffer is then detached)
  const i32Of = (): Int32Array => {
    if (x.memory.buffer !== buffer) {
      buffer = x.memory.buffer;
      view = new Int32Array(buffer);
    }
    return view;
  };
  return {
    atLeast(b, alphabetSize, a, need) {
      const t = x.lcsReserve(Math.max(1, b.length), Math.max(1, a.length), Math.max(1, alphabetSize)) >> 2;
      let i32 = i32Of();
      // b's copy and masks are rebuilt for another b, or when a buffer moved (the generation)
      if (b !== preparedB || alphabetSize !== preparedAlphabet || i32[t] !== preparedGeneration) {
        i32.set(b, i32[t + 1] >> 2);
        x.lcsPrepare(b.length, alphabetSize);
        i32 = i32Of();
        preparedB = b;
        preparedAlphabet = alphabetSize;
        preparedGeneration = i32[t];
      }
      i32.set(a, i32[t + 2] >> 2);
      return x.lcsBounded(a.length, need);
    },
  };
}
