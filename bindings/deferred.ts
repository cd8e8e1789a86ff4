/**
 * Parts of a bundle that arrive behind a dynamic `import()`: the WASM modules' bytes
 * (bindings/wasm.ts) and bestSpan's pre-pass (ts/match/pre-pass.ts). A bundler splits each into
 * a chunk of its own, so a page downloads it only once something asks for it, and the page's
 * first load stays small (docs/package.md, "Page sizes"). What waits for a part has a
 * synchronous twin that gives the same results (the pure-TS backend, the full scan), so a call
 * never waits: it asks `now()`, which starts the import, and runs the twin until the part has
 * arrived. `ready()` awaits every part of the bundle.
 *
 * The entries that carry a part anyway provide it synchronously (`provide`): the Node entry, its
 * start-up (bindings/init-node.ts) and the self-contained browser file (ts/browser.ts), so there
 * the first call runs as before, with nothing to wait for.
 */

/** A part that arrives behind a dynamic import (see the file comment). */
export interface Deferred<T> {
  /** What it is, for messages ("WebAssembly module match", "bestSpan's pre-pass"). */
  readonly name: string;
  /** The part when it has arrived or was provided; else null, and its import is started (once). */
  now(): T | null;
  /** The import, once; resolves to the part, or to null when the import failed. Never rejects. */
  load(): Promise<T | null>;
  /** Give the part synchronously (an entry that bundles it statically). Idempotent. */
  provide(value: T): void;
  /** Null when the part is here; else why not: still arriving, or the import's error. */
  reason(): string | null;
  /** Whether its import failed (it will not arrive). */
  failed(): boolean;
}

const parts: Deferred<unknown>[] = [];
/**
 * Whether `loadDeferred` (`ready()`) ran already: a part defined after it belongs to code that
 * arrived later (a chunk of the app imported after `await ready()`), which that call could not
 * wait for. Its reason says so, since the caller believes everything is loaded.
 */
let readyCalled = false;

/**
 * Define (and register, for `loadDeferred`) one part: `load` is its dynamic import. Called at
 * the top level of the module that uses the part, so the part belongs to a bundle exactly when
 * that module does. `register: false` leaves it out of `loadDeferred`, for a part whose owner
 * loads it itself when it can use it (a WASM module's bytes: `initWasm`, only where WebAssembly
 * exists).
 */
export function deferred<T>(name: string, load: () => Promise<T>, options: { register?: boolean } = {}): Deferred<T> {
  const afterReady = readyCalled;
  let value: T | null = null;
  let loading: Promise<T | null> | null = null;
  let error: string | null = null;
  const part: Deferred<T> = {
    name,
    now() {
      if (value === null && !loading) void part.load();
      return value;
    },
    load() {
      if (value !== null) return Promise.resolve(value);
      // a bundler's import() may throw synchronously (webpack's target "web" in a worker: `document`
      // is not defined); the executor turns that into the import's failure, so no call throws it
      loading ??= new Promise<T>((resolve) => resolve(load())).then(
        (v) => (value ??= v),
        (e: unknown) => {
          error = e instanceof Error ? e.message : String(e);
          return value;
        },
      );
      return loading;
    },
    provide(v) {
      value ??= v;
    },
    reason() {
      if (value !== null) return null;
      if (error !== null) return `${name} failed to load: ${error}`;
      if (afterReady) {
        return `${name} is still arriving (a dynamic import, started at its first use; its code was loaded after ready() was called, so that call did not wait for it); await ready() again to wait for it`;
      }
      return `${name} is still arriving (a dynamic import, started at its first use); await ready() to wait for it`;
    },
    failed: () => value === null && error !== null,
  };
  if (options.register !== false) parts.push(part as Deferred<unknown>);
  return part;
}

/** Import every part of the bundle not yet here. Resolves to whether all arrived; never rejects. */
export async function loadDeferred(): Promise<boolean> {
  readyCalled = true;
  const got = await Promise.all(parts.map((p) => p.load()));
  return got.every((v) => v !== null);
}
