/**
 * Loads groundwire's WebAssembly modules, the same way in Node and in a browser. There is one
 * module per kernel family (scripts/build-wasm.mjs: match = bestSpan + the quote index,
 * closure, listing, suggest = citationStatus's LCS bound), each inlined as a hex string in its own
 * generated file and defined by its binding (bindings/match.ts, closure.ts, listing.ts, suggest.ts) with {@link wasmModule}, so a bundler
 * keeps only the modules a page calls. No fs, no fetch, no import.meta.url: bundlers need no
 * plugin (hash-wasm does the same). Nothing runs at import (no top-level await: workerd
 * refuses it): a module's first call compiles it synchronously, or, where the runtime
 * refuses that, starts its asynchronous compile and runs pure TS until it is done;
 * `initWasm()` / `ready()` compile every module of the bundle ahead of the first call.
 *
 * Backend selection is explicit and visible: `setBackend("auto"|"wasm"|"ts")`
 * and `backendInfo()`. "auto" uses WASM when it loaded and the pure-TS
 * reference otherwise, and says why in `backendInfo().reason` (and once on
 * console.warn) — it never falls back silently.
 */
import { checkArgs } from "../ts/args.js";
import { deferred, type Deferred } from "./deferred.js";

/** Which implementation a hot path runs on. */
export type Backend = "wasm" | "ts";
/** What a caller may ask for: a backend, or "auto" (WASM when available). */
export type BackendRequest = Backend | "auto";

/** Raw exports of one module. Each kernel's binding narrows this to its own functions. */
export type WasmExports = Record<string, unknown> & { memory: WebAssembly.Memory };

/** One inlined module, compiled at its first use (see the file comment). */
export interface WasmModule {
  /** The name scripts/build-wasm.mjs gave it (match, closure, listing, suggest). */
  readonly name: string;
  /**
   * The exports when the WASM backend is to be used for this call, else null (run TS).
   * `override` is a per-call request that wins over setBackend. Throws when "wasm" is
   * demanded but the module is not loaded, and a TypeError for an unknown backend name.
   */
  exportsFor(override?: BackendRequest): WasmExports | null;
}

interface ModuleState extends WasmModule {
  /** Its bytes (hex): arriving behind its dynamic import, or provided. */
  readonly bytes: Deferred<string>;
  /** Synchronous load, tried once; the exports or null. */
  loadSync(): WasmExports | null;
  /** Asynchronous load, once; never rejects. */
  loadAsync(): Promise<WasmExports | null>;
  /** Why this call is on TS (null when the module is loaded). */
  reason(): string | null;
  exports(): WasmExports | null;
}

/** The modules of this bundle: each binding that a bundle keeps defines (registers) its own. */
const modules: ModuleState[] = [];
/** Hex given by `provideWasmHex` before its binding defined the module. */
const hexEarly = new Map<string, string>();
let requested: BackendRequest = "auto";
let warned = false;
let reserveBytes = 0;

/** The bytes of a module's hex string (scripts/build-wasm.mjs says why hex). */
function decodeHex(text: string): Uint8Array<ArrayBuffer> {
  // Node: Buffer decodes natively. (A bundler does not polyfill `globalThis.Buffer`, so
  // browsers take the loop: ≈ 0.1 ms for the match module's 20 KB.)
  const NodeBuffer = (globalThis as { Buffer?: { from(text: string, encoding: "hex"): Uint8Array<ArrayBuffer> } }).Buffer;
  if (NodeBuffer) return NodeBuffer.from(text, "hex");
  const out = new Uint8Array(text.length >> 1);
  // a lower-case hex digit's value: '0'..'9' are 0x30..0x39, 'a'..'f' 0x61..0x66
  const digit = (c: number) => (c & 15) + 9 * (c >> 6);
  for (let i = 0; i < out.length; i++) out[i] = (digit(text.charCodeAt(2 * i)) << 4) | digit(text.charCodeAt(2 * i + 1));
  return out;
}

/**
 * Instantiate a compiled module (synchronous: the modules are small) and reserve memory if
 * asked. The modules import only `env.abort` (runtime "stub", no bindings) and export plain
 * functions and their memory, so no loader library is needed.
 */
function instantiate(module: WebAssembly.Module): WasmExports {
  const instance = new WebAssembly.Instance(module, {
    env: {
      abort(_message: number, _file: number, line: number, column: number) {
        throw new Error(`groundwire wasm: abort at ${line}:${column}`);
      },
    },
  });
  const exports = instance.exports as unknown as WasmExports;
  if (reserveBytes > 0) reserveMemory(exports.memory, reserveBytes);
  return exports;
}

/**
 * Define (and register) one module: `load` is the dynamic import of its generated hex constant
 * (bindings/wasm-<name>.generated.ts), so a bundler puts the bytes in a chunk of their own that a
 * page downloads at the module's first use (bindings/deferred.ts); an entry that bundles them
 * anyway gives them at once with `provideWasmHex`. Called once at the top level of its binding,
 * marked `/* @__PURE__ *\/` (its registration matters only when the binding's exports are used), so
 * the module is part of a bundle exactly when the binding is used: rollup then emits no bare
 * import of an unused binding, which esbuild's code splitting would keep in a shared chunk.
 */
export function wasmModule(name: string, load: () => Promise<string>): WasmModule {
  let exportsCache: WasmExports | null = null;
  let loading: Promise<WasmExports | null> | null = null;
  let loadError: string | null = null;
  /** The synchronous load ran (once); its error, when the runtime refused it. */
  let syncTried = false;
  let syncError: string | null = null;
  /** The background (asynchronous) compile finished, either way. */
  let settled = false;
  // not one of ready()'s generic parts: loadAsync (initWasm) imports them, only where WebAssembly exists
  const bytes = deferred(`WebAssembly module ${name}'s bytes`, load, { register: false });
  const early = hexEarly.get(name);
  if (early !== undefined) bytes.provide(early);

  /**
   * The first use once the bytes are here (until then each call starts or awaits nothing and runs
   * the pure-TS twin: `bytes.now()` starts their import): compile the module synchronously
   * (`new WebAssembly.Module`; allowed
   * in Node, Deno, Bun, workers and Chrome's main thread below its size limit). Where the
   * runtime refuses (workerd, a CSP without 'wasm-unsafe-eval', an older browser's main-thread
   * limit) the reason is kept, the asynchronous compile is started in the background, and the
   * caller runs the pure-TS twin meanwhile (identical results). Tried once; never throws.
   */
  function loadSync(): WasmExports | null {
    if (exportsCache || syncTried) return exportsCache;
    if (typeof WebAssembly === "undefined" || typeof WebAssembly.Module !== "function") {
      syncTried = true;
      loadError = "WebAssembly is not available in this runtime";
      return null;
    }
    const hex = bytes.now();
    if (hex === null) {
      if (bytes.failed()) loadError = bytes.reason();
      return null;
    }
    syncTried = true;
    // the asynchronous compile (ready()) already failed: its reason stands, the runtime refuses both
    if (settled) return exportsCache;
    try {
      exportsCache = instantiate(new WebAssembly.Module(decodeHex(hex)));
      loadError = null;
    } catch (error) {
      syncError = (error as Error).message;
      loadError = `WebAssembly module ${name} failed to compile synchronously: ${syncError}`;
      void loadAsync();
    }
    return exportsCache;
  }

  function loadAsync(): Promise<WasmExports | null> {
    if (exportsCache) return Promise.resolve(exportsCache);
    if (loading) return loading;
    loading = (async () => {
      if (typeof WebAssembly === "undefined" || typeof WebAssembly.compile !== "function") {
        loadError = "WebAssembly is not available in this runtime";
        settled = true;
        return null;
      }
      const hex = await bytes.load();
      if (hex === null) {
        loadError = bytes.reason();
        settled = true;
        return null;
      }
      try {
        // Compiled here, then instantiated from the Module (no `Response`: in Node, reading
        // that global loads undici, ≈ 80 ms of every start-up, although the source is bytes).
        const module = await WebAssembly.compile(decodeHex(hex));
        // a synchronous load may have won meanwhile: keep its instance (objects hold it)
        exportsCache ??= instantiate(module);
        loadError = null;
        return exportsCache;
      } catch (error) {
        const asyncError = (error as Error).message;
        loadError = syncError !== null && syncError !== asyncError
          ? `WebAssembly module ${name} failed to load: ${asyncError} (synchronously: ${syncError})`
          : `WebAssembly module ${name} failed to load: ${asyncError}`;
        return null;
      } finally {
        settled = true;
      }
    })();
    return loading;
  }

  /** While the bytes arrive or the background compile runs: why this call is on TS, and what to await. */
  function pendingReason(): string | null {
    if (!exportsCache && !syncTried && !bytes.failed()) return bytes.reason();
    if (!loading || settled || syncError === null) return null;
    return `WebAssembly module ${name} still compiling asynchronously (the synchronous compile was refused: ${syncError}); await ready() for the WASM backend`;
  }

  const state: ModuleState = {
    name,
    bytes,
    loadSync,
    loadAsync,
    exports: () => exportsCache,
    reason: () => (loadSync() ? null : pendingReason() ?? loadError),
    exportsFor(override) {
      const want = override === undefined ? requested : checkBackend(override);
      if (want === "ts") return null;
      if (loadSync()) return exportsCache;
      if (want === "wasm") {
        throw new Error(`the wasm backend was requested but is unavailable: ${pendingReason() ?? loadError}`);
      }
      // while the bytes arrive or the background compile runs the fallback is expected (await ready()): warn once it failed
      if (!warned && loadError && pendingReason() === null) {
        warned = true;
        console.warn(`groundwire: using the pure-TS backend (${loadError}); results are identical, only slower`);
      }
      return null;
    },
  };
  modules.push(state);
  return state;
}

/**
 * Give modules' bytes synchronously (name → its generated hex constant): for an entry that carries
 * them anyway (bindings/init-node.ts, ts/browser.ts), so their first call compiles at once with
 * nothing to import. A module defined later takes its bytes from here.
 */
export function provideWasmHex(hex: Readonly<Record<string, string>>): void {
  for (const [name, text] of Object.entries(hex)) {
    hexEarly.set(name, text);
    for (const m of modules) if (m.name === name) m.bytes.provide(text);
  }
}

/** The synchronous load of every module of the bundle, ahead of the first call (the Node entry's import). */
export function loadWasmNow(): void {
  for (const m of modules) m.loadSync();
}

/**
 * Compile and instantiate every module of the bundle asynchronously, once; later calls
 * return the same answer. Resolves to true when all loaded, false when WebAssembly is
 * unavailable or a module failed to load (the reason is kept for `backendInfo()`). Never
 * rejects. Not needed before a call (a module's first call loads it); `ready()` awaits it
 * for the pages whose runtime refuses a synchronous compile.
 */
export async function initWasm(): Promise<boolean> {
  const loaded = await Promise.all(modules.map((m) => m.loadAsync()));
  return loaded.every((x) => x !== null);
}

/**
 * Node start-up: WebAssembly memory reserved in each module as soon as it is instantiated
 * (bindings/init-node.ts says why). Synchronous; 0 reserves nothing.
 */
export function reserveWasmMemory(bytes: number): void {
  reserveBytes = bytes;
  for (const m of modules) {
    const x = m.exports();
    if (x) reserveMemory(x.memory, bytes);
  }
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

/** The 8 bytes of an empty module: whether this runtime compiles WebAssembly, for a bundle that holds no kernel. */
const EMPTY_MODULE = [0, 97, 115, 109, 1, 0, 0, 0];

/**
 * The backend the hot paths would use now, what was asked for, and why they differ (if they
 * do). "wasm" when every module of the bundle is loaded (each is compiled here, synchronously,
 * if it was not yet); otherwise "ts" with the first module's reason. A bundle that holds no
 * kernel (a page that calls none) answers whether this runtime compiles WebAssembly.
 */
export function backendInfo(): { requested: BackendRequest; active: Backend; reason: string | null } {
  if (requested === "ts") return { requested, active: "ts", reason: "forced by setBackend(\"ts\")" };
  for (const m of modules) {
    const reason = m.reason();
    if (reason !== null) return { requested, active: "ts", reason };
  }
  if (!modules.length) {
    if (typeof WebAssembly === "undefined" || typeof WebAssembly.Module !== "function") {
      return { requested, active: "ts", reason: "WebAssembly is not available in this runtime" };
    }
    try {
      new WebAssembly.Module(new Uint8Array(EMPTY_MODULE));
    } catch (error) {
      return { requested, active: "ts", reason: `WebAssembly modules cannot be compiled here: ${(error as Error).message}` };
    }
  }
  return { requested, active: "wasm", reason: null };
}
