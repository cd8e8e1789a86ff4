/**
 * Binding of assembly/closure.ts: copies the edge list into WASM memory in one
 * batch (one set() for child+parent), calls closureRun once, copies the CSR out
 * in one slice. The module (assembly/closure.ts alone) is inlined (hex) in a chunk of its own and compiled at its
 * first use (bindings/wasm.ts).
 */
import { wasmModule, type BackendRequest, type WasmExports } from "./wasm.js";

const closure = /* @__PURE__ */ wasmModule("closure", () => import("./wasm-closure.generated.js").then((m) => m.CLOSURE_WASM_HEX));

/** The closure module's exports when this call runs on WASM, else null (see `WasmModule.exportsFor`). */
export function closureWasmFor(override?: BackendRequest): WasmExports | null {
  return closure.exportsFor(override);
}

/** The raw closure exports of the module (addresses are byte offsets into memory). */
export interface ClosureExports {
  memory: WebAssembly.Memory;
  closureInputPtr(n: number, m: number): number;
  closureRun(n: number, m: number): number;
  closureSccOfPtr(): number;
  closureOffsetsPtr(): number;
  closureAncestorsPtr(): number;
  closureAncestorCount(): number;
  closureComponentCount(): number;
}

/**
 * Run the WASM closure. Returns sccOf, offsets and ancestors (see
 * ts/kernel/closure.ts `Closure`), or null when an edge names a node ≥ n.
 *
 * The three arrays are copies, safe to keep across later calls, made with one
 * copy: the module keeps sccOf[n], offsets[n + 1] and the ancestor lists adjacent,
 * so one `slice` takes all three and the results are views into that one new
 * ArrayBuffer (byteOffset 0, 4n and 4(2n + 1)), not three buffers.
 */
export function closureWasm(
  exports: WasmExports,
  n: number,
  child: Uint32Array,
  parent: Uint32Array,
): { sccOf: Uint32Array; offsets: Uint32Array; ancestors: Uint32Array } | null {
  const x = exports as unknown as ClosureExports;
  const m = child.length;
  const input = x.closureInputPtr(n, m) >>> 0;
  // the view is made after the call: closureInputPtr may have grown memory
  const words = new Uint32Array(x.memory.buffer, input, 2 * m);
  words.set(child, 0);
  words.set(parent, m);
  const components = x.closureRun(n, m);
  if (components < 0) return null;
  const start = x.closureSccOfPtr() >>> 0;
  const offsetsAt = (x.closureOffsetsPtr() >>> 0) - start;
  const ancestorsAt = (x.closureAncestorsPtr() >>> 0) - start;
  const count = x.closureAncestorCount() >>> 0;
  // re-read the buffer: the run may have grown memory
  const copy = new Uint32Array(x.memory.buffer, start, (ancestorsAt >>> 2) + count).slice().buffer;
  return {
    sccOf: new Uint32Array(copy, 0, n),
    offsets: new Uint32Array(copy, offsetsAt, components + 1),
    ancestors: new Uint32Array(copy, ancestorsAt, count),
  };
}
