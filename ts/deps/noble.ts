/**
 * @noble/hashes' SHA-256, the pure-JS fallback where WebAssembly is disabled. Loaded by
 * `loadNoble()` (a dynamic import) only when that happens, so a page whose WebAssembly works
 * never downloads it; see ts/deps/README.md for the Node variant.
 */
import type { sha256 } from "@noble/hashes/sha2.js";
import type { bytesToHex } from "@noble/hashes/utils.js";

/** What the fallback SHA-256 backend uses. */
export interface Noble {
  sha256: typeof sha256;
  bytesToHex: typeof bytesToHex;
}

let loaded: Noble | null = null;

/** Load @noble/hashes (once). Rejects only when the module cannot be fetched. */
export async function loadNoble(): Promise<Noble> {
  if (loaded) return loaded;
  const [sha2, utils] = await Promise.all([import("@noble/hashes/sha2.js"), import("@noble/hashes/utils.js")]);
  return (loaded = { sha256: sha2.sha256, bytesToHex: utils.bytesToHex });
}

/** @noble/hashes' SHA-256 and hex encoder. Throws until `loadNoble()` has resolved. */
export function noble(): Noble {
  if (!loaded) throw new Error("@noble/hashes is not loaded: await initSha256() first");
  return loaded;
}
