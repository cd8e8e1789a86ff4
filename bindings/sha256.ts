/**
 * SHA-256 behind one small interface with two backends and one digest (FIPS 180-4):
 * `node:crypto` where it exists (it uses the CPU's SHA instructions) and `hash-wasm`
 * elsewhere (browsers). Hashing is not this project's business; we only choose.
 *
 * The Node entry (ts/node.ts) registers the node:crypto backend at import. Elsewhere
 * nothing happens at import (no top-level await): `await initSha256()` (or `ready()`)
 * compiles hash-wasm; a digest asked for before that runs on the pure-JS `@noble/hashes`
 * SHA-256 (same digest, synchronous) and starts hash-wasm's compile in the background,
 * which takes over once done. `sha256Backend()` says which one is active.
 *
 * Where WebAssembly is disabled (iOS Lockdown Mode, `--jitless`, strict CSP, workerd)
 * hash-wasm cannot load; @noble/hashes then stays, and says so once on console.warn —
 * never silently, never a failed import.
 */
import type { IHasher } from "hash-wasm";
import { hashWasm } from "../ts/deps/hash-wasm.js";
import { noble } from "../ts/deps/noble.js";
import { ArgumentError } from "../ts/errors.js";

/**
 * An incremental SHA-256: feed the message in pieces, then take the digest once. The
 * digest equals the one-shot digest of the pieces' concatenation (strings as UTF-8), so a
 * long text is hashed without a copy of it. A string piece must not end inside a surrogate
 * pair (UTF-8 encodes each piece alone: a split pair would become two U+FFFD).
 */
export interface Sha256Hasher {
  /** Append `data` (bytes, or a string hashed as its UTF-8). Returns the hasher. Throws after `digestHex`. */
  update(data: Uint8Array | string): Sha256Hasher;
  /** The digest of everything appended, 64 lowercase hex chars. Once: the hasher is spent after. */
  digestHex(): string;
}

/** A SHA-256 backend: one-shot digests of bytes and of text, and incremental hashers; hex is 64 lowercase chars. */
export interface Sha256Backend {
  readonly name: "node:crypto" | "hash-wasm" | "@noble/hashes";
  /** SHA-256 of `bytes` (already UTF-8 encoded, or binary). */
  digestHex(bytes: Uint8Array): string;
  /** SHA-256 of UTF-8(`text`); node:crypto encodes natively (no encoded copy made in JS). */
  digestHexText(text: string): string;
  /** A fresh incremental hasher (any number may be open at once). */
  createHasher(): Sha256Hasher;
}

/** Encode a string piece for backends that hash bytes only. */
const bytesOf = (data: Uint8Array | string): Uint8Array => (typeof data === "string" ? encoder.encode(data) : data);

/** Guard shared by the wrappers: an incremental hasher is used once. */
function spent(): never {
  throw new Error("SHA-256 hasher already digested: create a new one with createSha256()");
}

let active: Sha256Backend | null = null;
/** `active` is @noble/hashes only until hash-wasm is compiled (a digest came before initSha256). */
let interim = false;
let wasmHasher: IHasher | null = null;
/** Why hash-wasm could not load; announced once, at the first digest on the pure-JS backend. */
let fallbackReason: string | null = null;
const encoder = new TextEncoder();

/**
 * Prepare the hash-wasm backend (async compile, once) and make it the active one, unless
 * another backend was chosen (node:crypto). Idempotent. Never rejects: when WebAssembly is
 * unavailable the pure-JS backend stays (or becomes) active, and says so on console.warn at
 * its next digest.
 */
export async function initSha256(): Promise<void> {
  if (!wasmHasher) {
    try {
      wasmHasher = await (hashWasmLoading ??= hashWasm().createSHA256());
    } catch (error) {
      hashWasmLoading = null;
      fallbackReason = (error as Error).message;
      interim = false;
      if (!active) active = pureJsBackend;
      return;
    }
  }
  if (!active || interim) {
    active = hashWasmBackend();
    interim = false;
  }
}
let hashWasmLoading: Promise<IHasher> | null = null;

/** The active backend; before any initialisation @noble/hashes, with hash-wasm compiled in the background. */
function current(): Sha256Backend {
  if (active) return active;
  active = pureJsBackend;
  interim = true;
  void initSha256();
  return active;
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
  digestHexText(text) {
    return pureJsBackend.digestHex(encoder.encode(text));
  },
  createHasher() {
    // Through digestHex's first call, so the fallback is announced the same way.
    const { sha256, bytesToHex } = noble();
    let h: ReturnType<typeof sha256.create> | null = sha256.create();
    const hasher: Sha256Hasher = {
      update(data) {
        if (!h) spent();
        h.update(bytesOf(data));
        return hasher;
      },
      digestHex() {
        if (!h) spent();
        pureJsBackend.digestHex(new Uint8Array(0)); // announces the fallback once, like one-shot digests
        const hex = bytesToHex(h.digest());
        h = null;
        return hex;
      },
    };
    return hasher;
  },
};

/** The hash-wasm backend; requires initSha256() to have run. */
export function hashWasmBackend(): Sha256Backend {
  if (!wasmHasher) throw new Error("hash-wasm SHA-256 is not initialised: await initSha256() first");
  const hasher = wasmHasher;
  // hash-wasm's one hasher is shared: an incremental hasher keeps its state between updates
  // (save/load) whenever another digest used the instance in between.
  let owner: object | null = null;
  const backend: Sha256Backend = {
    name: "hash-wasm",
    digestHex(bytes) {
      owner = null;
      hasher.init();
      hasher.update(bytes);
      return hasher.digest("hex");
    },
    digestHexText(text) {
      return backend.digestHex(encoder.encode(text));
    },
    createHasher() {
      const me = {};
      let state: Uint8Array | null = null;
      let done = false;
      const resume = () => {
        if (done) spent();
        if (owner === me) return;
        if (state) hasher.load(state);
        else hasher.init();
        owner = me;
      };
      const incremental: Sha256Hasher = {
        update(data) {
          resume();
          hasher.update(bytesOf(data));
          state = hasher.save();
          return incremental;
        },
        digestHex() {
          resume();
          done = true;
          owner = null;
          return hasher.digest("hex");
        },
      };
      return incremental;
    },
  };
  return backend;
}

/** Make `backend` the one `sha256Hex` uses (the Node entry registers node:crypto). */
export function setSha256Backend(backend: Sha256Backend): void {
  active = backend;
  interim = false;
}

/** The active backend's name, or null before initialisation and before the first digest. */
export function sha256Backend(): Sha256Backend["name"] | null {
  return active?.name ?? null;
}

/**
 * SHA-256 of `data` as 64 lowercase hex characters. Strings are UTF-8 encoded first.
 * Synchronous on every backend, initialised or not (see the header).
 */
export function sha256Hex(data: Uint8Array | string): string {
  if (typeof data !== "string" && !(data instanceof Uint8Array)) throw new ArgumentError("sha256Hex", "data", "a string or a Uint8Array", data);
  const backend = current();
  return typeof data === "string" ? backend.digestHexText(data) : backend.digestHex(data);
}

/**
 * A fresh incremental SHA-256 on the active backend (node:crypto `createHash` in Node,
 * hash-wasm's hasher in browsers): `createSha256().update("a").update(bytes).digestHex()`
 * equals `sha256Hex` of the concatenation.
 */
export function createSha256(): Sha256Hasher {
  return current().createHasher();
}
