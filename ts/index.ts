/**
 * groundwire — the browser-safe package entry (also what bundlers get, and what workerd,
 * Deno and browsers load). No top-level await and no work at import. Each WASM module (one per
 * kernel family) is inlined as hex in a module of its own that its binding imports dynamically,
 * and bestSpan's pre-pass likewise (bindings/deferred.ts), so a bundled page downloads them
 * at the first call that wants them: until they arrive a call runs the pure-TS twin (identical
 * results); once here a module is compiled at the next call (synchronously where the runtime
 * allows, else pure TS while it compiles in the background). SHA-256 runs on @noble/hashes
 * until hash-wasm is compiled. `await ready()` loads and compiles all of them ahead of the
 * first call. A kernel's binding (bindings/match.ts, closure.ts, listing.ts, suggest.ts)
 * registers its module with bindings/wasm.ts when it is evaluated, so a bundle that drops an
 * unused binding (package.json "sideEffects" names the entries only) drops its module too.
 * The self-contained file dist/browser/groundwire.js is built from ts/browser.ts, which gives
 * every deferred part at import (it carries them anyway).
 */
export * from "./api.js";
