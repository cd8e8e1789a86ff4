// ts/kernel: the Node-only part of the plan verifier (the embedded Oxigraph store), for the Node entry (ts/node.ts) and the CLI.
export { createOxigraphStore } from "./store-oxigraph.js";
export { schemaFromEndpoint, endpointSchemaCacheFile, type EndpointSchemaOptions, type EndpointSchema } from "./schema-endpoint.js";
