/**
 * Loads groundwire's one WebAssembly module, the same way in Node and in a
 * browser: the bytes are inlined as base64 (bindings/wasm-bytes.generated.ts),
 * compiled once and cached. No fs, no fetch, no import.meta.url, so bundlers need
 * no plugin (hash-wasm does the same). Nothing runs at import (no top-level await:
 * workerd refuses it): the first call compiles synchronously, or, where the runtime
 * refuses that, starts the asynchronous compile and runs pure TS until it is done;
 * `initWasm()` / `ready()` compile ahead of the first call.
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
/** The synchronous load ran (once); its error, when the runtime refused it. */
let syncTried = false;
let syncError: string | null = null;
/** The background (asynchronous) compile finished, either way. */
let settled = false;
let reserveBytes = 0;

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

/** Instantiate the compiled module (synchronous: the module is small) and reserve memory if asked. */
function instantiate(module: WebAssembly.Module): WasmExports {
  const result = instantiateSync<Record<string, unknown>>(module, {
    env: {
      abort(_message: number, _file: number, line: number, column: number) {
        throw new Error(`groundwire wasm: abort at ${line}:${column}`);
      },
    },
  });
  const exports = result.exports as unknown as WasmExports;
  if (reserveBytes > 0) reserveMemory(exports.memory, reserveBytes);
  return exports;
}

/**
 * The first use: compile the inlined module synchronously (`new WebAssembly.Module`; allowed
 * in Node, Deno, Bun, workers and Chrome's main thread below its size limit). Where the
 * runtime refuses (workerd, a CSP without 'wasm-unsafe-eval', an older browser's main-thread
 * limit) the reason is kept, the asynchronous compile is started in the background, and the
 * caller runs the pure-TS twin meanwhile (identical results). Tried once; never throws.
 */
/** The synchronous load below, ahead of the first call (the Node entry's import). */
export function loadWasmNow(): WasmExports | null {
  return loadSync();
}

function loadSync(): WasmExports | null {
  if (exportsCache || syncTried) return exportsCache;
  syncTried = true;
  if (typeof WebAssembly === "undefined" || typeof WebAssembly.Module !== "function") {
    loadError = "WebAssembly is not available in this runtime";
    return null;
  }
  try {
    exportsCache = instantiate(new WebAssembly.Module(decodeBase64(WASM_BASE64)));
    loadError = null;
  } catch (error) {
    syncError = (error as Error).message;
    loadError = `WebAssembly module failed to compile synchronously: ${syncError}`;
    void initWasm();
  }
  return exportsCache;
}

/**
 * Compile and instantiate the inlined module asynchronously, once; later calls return the
 * cached promise. Resolves to the exports, or to null when WebAssembly is unavailable or the
 * module fails to load (the reason is kept for `backendInfo()`). Never rejects. Not needed
 * before a call (the first call loads the module itself); `ready()` awaits it for the pages
 * whose runtime refuses a synchronous compile.
 */
export function initWasm(): Promise<WasmExports | null> {
  if (exportsCache) return Promise.resolve(exportsCache);
  if (loading) return loading;
  loading = (async () => {
    if (typeof WebAssembly === "undefined" || typeof WebAssembly.compile !== "function") {
      loadError = "WebAssembly is not available in this runtime";
      return null;
    }
    try {
      // Compiled here, then instantiated from the Module: the loader's async `instantiate`
      // tests `source instanceof Response`, and in Node reading the `Response` global loads
      // undici (≈ 80 ms of every start-up) although the source is plain bytes.
      const module = await WebAssembly.compile(decodeBase64(WASM_BASE64));
      // a synchronous load may have won meanwhile: keep its instance (objects hold it)
      exportsCache ??= instantiate(module);
      loadError = null;
      return exportsCache;
    } catch (error) {
      const asyncError = (error as Error).message;
      loadError = syncError !== null && syncError !== asyncError
        ? `WebAssembly module failed to load: ${asyncError} (synchronously: ${syncError})`
        : `WebAssembly module failed to load: ${asyncError}`;
      return null;
    } finally {
      settled = true;
    }
  })();
  return loading;
}

/**
 * Node start-up: WebAssembly memory reserved as soon as the module is instantiated
 * (bindings/init-node.ts says why). Synchronous; 0 reserves nothing.
 */
export function reserveWasmMemory(bytes: number): void {
  reserveBytes = bytes;
  if (exportsCache) reserveMemory(exportsCache.memory, bytes);
}

function reserveMemory(memory: WebAssembly.Memory, bytes: number): void {
  const missing = bytes - memory.buffer.byteLength;
  if (missing <= 0) return;
  try {
    memory.grow(Math.ceil(missing / 65536));
  } catch {
    // no room: the kernels grow memory as they need it
  }
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

/** While the background compile runs: why this call is on TS, and what to await. */
function pendingReason(): string | null {
  if (!loading || settled || syncError === null) return null;
  return `WebAssembly module still compiling asynchronously (the synchronous compile was refused: ${syncError}); await ready() for the WASM backend`;
}

/** The backend a hot path would use now, what was asked for, and why they differ (if they do). */
export function backendInfo(): { requested: BackendRequest; active: Backend; reason: string | null } {
  if (requested === "ts") return { requested, active: "ts", reason: "forced by setBackend(\"ts\")" };
  if (loadSync()) return { requested, active: "wasm", reason: null };
  return { requested, active: "ts", reason: pendingReason() ?? loadError };
}

/**
 * The exports when the WASM backend is to be used for this call, else null (run TS).
 * `override` is a per-call request that wins over setBackend. Throws when "wasm" is
 * demanded but the module is not loaded, and a TypeError for an unknown backend name.
 */
export function wasmFor(override?: BackendRequest): WasmExports | null {
  const want = override === undefined ? requested : checkBackend(override);
  if (want === "ts") return null;
  if (loadSync()) return exportsCache;
  if (want === "wasm") {
    throw new Error(`the wasm backend was requested but is unavailable: ${pendingReason() ?? loadError}`);
  }
  // while the background compile runs the fallback is expected (await ready()): warn once it failed
  if (!warned && loadError && pendingReason() === null) {
    warned = true;
    console.warn(`groundwire: using the pure-TS backend (${loadError}); results are identical, only slower`);
  }
  return null;
}
