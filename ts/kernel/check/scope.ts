/**
 * The kernel: checks a plan against a schema and a goal in one pass over the
 * algebra; nothing is executed (DESIGN §2, after the seed's kernel.py).
 *
 * Typing: `?x a C` gives `?x : C`; `?x p ?y` gives `?x` the domains and `?y`
 * the ranges of `p` (inherited through rdfs:subPropertyOf); classes are
 * compared up to rdfs:subClassOf (the closure). Two unrelated classes on one
 * variable are a warning: RDF is open world and the schema need not declare
 * disjointness. Scoping follows SPARQL 1.1 §18.2.1: a FILTER sees its whole
 * group (and, inside OPTIONAL, the left side); BIND may not target a variable
 * in scope earlier in its group; variables only inside MINUS are not bound; a subquery
 * is its own scope, joined to the enclosing one by its projected variables only.
 * Existence: in a namespace the schema describes, predicates and classes of rdf:type must
 * be schema properties and classes; IRIs in subject, object, VALUES and expression
 * positions must be mentioned by the schema graph (see `knownTerm`).
 */
import { levenshtein } from "../deps/levenshtein.js";
import type { Expr, Group, Iri, Origin, Path, Pattern, Query, Span, Term, TriplePattern, Variable } from "./algebra.js";
import { compactIri, termToSparql, exprToSparql, pathToSparql, toSparql } from "./algebra.js";
import { RDF_TYPE, Schema, XSD, namespaceOf } from "./schema.js";
import { parseGoal, type Goal, type GoalInput } from "./goal.js";
import { compileOps, type Op, type Plan } from "./ops.js";
import { parseSparql } from "./sparql.js";

/** One finding, structured for a repair loop. `message` is the seed's wording. */
export interface Diagnostic {
  code:
    | "unknown-term"
    | "type-mismatch"
    | "unbound-filter-variable"
    | "bind-already-bound"
    | "ungrouped-projection"
    | "unrelated-classes"
    | "minus-disjoint"
    | "unbound-projection"
    | "alias-already-bound"
    | "select-star-grouped"
    | "having-alias"
    | "unbound-having-variable"
    | "blank-node-reuse"
    | "mixed-negated-property-set";
  severity: "error" | "warning";
  message: string;
  /** Where, when the plan came from text (1-based line and column). */
  span?: Span;
  /** Where, when the plan came from an op list (0-based op index). */
  op?: number;
  /** The offending term as written for the reader (`ex:hosts`, `?n`). */
  term?: string;
  /** Did-you-mean candidates, best first. */
  candidates?: string[];
  /** A repair hint beyond the message. */
  hint?: string;
  /** The edit that repairs it, written for the planner (`write HAVING (COUNT(?g) > 1)`), when one is known. */
  fix?: string;
  /** Other places the finding involves (e.g. the first binding of a variable). */
  related?: { message: string; span?: Span; op?: number }[];
}

/** What the plan establishes about one variable. */
export interface ContextEntry {
  variable: string;
  kind: "entity" | "literal" | "unknown";
  /** Most specific classes (compact names). */
  classes: string[];
  /** Literal datatype (compact), when known. */
  datatype?: string;
  numeric: boolean;
  aggregate: boolean;
  /** The rendered line, e.g. `?c : ex:City` (`?y : ex:Person (subquery 1)` for a scoped one). */
  text: string;
  /** For a variable of a subquery that the subquery does not project: which one (`subquery 1`, numbered in reading order). */
  scope?: string;
}

/** The result of `Kernel.check`. */
export interface CheckResult {
  context: ContextEntry[];
  errors: Diagnostic[];
  warnings: Diagnostic[];
  /** Open goals, in the seed's order; empty when the goal is met (or there is none). */
  openGoals: string[];
  /** Whether a goal was checked. */
  goal?: Goal;
  /** The plan, as algebra and as SPARQL text. */
  query: Query;
  sparql: string;
}

interface VarInfo {
  name: string;
  kind: "entity" | "literal" | "unknown";
  kindAt?: string;
  classes: string[];
  datatype?: string;
  numeric: boolean;
  aggregate: boolean;
}

interface Binding {
  how: string;
  at?: Origin;
  /** Projected by a SELECT whose pattern never binds it. */
  unbound?: boolean;
}

type ExprType = { kind: "entity" | "literal" | "unknown"; numeric: boolean; aggregate: boolean; datatype?: string; from?: string };

const WELL_KNOWN: Record<string, string> = {
  rdf: "http://www.w3.org/1999/02/22-rdf-syntax-ns#",
  rdfs: "http://www.w3.org/2000/01/rdf-schema#",
  owl: "http://www.w3.org/2002/07/owl#",
  xsd: XSD,
};
/** rdf:_1, rdf:_2, … (RDF 1.1 Schema §5.1.6): infinitely many, never declared. */
const CONTAINER_MEMBERSHIP = /^http:\/\/www\.w3\.org\/1999\/02\/22-rdf-syntax-ns#_[1-9][0-9]*$/;
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

/** A kernel bound to one schema. Create with `createKernel(schema)` or `new Kernel(schema)`. */
export class Kernel {
  constructor(readonly schema: Schema) {}

  /**
   * Check a plan against the schema and an optional goal, in one pass; nothing is executed.
   * @param plan SPARQL 1.1 query text; or an op list (array, or JSON text starting with `[`/`{`); or algebra
   * @param goal a Goal, or a goal as written (`{"answer":["?c"],"kind":"entity",…}`, see goalSchema) or its JSON text; defaults to the op list's goal op
   * @param options.solutions solutions the plan returned when run (enables the after-execution goal)
   * @param options.prefixes prefixes assumed when a query uses one it does not declare (an endpoint's predeclared prefixes, e.g. DBpedia's `dbo:`); the schema's are always assumed
   * @throws SparqlSyntaxError (line, column) for unparsable SPARQL; PlanError for a malformed op list; GoalError for a malformed goal
   */
  check(plan: string | readonly Op[] | Plan | Query, goal?: Goal | GoalInput | string, options: { solutions?: number; prefixes?: Record<string, string> } = {}): CheckResult {
    const prefixes = { ...this.schema.prefixes, ...options.prefixes };
    let query: Query;
    let planGoal: Goal | undefined;
    if (typeof plan === "string" && !/^\s*[[{]/.test(plan)) query = parseSparql(plan, { prefixes });
    else if (typeof plan === "string" || Array.isArray(plan) || "ops" in plan) ({ query, goal: planGoal } = compileOps(plan as Plan | string, { prefixes }));
    else query = plan as Query;
    const g = goal === undefined ? planGoal : isGoal(goal) ? goal : parseGoal(goal, { ...prefixes, ...query.prefixes });
    return this.checkQuery(query, g, { solutions: options.solutions, prefixes: options.prefixes });
  }

  /**
   * Check a plan (already compiled to the algebra) against the schema and an optional goal.
   * @param options.solutions the number of solutions the plan returned when executed (enables the after-execution goal check)
   */
  checkQuery(query: Query, goal?: Goal, options: { solutions?: number; prefixes?: Record<string, string> } = {}): CheckResult {
    return new Checker(this.schema, query, options.prefixes).run(goal, options.solutions);
  }
}

/** A kernel for `schema`. */
export function createKernel(schema: Schema): Kernel {
  if (!(schema instanceof Schema)) {
    throw new TypeError(`createKernel: schema must be a Schema (Schema.fromGraph(graph)), got ${schema === null ? "null" : Array.isArray(schema) ? "an array" : typeof schema}`);
  }
  return new Kernel(schema);
}

class Checker {
  readonly errors: Diagnostic[] = [];
  readonly warnings: Diagnostic[] = [];
  /** The typing context of the scope being checked (the query, or the subquery inside it). */
  vars = new Map<string, VarInfo>();
  /** Variables of subqueries that are not projected out of them: distinct from same-named ones outside. */
  readonly scoped: { scope: string; info: VarInfo }[] = [];
  subqueries = 0;
  /** Which basic graph pattern (an identity object) each explicit blank node label belongs to. */
  readonly bnodeOwner = new Map<string, object>();
  readonly prefixes: Record<string, string>;

  constructor(
    readonly schema: Schema,
    readonly query: Query,
    assumed: Record<string, string> = {},
  ) {
    // names in messages: the query's own prefixes first, then the schema's (not its empty prefix, which reads badly as ":Name"), then the RDF vocabularies
    const schemaPrefixes = Object.fromEntries(Object.entries(schema.prefixes).filter(([p]) => p !== ""));
    this.prefixes = { ...WELL_KNOWN, ...schemaPrefixes, ...assumed, ...query.prefixes };
  }

  name(iri: string): string {
    return compactIri(iri, this.prefixes);
  }

  show(term: Term): string {
    return termToSparql(term, this.prefixes);
  }

  report(d: Omit<Diagnostic, "span" | "op">, at?: Origin): void {
    const full: Diagnostic = { ...d };
    if (at?.span) full.span = at.span;
    if (at?.op !== undefined) full.op = at.op;
    (d.severity === "error" ? this.errors : this.warnings).push(full);
  }

  info(name: string): VarInfo {
    let v = this.vars.get(name);
    if (!v) this.vars.set(name, (v = { name, kind: "unknown", classes: [], numeric: false, aggregate: false }));
    return v;
  }

  run(goal: Goal | undefined, solutions: number | undefined): CheckResult {
    const q = this.query;
    const inScope = this.checkQuery(q);
    const context = [...this.vars.values()].map((v) => this.entry(v)).concat(this.scoped.map((s) => this.entry(s.info, s.scope)));
    // the goal's class is vocabulary too: a misspelt one is an unknown class, not merely an open goal
    if (goal?.type) this.knownClass({ kind: "iri", value: goal.type });
    const openGoals = goal ? this.openGoals(goal, inScope, solutions) : [];
    return { context, errors: this.errors, warnings: this.warnings, openGoals, goal, query: q, sparql: toSparql(q) };
  }

  entry(v: VarInfo, scope?: string): ContextEntry {
    const classes = v.classes.map((c) => this.name(c));
    const datatype = v.datatype ? this.name(v.datatype) : undefined;
    let shown: string;
    if (classes.length) shown = classes.join(", ");
    else if (v.kind === "literal") shown = datatype ?? (v.numeric ? "number" : "literal");
    else if (v.kind === "entity") shown = "entity";
    else shown = "(untyped)";
    const entry: ContextEntry = { variable: `?${v.name}`, kind: v.kind, classes, datatype, numeric: v.numeric, aggregate: v.aggregate, text: `?${v.name} : ${shown}${scope ? ` (${scope})` : ""}` };
    if (scope) entry.scope = scope;
    return entry;
  }

  // ------------------------------------------------------------ queries

  /** Check a (sub)query; returns the variables it makes visible (projected, or in scope for SELECT *). */
  checkQuery(q: Query): Map<string, Binding> {
    const bound = this.group(q.where, new Set());
    if (q.values) this.values(q.values, bound);
    const grouped = q.groupBy.length > 0 || (q.projection !== "*" && q.projection.some((c) => c.expr && hasAggregate(c.expr))) || q.having.some(hasAggregate);
    const groupVars = new Set<string>();
    const groupExprs: { expr: Expr; text: string }[] = [];
    for (const iri of q.describe ?? []) if (iri.kind === "iri") this.knownTerm(iri, "term");
    for (const o of q.orderBy) this.exprCheck(o.expr, new Set(bound.keys()));
    for (const g of q.groupBy) {
      this.exprCheck(g.expr, new Set(bound.keys()));
      for (const v of varsOf(g.expr)) if (!bound.has(v.name)) this.unboundNotice(v, bound, "GROUP BY");
      if (g.variable) {
        if (bound.has(g.variable.name) || groupVars.has(g.variable.name)) {
          const written = `(${exprToSparql(g.expr, this.prefixes)} AS ?${g.variable.name})`;
          const first = bound.get(g.variable.name) ?? { how: "GROUP BY" };
          this.report(
            {
              code: "alias-already-bound",
              severity: "error",
              message: `${written} in GROUP BY: ?${g.variable.name} is already bound (SPARQL 1.1 §18.2.4.1)`,
              term: `?${g.variable.name}`,
              related: [{ message: `?${g.variable.name} is bound by ${first.how}`, ...originFields(first.at) }],
            },
            g.variable.at ?? g.at,
          );
        }
        groupVars.add(g.variable.name);
        this.setType(g.variable.name, this.exprType(g.expr), g.at);
      } else if (g.expr.kind === "term" && g.expr.term.kind === "var") groupVars.add(g.expr.term.name);
      else groupExprs.push({ expr: g.expr, text: exprToSparql(g.expr, this.prefixes) });
    }
    const visible = new Map<string, Binding>();
    if (q.projection === "*") {
      // SELECT * in a grouped query would project ungrouped variables: not SPARQL (§11.4; the W3C negative test syn-bad-01)
      if (grouped) {
        const keep = [...groupVars].map((v) => `?${v}`);
        this.report(
          {
            code: "select-star-grouped",
            severity: "error",
            message: `SELECT * is not allowed in a grouped query (SPARQL 1.1 §11.4: only grouped variables and aggregates can be projected)`,
            term: "*",
            fix: `write SELECT ${keep.length ? keep.join(" ") : "(COUNT(*) AS ?n)"}${keep.length ? " and the aggregates you need, e.g. (COUNT(*) AS ?n)" : ""}`,
          },
          q.starAt ?? q.at,
        );
      }
      this.having(q, bound, groupVars, new Map());
      for (const [k, v] of bound) visible.set(k, v);
      return visible;
    }
    const aliases = new Set<string>();
    const aliasExprs = new Map<string, Expr>();
    for (const col of q.projection) {
      const name = col.variable.name;
      if (!col.expr) {
        const unbound = !grouped && !bound.has(name) && !aliases.has(name);
        if (grouped) {
          if (!groupVars.has(name) && !aliases.has(name)) this.ungrouped(col.variable, col.at, undefined, groupExprs, name);
        } else if (unbound) {
          this.unboundNotice(col.variable, bound, "projection");
        }
        visible.set(name, bound.get(name) ?? { how: "projection", at: col.at, ...(unbound ? { unbound } : {}) });
        continue;
      }
      if (grouped) {
        for (const v of freeVars(col.expr)) {
          if (!groupVars.has(v.name) && !aliases.has(v.name)) this.ungrouped(v, v.at ?? col.at, col, groupExprs, name);
        }
      }
      if (bound.has(name) || aliases.has(name) || groupVars.has(name)) {
        const first = bound.get(name) ?? visible.get(name) ?? { how: "GROUP BY" };
        const written = `(${exprToSparql(col.expr, this.prefixes)} AS ?${name})`;
        this.report(
          {
            code: "alias-already-bound",
            severity: "error",
            message: `${written} in SELECT: ?${name} is already bound (SPARQL 1.1 §18.2.4.1)`,
            term: `?${name}`,
            fix: `name it with a new variable, e.g. ${written.replace(new RegExp(`AS \\?${name}\\)$`), `AS ?${name}2)`)}`,
            related: [{ message: `?${name} is bound by ${first.how}`, ...originFields(first.at) }],
          },
          col.variable.at ?? col.at,
        );
      }
      this.exprCheck(col.expr, new Set(bound.keys()));
      this.setType(name, this.exprType(col.expr), col.at);
      aliases.add(name);
      aliasExprs.set(name, col.expr);
      visible.set(name, { how: `(… AS ?${name})`, at: col.at });
    }
    this.having(q, bound, groupVars, aliasExprs);
    return visible;
  }

  /**
   * HAVING is evaluated after grouping and before SELECT's expressions (SPARQL 1.1 §18.2.4.1,
   * §11.5): a SELECT alias is unbound there (Oxigraph silently returns no rows), a variable
   * bound nowhere is unbound, and a variable outside an aggregate must be grouped.
   */
  having(q: Query, bound: Map<string, Binding>, groupVars: Set<string>, aliasExprs: Map<string, Expr>): void {
    for (const h of q.having) {
      this.exprCheck(h, new Set(bound.keys()));
      const seen = new Set<string>();
      for (const v of freeVars(h)) {
        if (seen.has(v.name)) continue;
        seen.add(v.name);
        const alias = aliasExprs.get(v.name);
        if (alias && !groupVars.has(v.name)) {
          const fixed = exprToSparql(substitute(h, v.name, alias), this.prefixes);
          const text = exprToSparql(alias, this.prefixes);
          this.report(
            {
              code: "having-alias",
              severity: "error",
              message: `HAVING uses ?${v.name}, the name of (${text} AS ?${v.name}) in SELECT, which is not bound yet: HAVING is evaluated before SELECT (SPARQL 1.1 §18.2.4.1)`,
              term: `?${v.name}`,
              fix: `write HAVING (${fixed.replace(/^\((.*)\)$/s, "$1")})`,
            },
            v.at ?? q.havingAt,
          );
        } else if (!bound.has(v.name) && !groupVars.has(v.name)) {
          const candidates = closest(v.name, [...bound.keys(), ...groupVars], { variables: true }).map((c) => `?${c}`);
          this.report({ code: "unbound-having-variable", severity: "error", message: `unbound variable ?${v.name} in HAVING`, term: `?${v.name}`, candidates }, v.at ?? q.havingAt);
        } else if (!groupVars.has(v.name)) {
          this.report(
            { code: "ungrouped-projection", severity: "error", message: `?${v.name} in HAVING is neither grouped nor aggregated`, term: `?${v.name}`, hint: `add ?${v.name} to GROUP BY or wrap it in an aggregate such as SAMPLE(?${v.name})` },
            v.at ?? q.havingAt,
          );
        }
      }
    }
  }

  ungrouped(v: Variable, at: Origin | undefined, col: { expr?: Expr; variable: Variable } | undefined, groupExprs: { expr: Expr; text: string }[], alias: string): void {
    if (this.errors.some((e) => e.code === "ungrouped-projection" && e.term === `?${v.name}` && sameOrigin(e, at))) return;
    let hint: string | undefined;
    if (col?.expr) {
      const text = exprToSparql(col.expr, this.prefixes);
      const match = groupExprs.find((g) => g.text === text);
      if (match) hint = `the expression ${text} is grouped but not named: write GROUP BY (${text} AS ?${alias}) and project ?${alias}`;
    }
    if (!hint) hint = `add ?${v.name} to GROUP BY or wrap it in an aggregate such as SAMPLE(?${v.name})`;
    this.report({ code: "ungrouped-projection", severity: "error", message: `?${v.name} is neither grouped nor aggregated`, term: `?${v.name}`, hint }, at);
  }

  unboundNotice(v: Variable, bound: Map<string, Binding>, where: string): void {
    const candidates = closest(v.name, [...bound.keys()], { variables: true }).map((c) => `?${c}`);
    const suffix = candidates.length ? ` (did you mean ${candidates[0]}?)` : "";
    this.report(
      { code: "unbound-projection", severity: "warning", message: `?${v.name} is ${where === "projection" ? "projected" : `used in ${where}`} but never bound${suffix}`, term: `?${v.name}`, candidates },
      v.at,
    );
  }

  // ------------------------------------------------------------ patterns

  /**
   * Walk a group graph pattern. `visible` are variables a FILTER of this group may
   * also see (the left side of an OPTIONAL, the enclosing group of an EXISTS).
   * Returns the variables in scope after the group, with where each was first bound.
   */
  group(g: Group, visible: Set<string>): Map<string, Binding> {
    const bound = new Map<string, Binding>();
    const filters: Pattern[] = [];
    const bind = (name: string, b: Binding) => {
      if (!bound.has(name)) bound.set(name, b);
    };
    // one basic graph pattern runs across FILTERs and BINDs (they are collected apart, §18.2.2); any other pattern ends it
    let bgpScope = {};
    for (const p of g.patterns) {
      if (p.type !== "bgp" && p.type !== "filter" && p.type !== "bind") bgpScope = {};
      switch (p.type) {
        case "bgp":
          this.blankNodeScope(p.triples, bgpScope);
          for (const t of p.triples) {
            this.triple(t);
            for (const v of tripleVars(t)) bind(v.name, { how: `the triple pattern ${this.tripleText(t)}`, at: t.at ?? v.at });
          }
          break;
        case "group":
        case "graph":
        case "service": {
          const inner = this.group(p.type === "group" ? p : p.group, new Set());
          if (p.type !== "group" && p.name.kind === "var") bind(p.name.name, { how: `${p.type.toUpperCase()} ?${p.name.name}`, at: p.at });
          for (const [k, b] of inner) bind(k, b);
          break;
        }
        case "optional": {
          const inner = this.group(p.group, new Set([...visible, ...bound.keys()]));
          for (const [k, b] of inner) bind(k, b);
          break;
        }
        case "union":
          for (const branch of p.branches) for (const [k, b] of this.group(branch, new Set())) bind(k, b);
          break;
        case "minus": {
          const inner = this.group(p.group, new Set());
          const shared = [...inner.keys()].some((k) => bound.has(k));
          if (!shared)
            this.report({ code: "minus-disjoint", severity: "warning", message: "MINUS shares no variable with its left side and removes nothing" }, p.at);
          break; // variables only inside MINUS are not bound
        }
        case "filter":
          filters.push(p);
          break;
        case "bind": {
          const name = p.variable.name;
          if (bound.has(name)) {
            const first = bound.get(name)!;
            this.report(
              {
                code: "bind-already-bound",
                severity: "error",
                message: `BIND target ?${name} is already bound`,
                term: `?${name}`,
                related: [{ message: `?${name} is bound by ${first.how}`, ...originFields(first.at) }],
              },
              p.at,
            );
          }
          this.exprCheck(p.expr, new Set([...bound.keys(), ...visible]));
          this.setType(name, this.exprType(p.expr), p.at);
          bind(name, { how: `BIND(… AS ?${name})`, at: p.at });
          break;
        }
        case "values":
          this.values(p, bound);
          break;
        case "subquery":
          for (const [k, b] of this.subquery(p.query, p.at)) bind(k, b);
          break;
      }
    }
    const scope = new Set([...bound.keys(), ...visible]);
    for (const f of filters) if (f.type === "filter") this.filter(f.expr, scope, f.at);
    return bound;
  }

  /**
   * SPARQL 1.1 §4.1.4: a blank node label can be used in only one basic graph pattern of a
   * query (in another it would be a different node: the join the author meant does not happen).
   */
  blankNodeScope(triples: TriplePattern[], scope: object): void {
    for (const { label, at } of explicitBlankNodes(triples)) {
      const owner = this.bnodeOwner.get(label);
      if (owner === undefined) this.bnodeOwner.set(label, scope);
      else if (owner !== scope && !this.errors.some((e) => e.code === "blank-node-reuse" && e.term === `_:${label}`)) {
        this.report(
          {
            code: "blank-node-reuse",
            severity: "error",
            message: `the blank node _:${label} is used in two basic graph patterns (SPARQL 1.1 §4.1.4: a label belongs to one basic graph pattern)`,
            term: `_:${label}`,
            fix: `write a variable, ?${label.replace(/[^A-Za-z0-9_]/g, "_")}, for _:${label}`,
          },
          at,
        );
      }
    }
  }

  /**
   * A subquery is its own variable scope (SPARQL 1.1 §18.2.1, evaluated bottom-up): it is
   * typed in a fresh context, and only its projected variables join the enclosing one,
   * carrying their kind, classes and datatype across (a literal on one side and an entity on
   * the other is a type mismatch; unrelated classes a warning). Its other variables are
   * distinct from same-named ones outside and stay in the context marked `subquery N`.
   */
  subquery(q: Query, at: Origin | undefined): Map<string, Binding> {
    const outer = this.vars;
    const scope = `subquery ${++this.subqueries}`;
    this.vars = new Map();
    const visible = this.checkQuery(q);
    const inner = this.vars;
    this.vars = outer;
    for (const v of inner.values()) if (!visible.has(v.name)) this.scoped.push({ scope, info: v });
    for (const name of visible.keys()) {
      const vi = inner.get(name);
      if (!vi) continue;
      const vo = this.info(name);
      if (vi.kind !== "unknown" && vo.kind !== "unknown" && vi.kind !== vo.kind) {
        this.report(
          {
            code: "type-mismatch",
            severity: "error",
            message: `type mismatch: ?${name} is ${article(vo.kind)} but the subquery binds it as ${article(vi.kind)}${vi.kindAt ? ` (${vi.kindAt})` : ""}`,
            term: `?${name}`,
            related: vo.kindAt ? [{ message: `?${name} is ${article(vo.kind)} as ${vo.kindAt}` }] : undefined,
          },
          at,
        );
        continue;
      }
      if (vi.kind !== "unknown") this.setKind(name, vi.kind, vi.kindAt ?? "a subquery", at, vi.datatype);
      if (vi.numeric) vo.numeric = true;
      if (vi.aggregate) vo.aggregate = true;
      for (const c of vi.classes) this.addClass(name, c, at);
    }
    return visible;
  }

  values(p: { variables: Variable[]; rows: (Term | undefined)[][]; at?: Origin }, bound: Map<string, Binding>): void {
    for (const row of p.rows) for (const t of row) if (t?.kind === "iri") this.knownTerm(t, "term");
    p.variables.forEach((v, i) => {
      if (!bound.has(v.name)) bound.set(v.name, { how: `VALUES ?${v.name}`, at: p.at });
      const kinds = new Set(p.rows.map((r) => r[i]).filter((t): t is Term => !!t).map((t) => (t.kind === "literal" ? "literal" : "entity")));
      if (kinds.size === 1) {
        const kind = [...kinds][0] as "entity" | "literal";
        const numeric = kind === "literal" && p.rows.every((r) => !r[i] || (r[i]!.kind === "literal" && this.schema.isNumericDatatype((r[i] as { datatype: string }).datatype)));
        this.setType(v.name, { kind, numeric, aggregate: false, from: `VALUES ?${v.name}` }, p.at);
      }
    });
  }

  filter(expr: Expr, scope: Set<string>, at: Origin | undefined): void {
    const seen = new Set<string>();
    for (const v of freeVars(expr, true)) {
      if (scope.has(v.name) || seen.has(v.name)) continue;
      seen.add(v.name);
      const candidates = closest(v.name, [...scope], { variables: true }).map((c) => `?${c}`);
      this.report({ code: "unbound-filter-variable", severity: "error", message: `unbound variable ?${v.name} in FILTER`, term: `?${v.name}`, candidates }, v.at ?? at);
    }
    this.exprCheck(expr, scope);
  }

  /** Walk an expression for EXISTS patterns (checked with the enclosing scope visible) and IRI constants in described namespaces (function names are not checked). */
  exprCheck(expr: Expr, scope: Set<string>): void {
    switch (expr.kind) {
      case "exists":
        this.group(expr.group, scope);
        return;
      case "call":
        for (const a of expr.args) this.exprCheck(a, scope);
        return;
      case "aggregate":
        if (expr.arg !== "*") this.exprCheck(expr.arg, scope);
        return;
      case "term":
        if (expr.term.kind === "iri") this.knownTerm(expr.term, "term");
        return;
    }
  }

  tripleText(t: TriplePattern): string {
    const p = t.p.kind === "iri" && t.p.value === RDF_TYPE ? "a" : t.p.kind === "iri" || t.p.kind === "var" ? this.show(t.p) : "(path)";
    return `${this.show(t.s)} ${p} ${this.show(t.o)}`;
  }

  // ------------------------------------------------------------ typing

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

  // ------------------------------------------------------------ vocabulary

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

  // ------------------------------------------------------------ goals

  openGoals(goal: Goal, visible: Map<string, Binding>, solutions: number | undefined): string[] {
    const q = this.query;
    const open: string[] = [];
    if (goal.kind === "boolean") {
      if (q.form !== "ask") open.push("a yes-or-no question is not an ASK");
    } else {
      if (q.form === "ask") open.push(`the goal asks for ${goal.answer.map((a) => `?${a}`).join(", ")} but the plan is an ASK`);
      const projected = q.projection === "*" ? [...visible.keys()] : q.projection.map((c) => c.variable.name);
      for (const a of goal.answer) {
        const v = this.vars.get(a);
        const isBound = visible.has(a) && !visible.get(a)!.unbound;
        // not projected says it all: "not bound" too would send a planner to add patterns it does not need
        if (q.form !== "ask" && !projected.includes(a)) {
          open.push(`answer ?${a} is not projected`);
          continue;
        }
        if (!isBound) open.push(`answer ?${a} is not bound`);
        if (!isBound) continue;
        if (goal.kind === "number" && !(v && (v.numeric || v.aggregate))) open.push(`answer ?${a} is not a number: not an aggregate or a numeric value`);
        if (goal.kind === "entity" && v?.kind === "literal") open.push(`answer ?${a} should be an entity but is a literal`);
        if (goal.kind === "literal" && v?.kind === "entity") open.push(`answer ?${a} should be a literal but is an entity`);
        if (goal.type && !(v && v.classes.some((c) => this.schema.isSubClassOf(c, goal.type!))))
          open.push(`answer ?${a} is not established as ${this.name(goal.type)}`);
      }
      if (q.form === "select") for (const p of projected) if (!goal.answer.includes(p)) open.push(`?${p} is projected but is not an answer`);
    }
    if (!goal.many && solutions !== undefined && solutions > 1) open.push(`one answer was asked for, but the plan returned ${solutions} solutions`);
    return open;
  }
}

// ---------------------------------------------------------------- helpers

function article(kind: "entity" | "literal" | "unknown"): string {
  return kind === "entity" ? "an entity" : kind === "literal" ? "a literal" : "untyped";
}

function isGoal(g: Goal | GoalInput | string): g is Goal {
  if (typeof g !== "object" || g === null) return false;
  return Array.isArray(g.answer) && typeof g.many === "boolean" && (g.answer as unknown[]).every((a) => typeof a === "string" && !a.startsWith("?")) && !("op" in g);
}

/**
 * The plan state the planner is shown each turn (the seed's text): `context:` with one
 * `?v : Class` line per variable, then `open goals:` lines or `goals accomplished`;
 * then `errors:` and `warnings:` sections, only when there are some (a diagnostic's `fix`, when
 * it has one, on the line after it as `    fix: …`).
 */
export function renderPlanState(result: Pick<CheckResult, "context" | "openGoals" | "errors" | "warnings">): string {
  const lines = ["context:"];
  for (const c of result.context) lines.push(`  ${c.text}`);
  lines.push("open goals:");
  if (result.openGoals.length) for (const g of result.openGoals) lines.push(`  ${g}`);
  else lines.push("  goals accomplished");
  // ops are counted from 1 in text, as in PlanError messages (Diagnostic.op is the 0-based index)
  const where = (d: Diagnostic) => (d.span ? ` (line ${d.span.line}, column ${d.span.column})` : d.op !== undefined ? ` (op ${d.op + 1})` : "");
  if (result.errors.length) {
    lines.push("errors:");
    for (const e of result.errors) lines.push(`  ${e.message}${where(e)}`, ...(e.fix ? [`    fix: ${e.fix}`] : []));
  }
  if (result.warnings.length) {
    lines.push("warnings:");
    for (const w of result.warnings) lines.push(`  ${w.message}${where(w)}`, ...(w.fix ? [`    fix: ${w.fix}`] : []));
  }
  return lines.join("\n") + "\n";
}

function originFields(at: Origin | undefined): { span?: Span; op?: number } {
  const out: { span?: Span; op?: number } = {};
  if (at?.span) out.span = at.span;
  if (at?.op !== undefined) out.op = at.op;
  return out;
}

function sameOrigin(d: Diagnostic, at: Origin | undefined): boolean {
  return (d.span?.start ?? -1) === (at?.span?.start ?? -1) && d.op === at?.op;
}

/**
 * Up to 3 names within edit distance 2 (3 for names of 12+ characters), best first.
 * Distance: Levenshtein (fastest-levenshtein) — except that a swap of two neighbouring
 * characters counts as one edit (optimal string alignment), because a typed near miss
 * is as often a transposition as a wrong letter. A case-only difference counts as near.
 * Ties: the longer common prefix, then the closer length, then by code unit order.
 */
export function closest(word: string, pool: string[], options: { variables?: boolean } = {}): string[] {
  const limit = word.length >= 12 ? 3 : 2;
  const scored: [number, number, number, string][] = [];
  const lower = word.toLowerCase();
  const distance = levenshtein();
  for (const w of pool) {
    if (w === word) continue;
    if (Math.abs(w.length - word.length) > limit) continue;
    let d = distance(word, w);
    // OSA ≥ Levenshtein / 2, so only pairs within 2×limit can still be near with swaps
    if (d > limit && d <= 2 * limit) d = Math.min(d, osaDistance(word, w));
    if (d > limit) {
      if (w.toLowerCase() === lower) d = limit;
      else continue;
    }
    // a variable name of one or two letters is "near" every other: only suggest a real near miss
    if (options.variables && d * 2 >= word.length) continue;
    let prefix = 0;
    while (prefix < w.length && prefix < word.length && w[prefix] === word[prefix]) prefix++;
    scored.push([d, -prefix, Math.abs(w.length - word.length), w]);
  }
  scored.sort((a, b) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2] || (a[3] < b[3] ? -1 : a[3] > b[3] ? 1 : 0));
  return [...new Set(scored.map((s) => s[3]))].slice(0, 3);
}

/** Optimal string alignment distance (Levenshtein plus adjacent transposition), O(|a|·|b|), over UTF-16 code units. */
function osaDistance(a: string, b: string): number {
  const n = a.length;
  const m = b.length;
  let prev2 = new Array<number>(m + 1).fill(0);
  let prev = Array.from({ length: m + 1 }, (_, j) => j);
  let cur = new Array<number>(m + 1).fill(0);
  for (let i = 1; i <= n; i++) {
    cur[0] = i;
    for (let j = 1; j <= m; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, prev2[j - 2] + 1);
      cur[j] = v;
    }
    [prev2, prev, cur] = [prev, cur, prev2];
  }
  return prev[m];
}

function tripleVars(t: TriplePattern): Variable[] {
  const out: Variable[] = [];
  if (t.s.kind === "var") out.push(t.s);
  if (t.p.kind === "var") out.push(t.p);
  if (t.o.kind === "var") out.push(t.o);
  return out;
}

function pathIris(p: Path): Iri[] {
  switch (p.kind) {
    case "link":
      return [p.iri];
    case "inv":
    case "mod":
      return pathIris(p.path);
    case "seq":
    case "alt":
    case "nps":
      return p.items.flatMap(pathIris);
  }
}

function firstLink(p: Path): Iri | undefined {
  if (p.kind === "link") return p.iri;
  if (p.kind === "seq") return firstLink(p.items[0]);
  return undefined;
}

/** Whether an expression contains an aggregate (not looking into EXISTS). */
export function hasAggregate(e: Expr): boolean {
  if (e.kind === "aggregate") return true;
  if (e.kind === "call") return e.args.some(hasAggregate);
  return false;
}

/** Variables of an expression outside aggregates (and outside EXISTS unless `intoExists`... never: EXISTS has its own scope). */
function freeVars(e: Expr, _filter = false): Variable[] {
  switch (e.kind) {
    case "term":
      return e.term.kind === "var" ? [{ ...e.term, at: e.term.at ?? e.at }] : [];
    case "call":
      if (!e.iri && e.name === "bound") return e.args.flatMap((a) => freeVars(a)).length ? [] : [];
      return e.args.flatMap((a) => freeVars(a));
    case "aggregate":
    case "exists":
      return [];
  }
}

/** `e` with every free occurrence of ?name (outside aggregates and EXISTS) replaced by `by`. */
function substitute(e: Expr, name: string, by: Expr): Expr {
  if (e.kind === "term") return e.term.kind === "var" && e.term.name === name ? by : e;
  if (e.kind === "call") return { ...e, args: e.args.map((a) => substitute(a, name, by)) };
  return e;
}

/** The explicit blank node labels (`_:a`, Traqula's `e_` labels; not `[]`) of a basic graph pattern. */
function explicitBlankNodes(triples: TriplePattern[]): { label: string; at?: Origin }[] {
  const out: { label: string; at?: Origin }[] = [];
  for (const t of triples) for (const n of [t.s, t.o]) if (n.kind === "bnode" && n.label.startsWith("e_")) out.push({ label: n.label.slice(2), at: n.at ?? t.at });
  return out;
}

/** Negated property sets of a path that mix forward and inverse members (`!(ex:r|^ex:r)`). */
function mixedNegatedSets(p: Path): Path[] {
  switch (p.kind) {
    case "nps": {
      const inverse = p.items.filter((i) => i.kind === "inv").length;
      return inverse > 0 && inverse < p.items.length ? [p] : [];
    }
    case "inv":
    case "mod":
      return mixedNegatedSets(p.path);
    case "seq":
    case "alt":
      return p.items.flatMap(mixedNegatedSets);
    case "link":
      return [];
  }
}

function varsOf(e: Expr): Variable[] {
  switch (e.kind) {
    case "term":
      return e.term.kind === "var" ? [e.term] : [];
    case "call":
      return e.args.flatMap(varsOf);
    case "aggregate":
      return e.arg === "*" ? [] : varsOf(e.arg);
    case "exists":
      return [];
  }
}
