/**
 * SHA-256 behind one small interface with two backends and one digest (FIPS 180-4):
 * `node:crypto` where it exists (it uses the CPU's SHA instructions) and `hash-wasm`
 * elsewhere (browsers). Hashing is not this project's business; we only choose.
 *
 * The Node entry (ts/node.ts) registers the node:crypto backend; the browser entry
 * leaves hash-wasm. Both must be initialised once (`await initSha256()`) before the
 * synchronous `sha256Hex` is called. `sha256Backend()` says which one is active.
 *
 * Where WebAssembly is disabled (iOS Lockdown Mode, `--jitless`, strict CSP) hash-wasm
 * cannot load; `initSha256` then takes the pure-JS `@noble/hashes` SHA-256 (same digest,
 * slower) and says so once on console.warn — never silently, never a failed import.
 */
import type { IHasher } from "hash-wasm";
import { hashWasm } from "../ts/deps/hash-wasm.js";
import { loadNoble, noble } from "../ts/deps/noble.js";

/** A SHA-256 backend: digest bytes (already UTF-8 encoded) to 64 lowercase hex chars. */
export interface Sha256Backend {
  readonly name: "node:crypto" | "hash-wasm" | "@noble/hashes";
  digestHex(bytes: Uint8Array): string;
}

let active: Sha256Backend | null = null;
let wasmHasher: IHasher | null = null;
/** Why hash-wasm could not load; announced once, at the first digest on the pure-JS backend. */
let fallbackReason: string | null = null;
const encoder = new TextEncoder();

/**
 * Prepare the hash-wasm backend (async compile, once). Idempotent. Never rejects: when
 * WebAssembly is unavailable it activates the pure-JS backend (unless a backend is already
 * active), which says so on console.warn at its first digest — so the Node entry, which
 * switches to node:crypto right after, prints nothing misleading.
 */
export async function initSha256(): Promise<void> {
  if (!wasmHasher) {
    try {
      wasmHasher = await hashWasm().createSHA256();
    } catch (error) {
      fallbackReason = (error as Error).message;
      if (!active) {
        await loadNoble();
        active = pureJsBackend;
      }
      return;
    }
  }
  if (!active) active = hashWasmBackend();
}

/** The pure-JS backend (@noble/hashes): synchronous, no WebAssembly, same digest. */
export const pureJsBackend: Sha256Backend = {
  name: "@noble/hashes",
  digestHex(bytes) {
    if (fallbackReason !== null) {
      console.warn(`groundwire: SHA-256 on pure-JS @noble/hashes (hash-wasm unavailable: ${fallbackReason}); digests are identical, only slower`);
      fallbackReason = null;
    }
    const { sha256, bytesToHex } = noble();
    return bytesToHex(sha256(bytes));
  },
};

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
