/**
 * N3.js for the Node build: `require`d on first use (see ts/deps/README.md). Its lib/ is
 * CommonJS and pulls in readable-stream: about 55 files and 50–60 ms of every start-up,
 * now paid only by a process that parses, writes or stores RDF.
 */
import { createRequire } from "node:module";
import type { DataFactory, Parser, Store, Writer } from "n3";

const require = createRequire(import.meta.url);
let loaded: typeof import("n3") | null = null;
const n3 = (): typeof import("n3") => (loaded ??= require("n3") as typeof import("n3"));

/** N3.js's RDF/JS data factory, loading N3.js at the first call. Throws when `n3` is not installed. */
export function n3DataFactory(): typeof DataFactory {
  return n3().DataFactory;
}

/** N3.js's parser class, loading N3.js at the first call. */
export function n3Parser(): typeof Parser {
  return n3().Parser;
}

/** N3.js's writer class, loading N3.js at the first call. */
export function n3Writer(): typeof Writer {
  return n3().Writer;
}

/** N3.js's `Store` class, loading N3.js at the first call. */
export function n3Store(): typeof Store {
  return n3().Store;
}

/**
 * Joins the chain `class GraphStore extends Store` would have made: `Store.prototype` under
 * LazyStore's prototype and `Store` under LazyStore (for its statics), loading N3.js. Idempotent.
 */
function joinStore(): typeof Store {
  const N3Store = n3().Store;
  if (Object.getPrototypeOf(LazyStore.prototype) !== N3Store.prototype) {
    Object.setPrototypeOf(LazyStore.prototype, N3Store.prototype);
    Object.setPrototypeOf(LazyStore, N3Store);
  }
  return N3Store;
}

/**
 * The class GraphStore extends, standing in for N3.js's `Store` until N3.js is loaded:
 * the first `new` loads it, puts `Store.prototype` under this function's prototype (and
 * `Store` under this function, for its statics), and constructs with `Reflect.construct`,
 * so the instance is the one `class GraphStore extends Store` would make: built by Store's
 * constructor with the subclass's prototype, an `instanceof` both classes. No instance can
 * exist before the prototype chain is joined.
 */
function LazyStore(this: unknown, ...args: unknown[]): object {
  if (new.target === undefined) throw new TypeError("Class constructor Store cannot be invoked without 'new'");
  return Reflect.construct(joinStore(), args, new.target) as object;
}

// Until the first `new`, a stand-in sits where Store.prototype will be: reading an inherited
// member through the prototype before any graph exists (`GraphStore.prototype.match`, a
// subclass that wraps `super`'s methods, `"addQuad" in GraphStore.prototype`, an
// `Object.create(GraphStore.prototype)` tested with `instanceof N3.Store`) joins the chain
// and answers from Store.prototype, as the eager `extends Store` of the browser build does.
// Without it those read `undefined` in Node only. After the join the stand-in is off the chain.
Object.setPrototypeOf(
  LazyStore.prototype,
  new Proxy(Object.create(null) as object, {
    get: (_target, key, receiver) => Reflect.get(joinStore().prototype, key, receiver),
    has: (_target, key) => Reflect.has(joinStore().prototype, key),
    getPrototypeOf: () => joinStore().prototype,
  }),
);

/** N3.js's `Store` as a base class, loaded at the first construction (see {@link LazyStore}). */
export const StoreBase = LazyStore as unknown as typeof Store;
