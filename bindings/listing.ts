/**
 * Binding of assembly/listing.ts. JS numbers the triples straight into WASM memory
 * ({@link listingTriplesView}), then {@link listingWasm} writes the terms' keys (one
 * encodeInto of their concatenation) and the prefix table, runs the kernel once, hashes the
 * listing bytes where they lie (no copy), and copies out the sorted triples and the block
 * starts. The module (assembly/listing.ts alone) is inlined (hex) in a chunk of its own and compiled at its first
 * use (bindings/wasm.ts).
 */
import { wasmModule, type BackendRequest, type WasmExports } from "./wasm.js";

const listing = /* @__PURE__ */ wasmModule("listing", () => import("./wasm-listing.generated.js").then((m) => m.LISTING_WASM_HEX));

/** The listing module's exports when this call runs on WASM, else null (see `WasmModule.exportsFor`). */
export function listingWasmFor(override?: BackendRequest): WasmExports | null {
  return listing.exportsFor(override);
}

/** The raw listing exports of the module (addresses are byte offsets into memory). */
export interface ListingExports {
  memory: WebAssembly.Memory;
  listingTriples(triples: number): number;
  listingInput(terms: number, units: number, keyCapacity: number, prefixBytes: number): number;
  listingKeysPtr(): number;
  listingKeyEndsPtr(): number;
  listingPrefixesPtr(): number;
  listingRun(keyBytes: number, typeTerm: number): number;
  listingSortedPtr(): number;
  listingBlockStartsPtr(): number;
  listingRenderedPtr(): number;
  listingRenderedOffsetsPtr(): number;
  listingOutputPtr(): number;
  listingOutputLength(): number;
}

/** What the kernel returns: see {@link listingWasm}. */
export interface WasmListing {
  /** Subject, predicate, object term numbers per triple, in listing order. */
  spo: Int32Array;
  /** Index where each subject block starts, plus a final triple count. */
  blockStarts: number[];
  /** `digest(listing bytes)` when a digest was given, else null. */
  fingerprint: string | null;
  /** Each term's rendering, when asked for (`withRenderings`: parity tests). */
  renderings: string[] | null;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();
// eslint-disable-next-line no-control-regex
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function isWellFormed(text: string): boolean {
  const native = (text as { isWellFormed?: () => boolean }).isWellFormed;
  return native ? native.call(text) : !LONE_SURROGATE.test(text);
}

/**
 * Room for `triples` triples in WASM memory: write subject, predicate, object term numbers
 * of triple k at 3k, 3k+1, 3k+2, then call {@link listingWasm} before any other WASM call
 * (a view of WASM memory is invalidated by the next call that grows it).
 */
export function listingTriplesView(exports: WasmExports, triples: number): Int32Array {
  const x = exports as unknown as ListingExports;
  const at = x.listingTriples(triples) >>> 0;
  return new Int32Array(x.memory.buffer, at, 3 * triples);
}

/**
 * Render, order and write the listing in WASM (the contract of assembly/listing.ts), over
 * the triples written into {@link listingTriplesView}.
 *
 * @param keys N3.js entity keys per term number (T of them)
 * @param typeTerm term number of rdf:type, or -1
 * @param prefixTable PrefixMap's namespaces as the kernel reads them ({@link encodePrefixTable})
 * @param options.digest called once on the listing bytes (a view into WASM memory, valid during the call)
 * @param options.withRenderings also decode every term's rendering (for parity tests)
 * @returns the listing, or null when the TS path must render this graph instead (a key the
 *   kernel does not render, or a lone surrogate whose UTF-8 would not round-trip)
 */
export function listingWasm(
  exports: WasmExports,
  keys: readonly string[],
  typeTerm: number,
  prefixTable: Uint8Array,
  options: { digest?: (bytes: Uint8Array) => string; withRenderings?: boolean } = {},
): WasmListing | null {
  const x = exports as unknown as ListingExports;
  const joined = keys.join("");
  if (!isWellFormed(joined)) return null;
  const terms = keys.length;
  const units = joined.length;
  // Room for the keys' UTF-8: first as if nearly all ASCII (keeps WASM memory small), and
  // when that does not fit, the 3 bytes per code unit that always do.
  let capacity = units + (units >> 3) + 64;
  let buffer: ArrayBuffer;
  let encoded: { read: number; written: number };
  for (;;) {
    x.listingInput(terms, units, capacity, prefixTable.length);
    // views are made after listingInput: it may have grown (and so detached) the memory
    buffer = x.memory.buffer;
    encoded = encoder.encodeInto(joined, new Uint8Array(buffer, x.listingKeysPtr() >>> 0, capacity));
    if (encoded.read === units) break;
    if (capacity >= 3 * units) return null;
    capacity = 3 * units;
  }
  const keyEnds = new Uint32Array(buffer, x.listingKeyEndsPtr() >>> 0, terms);
  let end = 0;
  for (let t = 0; t < terms; t++) keyEnds[t] = end += keys[t].length;
  new Uint8Array(buffer, x.listingPrefixesPtr() >>> 0, prefixTable.length).set(prefixTable);
  const written = encoded.written;
  const blocks = x.listingRun(written, typeTerm);
  if (blocks < 0) return null;
  buffer = x.memory.buffer; // re-read: the run may have grown memory
  const blockStarts = Array.from(new Uint32Array(buffer, x.listingBlockStartsPtr() >>> 0, blocks + 1));
  const triples = blockStarts[blocks];
  let renderings: string[] | null = null;
  if (options.withRenderings) {
    const offsets = new Uint32Array(buffer, x.listingRenderedOffsetsPtr() >>> 0, terms + 1);
    const rendered = new Uint8Array(buffer, x.listingRenderedPtr() >>> 0, offsets[terms]);
    renderings = Array.from({ length: terms }, (_, t) => decoder.decode(rendered.subarray(offsets[t], offsets[t + 1])));
  }
  return {
    spo: new Int32Array(buffer, x.listingSortedPtr() >>> 0, 3 * triples).slice(),
    blockStarts,
    fingerprint: options.digest ? options.digest(new Uint8Array(buffer, x.listingOutputPtr() >>> 0, x.listingOutputLength() >>> 0)) : null,
    renderings,
  };
}

/**
 * A prefix table as assembly/listing.ts reads it: u32 count, then per namespace
 * [u32 namespace bytes][u32 name bytes] namespace name, in the order given (longest first,
 * PrefixMap's shortening order). Little-endian, as WebAssembly memory is.
 */
export function encodePrefixTable(namespaces: ReadonlyArray<readonly [namespace: string, name: string]>): Uint8Array {
  const parts = namespaces.map(([namespace, name]) => [encoder.encode(namespace), encoder.encode(name)] as const);
  const size = 4 + parts.reduce((sum, [ns, name]) => sum + 8 + ns.length + name.length, 0);
  const table = new Uint8Array(size);
  const view = new DataView(table.buffer);
  view.setUint32(0, parts.length, true);
  let at = 4;
  for (const [ns, name] of parts) {
    view.setUint32(at, ns.length, true);
    view.setUint32(at + 4, name.length, true);
    table.set(ns, at + 8);
    table.set(name, at + 8 + ns.length);
    at += 8 + ns.length + name.length;
  }
  return table;
}
