/**
 * groundwire — the browser-safe package entry (also what bundlers get).
 * Top-level await: the inlined WASM core and the SHA-256 backend are ready
 * before the first call, so every exported function is synchronous to use.
 */
import { initWasm } from "../bindings/wasm.js";
import { initSha256 } from "../bindings/sha256.js";

export { initWasm, setBackend, backendInfo, type Backend, type BackendRequest } from "../bindings/wasm.js";
export { initSha256, sha256Hex, sha256Backend, type Sha256Backend } from "../bindings/sha256.js";
export * from "./rdf/index.js";
export * from "./triple-index/index.js";
export * from "./kernel/index.js";
export * from "./memdsl/index.js";
export * from "./evidence/index.js";
export * from "./moot/index.js";

await Promise.all([initWasm(), initSha256()]);
