/** The SHACL engine for the Node build: `require`d on first use (see ts/deps/README.md). */
import { createRequire } from "node:module";
import type SHACLValidator from "rdf-validate-shacl";

const require = createRequire(import.meta.url);
let loaded: typeof SHACLValidator | null = null;

/** The validator class of rdf-validate-shacl, loaded at the first call (an ES module, `require`d: Node >= 20.19). */
export function shacl(): typeof SHACLValidator {
  return (loaded ??= (require("rdf-validate-shacl") as { default: typeof SHACLValidator }).default);
}
