/**
 * @noble/hashes for the self-contained browser bundle (dist/browser/groundwire.js; rollup.config.mjs
 * swaps it in): a static import. In one file a dynamic import is inlined as a namespace object
 * that is only initialised after the entry's top-level await, which is exactly when the
 * fallback needs it; and in one file it costs nothing to have it loaded anyway.
 */
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex } from "@noble/hashes/utils.js";
import type { Noble } from "./noble.js";

export type { Noble } from "./noble.js";

const loaded: Noble = { sha256, bytesToHex };

/** @noble/hashes' SHA-256 and hex encoder. Never throws. */
export function noble(): Noble {
  return loaded;
}

/** Same as `noble()`, for the callers of the default variant's async loader. */
export async function loadNoble(): Promise<Noble> {
  return loaded;
}
