/**
 * @noble/hashes' SHA-256, the synchronous pure-JS SHA-256 of the browser-safe entry: what a
 * digest runs on before hash-wasm is compiled (nothing is compiled at import), and where
 * WebAssembly is disabled. A static import (sha256 + hex: ≈ 2 KB gzip on a page that
 * hashes; docs/package.md); see ts/deps/README.md for the Node variant.
 */
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex } from "@noble/hashes/utils.js";

/** What the fallback SHA-256 backend uses. */
export interface Noble {
  sha256: typeof sha256;
  bytesToHex: typeof bytesToHex;
}

const loaded: Noble = { sha256, bytesToHex };

/** @noble/hashes' SHA-256 and hex encoder. Never throws. */
export function noble(): Noble {
  return loaded;
}

/** Same as `noble()`, for callers written against an asynchronous loader (the bench). */
export async function loadNoble(): Promise<Noble> {
  return loaded;
}
