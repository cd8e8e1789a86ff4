/**
 * Existence: in a namespace the schema describes, a predicate, class or IRI must be one the schema
 * knows; an unknown one is reported with did-you-mean candidates.
 */
import type { Iri } from "../algebra.js";
import { namespaceOf } from "../schema.js";
import { closest } from "./did-you-mean.js";
import { CheckerBase } from "./checker-base.js";

/** rdf:_1, rdf:_2, … (RDF 1.1 Schema §5.1.6): infinitely many, never declared. */
const CONTAINER_MEMBERSHIP = /^http:\/\/www\.w3\.org\/1999\/02\/22-rdf-syntax-ns#_[1-9][0-9]*$/;

/** The checker with existence: is an IRI a class, property or term the schema knows (did-you-mean when not). */
export class ExistenceChecker extends CheckerBase {
  /** Is `p` a known property? Reports `unknown property …` in a described namespace. Returns whether the schema knows it. */
  knownProperty(p: Iri): boolean {
    if (this.schema.isProperty(p.value)) return true;
    if (CONTAINER_MEMBERSHIP.test(p.value)) return true;
    if (this.schema.describes(p.value)) this.unknown("property", p);
    return false;
  }

  /** Is `c` a known class? Reports `unknown class …` in a described namespace. */
  knownClass(c: Iri): boolean {
    if (this.schema.isClass(c.value)) return true;
    if (this.schema.describes(c.value)) this.unknown("class", c);
    return false;
  }

  /**
   * Is the IRI `t`, in a subject, object, VALUES or expression position, a term the schema
   * knows (a class, a property, a datatype, or any IRI its graph mentions)? Reports
   * `unknown class|property|term …` in a described namespace. In a namespace where the
   * schema graph holds no individuals, a plain term is reported only when it is a near miss
   * of a known one: it may be an individual of data the schema does not carry.
   */
  knownTerm(t: Iri, role: "class" | "property" | "term"): boolean {
    if (this.schema.isKnownTerm(t.value) || CONTAINER_MEMBERSHIP.test(t.value)) return true;
    if (this.schema.describes(t.value)) this.unknown(role, t, role === "term" && !this.schema.individualNamespaces.has(namespaceOf(t.value)));
    return false;
  }

  /**
   * Report an unknown IRI of a described namespace, with did-you-mean over that namespace's
   * terms: classes for a class (properties when none is near), properties for a property
   * (classes when none is near), every term the schema mentions for a plain term.
   * @param onlyNear report nothing when no known term is near
   */
  unknown(kind: "property" | "class" | "term", t: Iri, onlyNear = false): void {
    const ns = namespaceOf(t.value);
    const bucket = this.schema.termsByNamespace.get(ns);
    const local = t.value.slice(ns.length);
    const pool = !bucket ? [] : kind === "class" ? bucket.classes : kind === "property" ? bucket.properties : [...bucket.classes, ...bucket.properties, ...bucket.others];
    let candidates = closest(local, pool.map((iri) => iri.slice(ns.length)));
    if (!candidates.length && bucket && kind !== "term") candidates = closest(local, (kind === "class" ? bucket.properties : bucket.classes).map((iri) => iri.slice(ns.length)));
    if (onlyNear && !candidates.length) return;
    const names = candidates.map((c) => this.name(ns + c));
    const shown = this.name(t.value);
    const suffix = names.length ? ` (did you mean ${names[0]}?)` : "";
    this.report({ code: "unknown-term", severity: "error", message: `unknown ${kind} ${shown}${suffix}`, term: shown, candidates: names }, t.at);
  }
}
