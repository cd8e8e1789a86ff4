/**
 * groundwire — the browser-safe package entry (also what bundlers get, and what workerd,
 * Deno and browsers load). No top-level await and no side effect at import: the inlined
 * WASM core is compiled at the first call that needs it (synchronously where the runtime
 * allows, else pure TS while it compiles in the background), and SHA-256 runs on
 * @noble/hashes until hash-wasm is compiled. `await ready()` compiles both ahead of the
 * first call. The only module with side effects is bindings/wasm's cache (package.json
 * "sideEffects"); the rest is dropped by a bundler when unused.
 */
export * from "./api.js";
