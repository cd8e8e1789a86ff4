/**
 * Node start-up, one place for the Node entry, the CLI, the test setup and the bench
 * runner: SHA-256 on node:crypto and the WASM modules of the bundle compiled
 * synchronously (≈ 3 ms for the three, median of fresh processes; Node allows it) with their memory reserved, at import,
 * without a top-level await (a module whose binding is imported later compiles at its first
 * use, its memory reserved then). Where the compile fails the reason is kept (bindings/wasm.ts). hash-wasm is
 * not compiled here (Node never hashes with it; `initSha256()` prepares it for the bench).
 */
import { initWasm, loadWasmNow, reserveWasmMemory } from "./wasm.js";
import { provideAllWasmHex } from "./wasm-all.js";
import { loadDeferred } from "./deferred.js";
import { setSha256Backend } from "./sha256.js";
import { nodeCryptoBackend } from "./sha256-node.js";

/**
 * Synchronous, for the Node entry's import: node:crypto becomes the active SHA-256, every WASM
 * module's bytes are given at once (no dynamic import: Node loads them from disk with the rest),
 * and each module of the bundle is compiled and gets its memory reservation. Idempotent; never throws.
 */
export function useNodeBackends(): void {
  setSha256Backend(nodeCryptoBackend);
  provideAllWasmHex();
  reserveWasmMemory(NODE_RESERVED_BYTES);
  loadWasmNow();
}

/**
 * `useNodeBackends()`, then the background compile awaited where the synchronous one was refused,
 * and every other deferred part of the bundle (bestSpan's pre-pass) imported. Never rejects.
 */
export async function initNodeBackends(): Promise<void> {
  useNodeBackends();
  await Promise.all([initWasm(), loadDeferred()]);
}

/**
 * WebAssembly memory reserved in Node, in each module: enough for the listing kernel on a graph of about
 * 250,000 triples (WordNet needs 62 MB). V8 counts WebAssembly memory as external memory and
 * answers a large growth with a full collection of the JS heap; growing once at
 * import, while that heap is small, costs nothing, whereas growing on the first index
 * of a freshly parsed large graph cost 1.3–2 s of GC (measured on WordNet: first call
 * 1.6–2.4 s, 0.27 s with the reservation). Untouched pages are not committed by the OS.
 */
const NODE_RESERVED_BYTES = 64 << 20;
