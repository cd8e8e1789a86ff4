// Every suite runs as the Node entry does: SHA-256 on node:crypto, each WASM module compiled synchronously (at its first use here) with its memory reserved.
import { initNodeStart } from "../ts/node-start.js";

await initNodeStart();
