/** The node:crypto SHA-256 backend. Node-only: imported by the Node entry and tests, never by the browser entry. */
import type * as Crypto from "node:crypto";
import type { Sha256Backend, Sha256Hasher } from "./sha256.js";

/**
 * node:crypto, loaded at the first hash rather than at import: loading it costs ≈ 5 ms of
 * every start-up (measured in bench/package.bench.ts's set-up, docs/package.md), and most
 * processes that import the package hash nothing before they read a file.
 */
let cryptoModule: typeof Crypto | null = null;
let oneShot: ((algorithm: string, data: string | Uint8Array, encoding: "hex") => string) | undefined;
function crypto(): typeof Crypto {
  if (cryptoModule) return cryptoModule;
  cryptoModule = process.getBuiltinModule("node:crypto");
  // `crypto.hash` (Node >= 20.12): a one-shot digest without a Hash object, about 2.5× faster
  // than `createHash` on the short inputs fragment ids are; `createHash` where it is missing.
  oneShot = (cryptoModule as { hash?: typeof oneShot }).hash;
  return cryptoModule;
}

/** SHA-256 via OpenSSL (hardware SHA instructions where the CPU has them). */
export const nodeCryptoBackend: Sha256Backend = {
  name: "node:crypto",
  digestHex(bytes) {
    const c = crypto();
    return oneShot ? oneShot("sha256", bytes, "hex") : c.createHash("sha256").update(bytes).digest("hex");
  },
  digestHexText(text) {
    // Strings are UTF-8 encoded by Node itself (lone surrogates as U+FFFD, as TextEncoder does).
    const c = crypto();
    return oneShot ? oneShot("sha256", text, "hex") : c.createHash("sha256").update(text, "utf8").digest("hex");
  },
  createHasher() {
    const h = crypto().createHash("sha256");
    const hasher: Sha256Hasher = {
      update(data) {
        if (typeof data === "string") h.update(data, "utf8");
        else h.update(data);
        return hasher;
      },
      digestHex: () => h.digest("hex"),
    };
    return hasher;
  },
};
