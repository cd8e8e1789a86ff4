/**
 * `ready()`: what a page awaits for the fast path. Nothing is compiled at import (no
 * top-level await); without `ready()` a kernel's first call compiles its WASM module synchronously
 * where its bytes are here (Node, the self-contained browser file) and the runtime allows it,
 * and runs the pure-TS twin (identical results) where it does not: while a bundled page's
 * chunk of the bytes arrives, or while the asynchronous compile runs in the background.
 */
import { initWasm } from "./wasm.js";
import { loadDeferred } from "./deferred.js";
import { initSha256, sha256Backend } from "./sha256.js";

/**
 * Compile every WASM module of the bundle (those of the kernels the page imports; their bytes
 * and bestSpan's pre-pass arrive behind dynamic imports in a bundled page: bindings/deferred.ts)
 * and, unless node:crypto is the SHA-256 (the Node entry), hash-wasm.
 * Resolves when both are loaded or known unavailable (`backendInfo()` and `sha256Backend()`
 * say which backend runs and why). Idempotent; never rejects. It covers the kernels of the code
 * loaded when it is called: a chunk of the app imported later that calls a kernel (a lazily
 * loaded route) brings that kernel's module then, so await `ready()` again after importing it.
 */
export async function ready(): Promise<void> {
  await Promise.all([initWasm(), loadDeferred(), sha256Backend() === "node:crypto" ? undefined : initSha256()]);
}
