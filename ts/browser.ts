/**
 * groundwire — the self-contained browser file (dist/browser/groundwire.js, the export
 * "groundwire/browser"): the browser-safe entry (ts/index.ts) with every dependency bundled.
 * It carries the WASM modules' bytes and bestSpan's pre-pass anyway (one file, no chunks), so it
 * gives them at import instead of behind dynamic imports (bindings/deferred.ts): a module's
 * first call compiles it at once where the runtime allows, as in Node. Nothing is compiled at
 * import (no top-level await).
 */
import { provideAllWasmHex } from "../bindings/wasm-all.js";
import { providePrePass } from "./match/index.js";

export * from "./index.js";

provideAllWasmHex();
providePrePass();
