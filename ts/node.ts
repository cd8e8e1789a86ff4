/**
 * groundwire — the Node entry: everything the browser entry has, plus Node-only
 * pieces (file loading, the on-disk book corpus, HTTP helpers), and SHA-256 on
 * node:crypto (hardware SHA instructions) instead of hash-wasm.
 */
import { initNodeBackends } from "../bindings/init-node.js";

export * from "./index.js";
export { loadGraphFile, writeGraphFile } from "./rdf/load.js";
export { createOxigraphStore } from "./kernel/store-oxigraph.js";
export { loadBooks, loadCorpus, CorpusError } from "./moot/corpus-node.js";
export { loadDocumentFile, defaultArtifactId, type LoadedDocument } from "./evidence/node.js";

// ./index.js has already awaited both inits (cached); this only switches SHA-256 to node:crypto.
await initNodeBackends();
