/**
 * Node start-up, one place for the Node entry, the CLI, the test setup and the bench
 * runner: the inlined WASM core compiled (or its absence recorded, see bindings/wasm.ts)
 * and SHA-256 on node:crypto. hash-wasm is not compiled here (Node never hashes with it;
 * `initSha256()` prepares it for the bench). Idempotent: initWasm is cached.
 * Never rejects (initWasm records a load failure instead of throwing).
 */
import { initWasm } from "./wasm.js";
import { setSha256Backend } from "./sha256.js";
import { nodeCryptoBackend } from "./sha256-node.js";

/** Load the WASM core and make node:crypto the active SHA-256. */
export async function initNodeBackends(): Promise<void> {
  setSha256Backend(nodeCryptoBackend);
  const wasm = await initWasm();
  if (wasm) reserveMemory(wasm.memory, NODE_RESERVED_BYTES);
}

/**
 * WebAssembly memory reserved at start-up in Node: enough for the listing kernel on a graph
 * of about 250,000 triples (WordNet needs 62 MB). V8 counts WebAssembly memory as external
 * memory and answers a large growth with a full collection of the JS heap; growing once
 * now, while that heap is small, costs nothing, whereas growing on the first index of a
 * freshly parsed large graph cost 1.3–2 s of GC (measured on WordNet: first call 1.6–2.4 s,
 * 0.27 s with the reservation). Untouched pages are not committed by the OS.
 */
const NODE_RESERVED_BYTES = 64 << 20;

function reserveMemory(memory: WebAssembly.Memory, bytes: number): void {
  const missing = bytes - memory.buffer.byteLength;
  if (missing <= 0) return;
  try {
    memory.grow(Math.ceil(missing / 65536));
  } catch {
    // no room: the kernels grow memory as they need it
  }
}
