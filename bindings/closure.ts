/**
 * Binding of assembly/closure.ts: copies the edge list into WASM memory in one
 * batch (one set() for child+parent), calls closureRun once, copies the CSR out.
 */
import type { WasmExports } from "./wasm.js";

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
 * Run the WASM closure. Returns copies of sccOf, offsets and ancestors (see
 * ts/kernel/closure.ts `Closure`), or null when an edge names a node ≥ n.
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
  const buffer = x.memory.buffer; // re-read: the run may have grown memory
  const sccOf = new Uint32Array(buffer, x.closureSccOfPtr() >>> 0, n).slice();
  const offsets = new Uint32Array(buffer, x.closureOffsetsPtr() >>> 0, components + 1).slice();
  const ancestors = new Uint32Array(buffer, x.closureAncestorsPtr() >>> 0, x.closureAncestorCount() >>> 0).slice();
  return { sccOf, offsets, ancestors };
}
