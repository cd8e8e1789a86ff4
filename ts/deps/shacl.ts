/** The SHACL engine (rdf-validate-shacl); static import, see ts/deps/README.md. */
import SHACLValidator from "rdf-validate-shacl";

/** The validator class of rdf-validate-shacl. Never throws. */
export function shacl(): typeof SHACLValidator {
  return SHACLValidator;
}
