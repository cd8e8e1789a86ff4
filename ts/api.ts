/**
 * groundwire's API, shared by both entries (ts/index.ts for browsers and bundlers,
 * ts/node.ts for Node). Importing this module runs nothing (the backends load at first
 * use, or by `ready()`), so a bundler keeps only what a page uses.
 */
export { initWasm, setBackend, backendInfo, type Backend, type BackendRequest } from "../bindings/wasm.js";
export { initSha256, sha256Hex, sha256Backend, type Sha256Backend } from "../bindings/sha256.js";
export { ready } from "../bindings/ready.js";
export * from "./rdf/index.js";
export * from "./triple-index/index.js";
export * from "./kernel/index.js";
export * from "./memdsl/index.js";
export * from "./evidence/index.js";
export * from "./moot/index.js";
export { GroundwireError, ArgumentError, isGroundwireError, type ErrorStatus, type GroundwireErrorOptions } from "./errors.js";
export { EndpointError, type EndpointFailure } from "./net/http.js";
export { WorkLimitError, type WorkLimits } from "./work-limits.js";
