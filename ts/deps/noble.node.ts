/** @noble/hashes for the Node build: `require`d on first use — Node hashes with node:crypto, so mostly never. */
import { createRequire } from "node:module";
import type { Noble } from "./noble.js";

export type { Noble } from "./noble.js";

const require = createRequire(import.meta.url);
let loaded: Noble | null = null;

/** @noble/hashes' SHA-256 and hex encoder, loaded at the first call (ES modules, `require`d: Node >= 20.19). */
export function noble(): Noble {
  if (loaded) return loaded;
  const sha2 = require("@noble/hashes/sha2.js") as typeof import("@noble/hashes/sha2.js");
  const utils = require("@noble/hashes/utils.js") as typeof import("@noble/hashes/utils.js");
  return (loaded = { sha256: sha2.sha256, bytesToHex: utils.bytesToHex });
}

/** Same as `noble()`, for callers written against an asynchronous loader (the bench). */
export async function loadNoble(): Promise<Noble> {
  return noble();
}
