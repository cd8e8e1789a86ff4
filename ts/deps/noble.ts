/** @noble/hashes' SHA-256, the pure-JS fallback where WebAssembly is disabled (static import; see ts/deps/README.md). */
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
