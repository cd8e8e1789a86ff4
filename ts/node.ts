/**
 * groundwire — the Node entry: everything the browser entry has, plus Node-only
 * pieces (file loading, the on-disk book corpus, the embedded Oxigraph store), and
 * SHA-256 on node:crypto (hardware SHA instructions) instead of hash-wasm. Traqula, the
 * SHACL stack, the markdown parser, oxigraph and hash-wasm are loaded at their first use
 * (ts/deps/), so the import itself stays fast. No top-level await: Deno and Bun load
 * it as Node does.
 */
import { useNodeStart } from "./node-start.js";

export * from "./api.js";
export { loadGraphFile, writeGraphFile, DEFAULT_MAX_GRAPH_BYTES } from "./rdf/load.js";
export { createOxigraphStore, schemaFromEndpoint, endpointSchemaCacheFile, type EndpointSchemaOptions, type EndpointSchema } from "./kernel/node.js";
export { loadBooks, loadCorpus, CorpusError } from "./moot/corpus-node.js";
export { loadDocumentFile, defaultArtifactId, type LoadedDocument } from "./evidence/node.js";
export { InputFileError, OutputFileError, type InputFileFault } from "./files.js";

// synchronous (no top-level await): node:crypto registered, the WASM modules compiled (≈ 3 ms for the three),
// bestSpan's pre-pass given (a bundled page imports it at the first call: ts/match/pre-pass.ts)
useNodeStart();
