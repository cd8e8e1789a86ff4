/**
 * groundwire — the browser-safe package entry (also what bundlers get).
 * Top-level await: the inlined WASM core and the SHA-256 backend (hash-wasm, or
 * @noble/hashes without WebAssembly) are ready before the first call, so every exported
 * function is synchronous to use. The only module with side effects besides this one is
 * bindings/wasm (package.json "sideEffects"); the rest is dropped by a bundler when unused.
 */
import { initWasm } from "../bindings/wasm.js";
import { initSha256 } from "../bindings/sha256.js";

export * from "./api.js";

await Promise.all([initWasm(), initSha256()]);
