// ts/rdf: RDF terms and graphs shared by every part (browser-safe; ts/rdf/load.ts is Node-only).
export * from "./graph.js";
export * from "./graph-store.js";
export * from "./prefixes.js";
export * from "./format-term.js";
export * from "./code-points.js";
export * from "./serialize.js";
