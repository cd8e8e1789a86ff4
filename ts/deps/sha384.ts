/**
 * SHA-384 for RDFC-1.0's hashAlgorithm option, from @noble/hashes, loaded by canonical-hash.ts's
 * dynamic import at the first SHA-384 canonicalization. Not hash-wasm: hash-wasm is one module,
 * which bindings/sha256 imports statically, so its SHA-384 would join SHA-256 in the chunk
 * every page loads (≈ 6 KB gzip); @noble/hashes is only ever loaded dynamically.
 */
import { sha384 } from "@noble/hashes/sha2.js";
import { bytesToHex, utf8ToBytes } from "@noble/hashes/utils.js";

/** Hex SHA-384 of `text` (UTF-8). */
export function sha384Hex(text: string): string {
  return bytesToHex(sha384(utf8ToBytes(text)));
}
