// Every suite runs with the WASM core loaded and SHA-256 on node:crypto, as the Node entry does.
import { initWasm } from "../bindings/wasm.js";
import { initSha256, setSha256Backend } from "../bindings/sha256.js";
import { nodeCryptoBackend } from "../bindings/sha256-node.js";

await Promise.all([initWasm(), initSha256()]);
setSha256Backend(nodeCryptoBackend);
