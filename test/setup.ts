// Every suite runs with the WASM core loaded and SHA-256 on node:crypto, as the Node entry does.
import { initNodeBackends } from "../bindings/init-node.js";

await initNodeBackends();
