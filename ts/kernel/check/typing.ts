/**
 * Typing: `?x a C` gives `?x : C`, `?x p ?y` gives `?x` the domains and `?y` the ranges of `p`;
 * literals against entities are type mismatches, unrelated classes a warning; expressions' types.
 */
import type { Expr, Iri, Origin, Term, TriplePattern } from "../algebra.js";
import { exprToSparql, pathToSparql } from "../algebra.js";
import { RDF_TYPE, XSD } from "../schema.js";
import type { ExprType } from "./diagnostics.js";
import { pathIris, firstLink, hasAggregate, mixedNegatedSets } from "./query-walks.js";
import { WELL_KNOWN } from "./checker-base.js";
import { ExistenceChecker } from "./existence.js";

const RDFS_NS = WELL_KNOWN.rdfs;
const OWL_NS = WELL_KNOWN.owl;
/**
 * The schema role a predicate gives the IRI in its subject ("s") or object ("o") position
 * (RDFS 1.1 §3, OWL 2 structural vocabulary): an unknown IRI there is reported as an
 * unknown class or property, with did-you-mean over that kind first. Any other subject or
 * object position is a plain term (a class, a property or an individual alike).
 */
const POSITION_ROLES: Record<string, { s?: "class" | "property"; o?: "class" | "property" }> = {
  [`${RDFS_NS}subClassOf`]: { s: "class", o: "class" },
  [`${OWL_NS}equivalentClass`]: { s: "class", o: "class" },
  [`${OWL_NS}disjointWith`]: { s: "class", o: "class" },
  [`${OWL_NS}complementOf`]: { s: "class", o: "class" },
  [`${RDFS_NS}subPropertyOf`]: { s: "property", o: "property" },
  [`${OWL_NS}equivalentProperty`]: { s: "property", o: "property" },
  [`${OWL_NS}inverseOf`]: { s: "property", o: "property" },
  [`${OWL_NS}propertyDisjointWith`]: { s: "property", o: "property" },
  [`${RDFS_NS}domain`]: { s: "property", o: "class" },
  [`${RDFS_NS}range`]: { s: "property", o: "class" },
};
const NUMERIC_FUNCS = new Set(["strlen", "year", "month", "day", "hours", "minutes", "seconds", "abs", "ceil", "floor", "round", "rand", "+", "-", "*", "/"]);
const BOOLEAN_FUNCS = new Set(["||", "&&", "=", "!=", "<", ">", "<=", ">=", "!", "bound", "regex", "isiri", "isuri", "isblank", "isliteral", "isnumeric", "sameterm", "langmatches", "contains", "strstarts", "strends", "in", "notin"]);
const STRING_FUNCS = new Set(["str", "lang", "concat", "ucase", "lcase", "substr", "replace", "encode_for_uri", "strbefore", "strafter", "md5", "sha1", "sha256", "sha384", "sha512", "struuid", "tz", "strlang", "strdt"]);
const ENTITY_FUNCS = new Set(["iri", "uri", "bnode", "datatype"]);

/** The checker with typing: what triple patterns and expressions establish about each variable. */
export class TypingChecker extends ExistenceChecker {
  triple(t: TriplePattern): void {
    this.nodeIris(t);
    const p = t.p;
    if (p.kind !== "var" && p.kind !== "iri") {
      for (const nps of mixedNegatedSets(p)) {
        const text = pathToSparql(nps, this.prefixes);
        const forward = nps.kind === "nps" ? nps.items.filter((i) => i.kind !== "inv").map((i) => pathToSparql(i, this.prefixes)) : [];
        const s = this.show(t.s);
        const o = this.show(t.o);
        this.report(
          {
            code: "mixed-negated-property-set",
            severity: "warning",
            message: `the negated property set ${text} mixes directions: it matches any other link from ${s} to ${o} or from ${o} to ${s}, not "no link either way" (SPARQL 1.1 §9.3: the two directions are a union)`,
            term: text,
            fix: `for "not linked either way" write FILTER NOT EXISTS { ${s} ${forward.join("|") || "?p"} ${o} } FILTER NOT EXISTS { ${o} ${forward.join("|") || "?p"} ${s} }`,
          },
          t.at,
        );
      }
    }
    if (p.kind === "var") {
      this.asEntity(t.s, undefined, t.at);
      return;
    }
    if (p.kind === "iri") {
      this.typedTriple(t.s, p, t.o, t.at);
      return;
    }
    // property paths: a single IRI under inverse is typed; every IRI is checked for existence
    if (p.kind === "inv" && p.path.kind === "link") {
      this.typedTriple(t.o, p.path.iri, t.s, t.at);
      return;
    }
    for (const iri of pathIris(p)) this.knownProperty(iri);
    const first = firstLink(p);
    if (first && first.value === RDF_TYPE && t.o.kind === "iri") this.knownClass(t.o);
    // no node-kind inference through longer paths: a zero-length path (p?, p*) or an inverse step may start at a literal
  }

  /**
   * Existence of the IRIs in the subject and object positions of a triple pattern (the
   * predicate and the class of rdf:type are checked by the typing). The role (class,
   * property or plain term) comes from the predicate, see POSITION_ROLES.
   */
  nodeIris(t: TriplePattern): void {
    let pred: string | undefined;
    let s = t.s;
    let o = t.o;
    if (t.p.kind === "iri") pred = t.p.value;
    else if (t.p.kind === "inv" && t.p.path.kind === "link") [pred, s, o] = [t.p.path.iri.value, t.o, t.s];
    else if (t.p.kind !== "var") pred = firstLink(t.p)?.value === RDF_TYPE ? RDF_TYPE : undefined;
    const roles = pred ? POSITION_ROLES[pred] : undefined;
    if (s.kind === "iri") this.knownTerm(s, roles?.s ?? "term");
    // the class of rdf:type (also as the first step of a path) is checked as a class by the typing
    if (o.kind === "iri" && pred !== RDF_TYPE) this.knownTerm(o, roles?.o ?? "term");
  }

  typedTriple(s: Term, p: Iri, o: Term, at: Origin | undefined): void {
    if (p.value === RDF_TYPE) {
      this.asEntity(s, undefined, at);
      if (o.kind === "iri") {
        if (this.knownClass(o) && s.kind === "var") this.addClass(s.name, o.value, o.at ?? at);
      } else if (o.kind === "literal") {
        this.report({ code: "type-mismatch", severity: "error", message: `type mismatch: rdf:type expects a class, got the literal ${this.show(o)}`, term: this.show(o) }, o.at ?? at);
      } else if (o.kind === "var") this.setKind(o.name, "entity", "the object of rdf:type", o.at ?? at, undefined);
      return;
    }
    const known = this.knownProperty(p);
    const pName = this.name(p.value);
    this.asEntity(s, pName, at);
    if (!known) return;
    const info = this.schema.properties.get(p.value);
    if (!info) return; // known without a declaration (rdf:_n): nothing to type
    for (const d of this.schema.domainsOf(p.value)) if (s.kind === "var" && this.schema.isClass(d)) this.addClass(s.name, d, at);
    const ranges = this.schema.rangesOf(p.value);
    const classRanges = ranges.filter((r) => this.schema.isClass(r) && !this.schema.isDatatype(r));
    const dataRanges = ranges.filter((r) => this.schema.isDatatype(r));
    const kind = info.kind !== "unknown" ? info.kind : classRanges.length ? "object" : dataRanges.length ? "datatype" : "unknown";
    if (kind === "object") {
      const expects = classRanges.length ? `an entity of ${classRanges.map((r) => this.name(r)).join(" and ")}` : "an entity";
      if (o.kind === "literal") {
        this.report({ code: "type-mismatch", severity: "error", message: `type mismatch: ${pName} expects ${expects}, got the literal ${this.show(o)}`, term: this.show(o) }, o.at ?? at);
      } else if (o.kind === "var") {
        const v = this.info(o.name);
        if (v.kind === "literal") {
          this.report({ code: "type-mismatch", severity: "error", message: `type mismatch: ?${o.name} is a literal but ${pName} expects ${expects}`, term: `?${o.name}`, related: v.kindAt ? [{ message: `?${o.name} is a literal as ${v.kindAt}` }] : undefined }, o.at ?? at);
        } else {
          this.setKind(o.name, "entity", `the object of ${pName}`, o.at ?? at, undefined);
          for (const r of classRanges) this.addClass(o.name, r, at);
        }
      }
    } else if (kind === "datatype") {
      const dt = dataRanges[0];
      const expects = dt ? `a literal of ${this.name(dt)}` : "a literal";
      if (o.kind === "iri") {
        this.report({ code: "type-mismatch", severity: "error", message: `type mismatch: ${pName} expects ${expects}, got the entity ${this.show(o)}`, term: this.show(o) }, o.at ?? at);
      } else if (o.kind === "var") {
        const v = this.info(o.name);
        if (v.kind === "entity") {
          this.report({ code: "type-mismatch", severity: "error", message: `type mismatch: ?${o.name} is an entity but ${pName} expects ${expects}`, term: `?${o.name}`, related: v.kindAt ? [{ message: `?${o.name} is an entity as ${v.kindAt}` }] : undefined }, o.at ?? at);
        } else {
          this.setKind(o.name, "literal", `the object of ${pName}`, o.at ?? at, dt);
        }
      }
    }
  }

  /** The subject of a triple is an entity: a literal there is a type mismatch. */
  asEntity(s: Term, pName: string | undefined, at: Origin | undefined): void {
    const role = pName ? `the subject of ${pName}` : "a triple subject";
    if (s.kind === "literal") {
      this.report({ code: "type-mismatch", severity: "error", message: `type mismatch: ${this.show(s)} is a literal but it is used as ${role}`, term: this.show(s) }, s.at ?? at);
    } else if (s.kind === "var") {
      const v = this.info(s.name);
      if (v.kind === "literal") {
        this.report({ code: "type-mismatch", severity: "error", message: `type mismatch: ?${s.name} is a literal but it is used as ${role}`, term: `?${s.name}`, related: v.kindAt ? [{ message: `?${s.name} is a literal as ${v.kindAt}` }] : undefined }, s.at ?? at);
      } else this.setKind(s.name, "entity", role, s.at ?? at, undefined);
    }
  }

  setKind(name: string, kind: "entity" | "literal", how: string, _at: Origin | undefined, datatype: string | undefined): void {
    const v = this.info(name);
    if (v.kind === "unknown") {
      v.kind = kind;
      v.kindAt = how;
    }
    if (kind === "literal" && datatype && !v.datatype) {
      v.datatype = datatype;
      if (this.schema.isNumericDatatype(datatype)) v.numeric = true;
    }
  }

  setType(name: string, t: ExprType, at: Origin | undefined): void {
    const v = this.info(name);
    if (t.kind !== "unknown") this.setKind(name, t.kind, t.from ?? "an expression", at, t.datatype);
    if (t.numeric) v.numeric = true;
    if (t.aggregate) v.aggregate = true;
  }

  addClass(name: string, cls: string, at: Origin | undefined): void {
    if (this.schema.isTopClass(cls)) return;
    const v = this.info(name);
    if (v.classes.some((e) => this.schema.isSubClassOf(e, cls))) return;
    const below = v.classes.filter((e) => this.schema.isSubClassOf(cls, e));
    if (below.length) {
      v.classes = v.classes.filter((e) => !below.includes(e)).concat(cls);
      return;
    }
    if (v.classes.length) {
      const other = v.classes[0];
      this.report(
        { code: "unrelated-classes", severity: "warning", message: `?${name} has two unrelated classes: ${this.name(other)} and ${this.name(cls)}`, term: `?${name}`, candidates: [this.name(other), this.name(cls)] },
        at,
      );
    }
    v.classes.push(cls);
  }

  exprType(e: Expr): ExprType {
    const none: ExprType = { kind: "unknown", numeric: false, aggregate: false };
    switch (e.kind) {
      case "term": {
        const t = e.term;
        if (t.kind === "literal") return { kind: "literal", numeric: this.schema.isNumericDatatype(t.datatype), aggregate: false, datatype: t.datatype, from: `the literal ${this.show(t)}` };
        if (t.kind === "iri") return { kind: "entity", numeric: false, aggregate: false, from: `the IRI ${this.show(t)}` };
        if (t.kind === "var") {
          const v = this.vars.get(t.name);
          return v ? { kind: v.kind, numeric: v.numeric, aggregate: v.aggregate, datatype: v.datatype, from: v.kindAt } : none;
        }
        return none;
      }
      case "aggregate": {
        const n = e.name;
        if (n === "count" || n === "sum" || n === "avg") return { kind: "literal", numeric: true, aggregate: true, datatype: n === "count" ? `${XSD}integer` : undefined, from: `${n.toUpperCase()}(…)` };
        if (n === "group_concat") return { kind: "literal", numeric: false, aggregate: true, datatype: `${XSD}string`, from: "GROUP_CONCAT(…)" };
        const inner = e.arg === "*" ? none : this.exprType(e.arg);
        return { ...inner, aggregate: true };
      }
      case "exists":
        return { kind: "literal", numeric: false, aggregate: false, datatype: `${XSD}boolean`, from: "EXISTS" };
      case "call": {
        const n = e.name;
        if (e.iri) {
          if (n.startsWith(XSD)) return { kind: "literal", numeric: this.schema.isNumericDatatype(n), aggregate: e.args.some(hasAggregate), datatype: n, from: `a cast to ${this.name(n)}` };
          return { ...none, aggregate: e.args.some(hasAggregate) };
        }
        const aggregate = e.args.some(hasAggregate);
        if (NUMERIC_FUNCS.has(n)) return { kind: "literal", numeric: true, aggregate, from: `the expression ${exprToSparql(e, this.prefixes)}` };
        if (BOOLEAN_FUNCS.has(n)) return { kind: "literal", numeric: false, aggregate, datatype: `${XSD}boolean`, from: `the expression ${exprToSparql(e, this.prefixes)}` };
        if (STRING_FUNCS.has(n)) return { kind: "literal", numeric: false, aggregate, from: `the expression ${exprToSparql(e, this.prefixes)}` };
        if (ENTITY_FUNCS.has(n)) return { kind: "entity", numeric: false, aggregate, from: `the expression ${exprToSparql(e, this.prefixes)}` };
        if ((n === "if" || n === "coalesce") && e.args.length) return { ...this.exprType(e.args[n === "if" ? 1 : 0] ?? e.args[0]), aggregate };
        return { ...none, aggregate };
      }
    }
  }
}
