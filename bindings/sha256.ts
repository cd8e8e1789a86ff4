/**
 * SHA-256 behind one small interface with two backends and one digest (FIPS 180-4):
 * `node:crypto` where it exists (it uses the CPU's SHA instructions) and `hash-wasm`
 * elsewhere (browsers). Hashing is not this project's business; we only choose.
 *
 * The Node entry (ts/node.ts) registers the node:crypto backend; the browser entry
 * leaves hash-wasm. Both must be initialised once (`await initSha256()`) before the
 * synchronous `sha256Hex` is called. `sha256Backend()` says which one is active.
 */
import { createSHA256, type IHasher } from "hash-wasm";

/** A SHA-256 backend: digest bytes (already UTF-8 encoded) to 64 lowercase hex chars. */
export interface Sha256Backend {
  readonly name: "node:crypto" | "hash-wasm";
  digestHex(bytes: Uint8Array): string;
}

let active: Sha256Backend | null = null;
let wasmHasher: IHasher | null = null;
const encoder = new TextEncoder();

/** Prepare the hash-wasm backend (async compile, once). Idempotent. */
export async function initSha256(): Promise<void> {
  if (!wasmHasher) wasmHasher = await createSHA256();
  if (!active) active = hashWasmBackend();
}

/** The hash-wasm backend; requires initSha256() to have run. */
export function hashWasmBackend(): Sha256Backend {
  if (!wasmHasher) throw new Error("hash-wasm SHA-256 is not initialised: await initSha256() first");
  const hasher = wasmHasher;
  return {
    name: "hash-wasm",
    digestHex(bytes) {
      hasher.init();
      hasher.update(bytes);
      return hasher.digest("hex");
    },
  };
}

/** Make `backend` the one `sha256Hex` uses (the Node entry registers node:crypto). */
export function setSha256Backend(backend: Sha256Backend): void {
  active = backend;
}

/** The active backend's name, or null before initialisation. */
export function sha256Backend(): Sha256Backend["name"] | null {
  return active?.name ?? null;
}

/**
 * SHA-256 of `data` as 64 lowercase hex characters. Strings are UTF-8 encoded first.
 * Throws when no backend is initialised.
 */
export function sha256Hex(data: Uint8Array | string): string {
  if (!active) throw new Error("SHA-256 is not initialised: await initSha256() (or import the package entry) first");
  return active.digestHex(typeof data === "string" ? encoder.encode(data) : data);
}
