/**
 * Node start-up, one place for the Node entry, the CLI, the test setup and the bench
 * runner: the inlined WASM core compiled (or its absence recorded, see bindings/wasm.ts)
 * and SHA-256 on node:crypto instead of hash-wasm. Idempotent: both inits are cached.
 * Never rejects (initWasm records a load failure instead of throwing).
 */
import { initWasm } from "./wasm.js";
import { initSha256, setSha256Backend } from "./sha256.js";
import { nodeCryptoBackend } from "./sha256-node.js";

/** Load the WASM core and the SHA-256 backends, then make node:crypto the active SHA-256. */
export async function initNodeBackends(): Promise<void> {
  await Promise.all([initWasm(), initSha256()]);
  setSha256Backend(nodeCryptoBackend);
}
