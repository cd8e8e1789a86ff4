/**
 * Loads groundwire's one WebAssembly module, the same way in Node and in a
 * browser: the bytes are inlined as base64 (bindings/wasm-bytes.generated.ts),
 * compiled once, asynchronously, and cached. No fs, no fetch, no
 * import.meta.url, so bundlers need no plugin (hash-wasm does the same).
 *
 * Backend selection is explicit and visible: `setBackend("auto"|"wasm"|"ts")`
 * and `backendInfo()`. "auto" uses WASM when it loaded and the pure-TS
 * reference otherwise, and says why in `backendInfo().reason` (and once on
 * console.warn) — it never falls back silently.
 */
import { instantiateSync } from "@assemblyscript/loader";
import { WASM_BASE64 } from "./wasm-bytes.generated.js";
import { checkArgs } from "../ts/args.js";

/** Which implementation a hot path runs on. */
export type Backend = "wasm" | "ts";
/** What a caller may ask for: a backend, or "auto" (WASM when available). */
export type BackendRequest = Backend | "auto";

/** Raw exports of assembly/index.ts. Each kernel's binding narrows this to its own functions. */
export type WasmExports = Record<string, unknown> & { memory: WebAssembly.Memory };

let exportsCache: WasmExports | null = null;
let loading: Promise<WasmExports | null> | null = null;
let loadError: string | null = null;
let requested: BackendRequest = "auto";
let warned = false;

function decodeBase64(text: string): Uint8Array<ArrayBuffer> {
  // Node: Buffer decodes natively in ≈ 0.2 ms; Node 20's atob is written in JavaScript and,
  // with the copy loop below run cold, cost ≈ 3–5 ms of every start-up. (A bundler does not
  // polyfill `globalThis.Buffer`, so browsers take the atob path.)
  const NodeBuffer = (globalThis as { Buffer?: { from(text: string, encoding: "base64"): Uint8Array<ArrayBuffer> } }).Buffer;
  if (NodeBuffer) return NodeBuffer.from(text, "base64");
  // atob exists in browsers and in Node >= 16; one pass, no per-char allocation beyond the binary string.
  const binary = atob(text);
  const out = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
  return out;
}

/**
 * Compile and instantiate the inlined module once; later calls return the cached promise.
 * Resolves to the exports, or to null when WebAssembly is unavailable or the module
 * fails to load (the reason is kept for `backendInfo()`). Never rejects.
 */
export function initWasm(): Promise<WasmExports | null> {
  if (loading) return loading;
  loading = (async () => {
    if (typeof WebAssembly === "undefined" || typeof WebAssembly.instantiate !== "function") {
      loadError = "WebAssembly is not available in this runtime";
      return null;
    }
    try {
      // Compiled here, then instantiated from the Module: the loader's async `instantiate`
      // tests `source instanceof Response`, and in Node reading the `Response` global loads
      // undici (≈ 80 ms of every start-up) although the source is plain bytes.
      const module = await WebAssembly.compile(decodeBase64(WASM_BASE64));
      const result = instantiateSync<Record<string, unknown>>(module, {
        env: {
          abort(_message: number, _file: number, line: number, column: number) {
            throw new Error(`groundwire wasm: abort at ${line}:${column}`);
          },
        },
      });
      exportsCache = result.exports as unknown as WasmExports;
      return exportsCache;
    } catch (error) {
      loadError = `WebAssembly module failed to load: ${(error as Error).message}`;
      return null;
    }
  })();
  return loading;
}

/**
 * Force or release a backend. "wasm" throws later, at the call, if the module is not
 * loaded; "ts" always runs the pure-TS reference; "auto" (default) prefers WASM.
 */
export function setBackend(backend: BackendRequest): void {
  checkArgs("setBackend", arguments, "backend:=auto/wasm/ts");
  requested = checkBackend(backend);
}

function checkBackend(backend: BackendRequest): BackendRequest {
  if (backend !== "auto" && backend !== "wasm" && backend !== "ts") {
    throw new TypeError(`unknown backend ${JSON.stringify(backend)} (expected "auto", "wasm" or "ts")`);
  }
  return backend;
}

/** The backend a hot path would use now, what was asked for, and why they differ (if they do). */
export function backendInfo(): { requested: BackendRequest; active: Backend; reason: string | null } {
  if (requested === "ts") return { requested, active: "ts", reason: "forced by setBackend(\"ts\")" };
  if (exportsCache) return { requested, active: "wasm", reason: null };
  const reason = loadError ?? "WebAssembly module not loaded yet (await initWasm())";
  return { requested, active: "ts", reason };
}

/**
 * The exports when the WASM backend is to be used for this call, else null (run TS).
 * `override` is a per-call request that wins over setBackend. Throws when "wasm" is
 * demanded but the module is not loaded, and a TypeError for an unknown backend name.
 */
export function wasmFor(override?: BackendRequest): WasmExports | null {
  const want = override === undefined ? requested : checkBackend(override);
  if (want === "ts") return null;
  if (exportsCache) return exportsCache;
  if (want === "wasm") {
    throw new Error(`the wasm backend was requested but is unavailable: ${loadError ?? "not loaded yet (await initWasm())"}`);
  }
  if (!warned && loadError) {
    warned = true;
    console.warn(`groundwire: using the pure-TS backend (${loadError}); results are identical, only slower`);
  }
  return null;
}
