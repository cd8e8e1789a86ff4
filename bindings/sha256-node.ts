/** The node:crypto SHA-256 backend. Node-only: imported by the Node entry and tests, never by the browser entry. */
import { createHash } from "node:crypto";
import type { Sha256Backend } from "./sha256.js";

/** SHA-256 via OpenSSL (hardware SHA instructions where the CPU has them). */
export const nodeCryptoBackend: Sha256Backend = {
  name: "node:crypto",
  digestHex(bytes) {
    return createHash("sha256").update(bytes).digest("hex");
  },
};
