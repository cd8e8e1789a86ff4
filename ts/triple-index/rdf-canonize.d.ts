// Types for the parts of rdf-canonize (CommonJS, untyped) that canonical-hash.ts uses.
declare module "rdf-canonize" {
  const api: {
    canonize(dataset: unknown, options: Record<string, unknown>): Promise<string>;
  };
  export default api;
}
