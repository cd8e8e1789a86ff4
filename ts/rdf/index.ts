// ts/rdf: RDF terms and graphs shared by every part (browser-safe; ts/rdf/load.ts is Node-only).
export * from "./graph.js";
