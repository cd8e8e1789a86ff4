/**
 * groundwire — the browser-safe package entry (also what bundlers get, and what workerd,
 * Deno and browsers load). No top-level await and no work at import: each inlined WASM
 * module (one per kernel family) is compiled at the first call of its kernel (synchronously
 * where the runtime allows, else pure TS while it compiles in the background), and SHA-256
 * runs on @noble/hashes until hash-wasm is compiled. `await ready()` compiles them ahead of
 * the first call. A kernel's binding (bindings/match.ts, closure.ts, listing.ts) registers
 * its module with bindings/wasm.ts when it is evaluated, so a bundle that drops an unused
 * binding (package.json "sideEffects" names the entries only) drops its module too.
 */
export * from "./api.js";
