/**
 * Scoping (SPARQL 1.1 §18.2.1): what each part of a query binds and what a FILTER, BIND, GROUP BY,
 * SELECT or HAVING may see; grouping and projection rules.
 */
import type { Expr, Group, Origin, Pattern, Query, Term, TriplePattern, Variable } from "../algebra.js";
import { exprToSparql } from "../algebra.js";
import { RDF_TYPE } from "../schema.js";
import { type Binding, originFields, sameOrigin } from "./diagnostics.js";
import { closest } from "./did-you-mean.js";
import { tripleVars, hasAggregate, freeVars, substitute, explicitBlankNodes, aggregatedVars } from "./query-walks.js";
import { TypingChecker } from "./typing.js";

/** Where an expression reads its variables (named in messages: `unbound variable ?x in ORDER BY`). */
type ReadPosition = "FILTER" | "BIND" | "SELECT" | "GROUP BY" | "HAVING" | "ORDER BY";

/** The checker with SPARQL 1.1 scoping (§18.2.1): what each query, group, subquery, FILTER, BIND, VALUES and HAVING binds and may see. */
export class ScopeChecker extends TypingChecker {
  /**
   * Check a (sub)query; returns the variables it makes visible (projected, or in scope for SELECT *).
   * Scope after WHERE (SPARQL 1.1 §18.2.4.1): GROUP BY reads WHERE's variables; in a grouped query
   * (§11.4) only the grouping variables are left, and an aggregate's argument reads WHERE's; each
   * SELECT expression reads those and the aliases before it; HAVING reads the grouping variables
   * (it runs before SELECT's expressions); ORDER BY reads the same as SELECT, aliases included.
   */
  checkQuery(q: Query): Map<string, Binding> {
    const bound = this.group(q.where, new Set());
    if (q.values) this.values(q.values, bound);
    const grouped =
      q.groupBy.length > 0 ||
      (q.projection !== "*" && q.projection.some((c) => c.expr && hasAggregate(c.expr))) ||
      q.having.some(hasAggregate) ||
      // an aggregate in ORDER BY groups too (§18.2.4.1: "an aggregate in SELECT, HAVING, ORDER BY" → Group((1), P)); Oxigraph refuses an ungrouped projection there
      q.orderBy.some((o) => hasAggregate(o.expr));
    const where = new Set(bound.keys());
    const groupVars = new Set<string>();
    const groupExprs: { expr: Expr; text: string }[] = [];
    for (const iri of q.describe ?? []) if (iri.kind === "iri") this.knownTerm(iri, "term");
    for (const g of q.groupBy) {
      if (g.expr.kind === "term" && g.expr.term.kind === "var" && !g.variable) {
        if (!bound.has(g.expr.term.name)) this.unboundNotice({ ...g.expr.term, at: g.expr.term.at ?? g.at }, bound, "GROUP BY");
      } else this.readExpr(g.expr, { position: "GROUP BY", scope: where, aggregateScope: where }, g.at);
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
    const aliases = new Set<string>();
    const aliasExprs = new Map<string, Expr>();
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
      for (const [k, v] of bound) visible.set(k, v);
    } else {
      const described = q.form === "describe";
      for (const col of q.projection) {
        const name = col.variable.name;
        if (!col.expr) {
          const unbound = !grouped && !bound.has(name) && !aliases.has(name);
          if (grouped) {
            if (!groupVars.has(name) && !aliases.has(name)) this.ungrouped(col.variable, col.at, undefined, groupExprs, name);
          } else if (unbound) {
            this.unboundNotice(col.variable, bound, described ? "description" : "projection");
          }
          visible.set(name, bound.get(name) ?? { how: "projection", at: col.at, ...(unbound ? { unbound } : {}) });
          continue;
        }
        // after grouping only the grouping variables are in scope: an alias may reuse a WHERE variable that is not one (SPARQL 1.2 tests, Oxigraph, Traqula)
        const readable = new Set([...(grouped ? groupVars : where), ...aliases]);
        const written = `(${exprToSparql(col.expr, this.prefixes)} AS ?${name})`;
        this.readExpr(col.expr, {
          position: "SELECT",
          scope: readable,
          aggregateScope: where,
          // in a grouped query a SELECT expression reads grouped variables only (§11.4, §18.2.4.1): one bound nowhere is refused as a projected ?v is
          explain: grouped ? (v) => (this.ungrouped(v, v.at ?? col.at, col, groupExprs, name), true) : undefined,
        }, col.at);
        if ((!grouped && bound.has(name)) || aliases.has(name) || groupVars.has(name)) {
          const first = (grouped ? undefined : bound.get(name)) ?? visible.get(name) ?? { how: "GROUP BY" };
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
        } else if (grouped && bound.has(name)) {
          // a new variable of the same name: what WHERE established about the old one no longer holds
          this.vars.delete(name);
        }
        this.setType(name, this.exprType(col.expr), col.at);
        aliases.add(name);
        aliasExprs.set(name, col.expr);
        visible.set(name, { how: `(… AS ?${name})`, at: col.at });
      }
    }
    this.having(q, where, groupVars, aliasExprs);
    const orderScope = new Set([...(grouped ? groupVars : where), ...aliases]);
    for (const o of q.orderBy) {
      this.readExpr(o.expr, {
        position: "ORDER BY",
        scope: orderScope,
        aggregateScope: where,
        explain: grouped ? (v) => (where.has(v.name) ? (this.ungroupedIn(v, "ORDER BY", o.at), true) : false) : undefined,
      }, o.at);
    }
    if (q.template) this.templateVars(q.template, where);
    return visible;
  }

  /**
   * The one scope check every expression goes through: each variable it reads outside an
   * aggregate must be in `scope`, each inside an aggregate's argument in `aggregateScope`;
   * EXISTS is checked as a group that sees `scope` (SPARQL 1.1 §18.2.1). A variable out of
   * scope is explained by `explain` when that knows why (ungrouped, a HAVING alias), else
   * it is an unbound variable, with did-you-mean over the variables in scope there.
   */
  readExpr(
    expr: Expr,
    where: { position: ReadPosition; scope: Set<string>; aggregateScope?: Set<string>; explain?: (v: Variable) => boolean },
    at: Origin | undefined,
  ): void {
    const seen = new Set<string>();
    const read = (v: Variable, scope: Set<string>, inAggregate: boolean) => {
      if (scope.has(v.name) || seen.has(v.name)) return;
      seen.add(v.name);
      if (!inAggregate && where.explain?.(v)) return;
      this.unboundRead(v, scope, inAggregate ? `${where.position} (inside an aggregate)` : where.position, v.at ?? at);
    };
    for (const v of freeVars(expr)) read(v, where.scope, false);
    for (const v of aggregatedVars(expr)) read(v, where.aggregateScope ?? where.scope, true);
    this.exprCheck(expr, where.scope);
  }

  /**
   * An expression reads a variable that is not in scope there: `unbound variable ?x in ORDER BY (did you mean ?y?)`.
   * In FILTER and HAVING it is an error (the condition is an error for every solution, SPARQL 1.1 §17.2);
   * elsewhere (SELECT, BIND, ORDER BY, GROUP BY, an aggregate's argument) a warning: the value is
   * unbound, which SPARQL allows (the W3C suite's bind04, coalesce01 do it on purpose), and a typo.
   */
  unboundRead(v: Variable, scope: Set<string>, position: string, at: Origin | undefined): void {
    const candidates = closest(v.name, [...scope], { variables: true }).map((c) => `?${c}`);
    const code = position === "FILTER" ? "unbound-filter-variable" : position === "HAVING" ? "unbound-having-variable" : "unbound-variable";
    const suffix = candidates.length ? ` (did you mean ${candidates[0]}?)` : "";
    const severity = code === "unbound-variable" ? "warning" : "error";
    this.report({ code, severity, message: `unbound variable ?${v.name} in ${position}${suffix}`, term: `?${v.name}`, candidates }, at);
  }

  /** A CONSTRUCT template's variable that WHERE never binds makes each of its triples empty (SPARQL 1.1 §16.2): a warning. */
  templateVars(template: TriplePattern[], where: Set<string>): void {
    const seen = new Set<string>();
    for (const t of template) {
      for (const v of tripleVars(t)) {
        if (where.has(v.name) || seen.has(v.name)) continue;
        seen.add(v.name);
        const candidates = closest(v.name, [...where], { variables: true }).map((c) => `?${c}`);
        const suffix = candidates.length ? ` (did you mean ${candidates[0]}?)` : "";
        this.report(
          { code: "unbound-projection", severity: "warning", message: `?${v.name} is in the CONSTRUCT template but never bound: its triples are never built${suffix}`, term: `?${v.name}`, candidates },
          v.at ?? t.at,
        );
      }
    }
  }

  /**
   * HAVING is evaluated after grouping and before SELECT's expressions (SPARQL 1.1 §18.2.4.1,
   * §11.5): a SELECT alias is unbound there (Oxigraph silently returns no rows), BOUND(?alias)
   * included; a variable bound nowhere is unbound, and a variable outside an aggregate must be grouped.
   */
  having(q: Query, where: Set<string>, groupVars: Set<string>, aliasExprs: Map<string, Expr>): void {
    for (const h of q.having) {
      this.readExpr(h, {
        position: "HAVING",
        scope: groupVars,
        aggregateScope: where,
        explain: (v) => {
          const alias = aliasExprs.get(v.name);
          if (alias) {
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
            return true;
          }
          if (where.has(v.name)) {
            this.ungroupedIn(v, "HAVING", q.havingAt);
            return true;
          }
          return false;
        },
      }, q.havingAt);
    }
  }

  /** `?g in HAVING is neither grouped nor aggregated` (HAVING, ORDER BY of a grouped query). */
  ungroupedIn(v: Variable, position: string, at: Origin | undefined): void {
    this.report(
      { code: "ungrouped-projection", severity: "error", message: `?${v.name} in ${position} is neither grouped nor aggregated`, term: `?${v.name}`, hint: `add ?${v.name} to GROUP BY or wrap it in an aggregate such as SAMPLE(?${v.name})` },
      v.at ?? at,
    );
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
      { code: "unbound-projection", severity: "warning", message: `?${v.name} is ${where === "projection" ? "projected" : where === "description" ? "described" : `used in ${where}`} but never bound${suffix}`, term: `?${v.name}`, candidates },
      v.at,
    );
  }

  /**
   * Walk a group graph pattern. `visible` are variables a FILTER of this group may
   * also see (the left side of an OPTIONAL: the LeftJoin's condition, §18.2.2.5); `outer` are
   * those every expression of the group sees (an EXISTS is evaluated with the solution it tests
   * substituted, §18.6). A BIND sees what its group bound before it and `outer`, not an
   * OPTIONAL's left side. Returns the variables in scope after the group, with where each was first bound.
   */
  group(g: Group, visible: Set<string>, outer: Set<string> = new Set()): Map<string, Binding> {
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
          const inner = this.group(p.type === "group" ? p : p.group, new Set(), outer);
          if (p.type !== "group" && p.name.kind === "var") bind(p.name.name, { how: `${p.type.toUpperCase()} ?${p.name.name}`, at: p.at });
          for (const [k, b] of inner) bind(k, b);
          break;
        }
        case "optional": {
          const inner = this.group(p.group, new Set([...visible, ...bound.keys()]), outer);
          for (const [k, b] of inner) bind(k, b);
          break;
        }
        case "union":
          for (const branch of p.branches) for (const [k, b] of this.group(branch, new Set(), outer)) bind(k, b);
          break;
        case "minus": {
          // typed apart: a variable only inside MINUS is not bound, so it joins no context (SPARQL 1.1 §8.3, §18.2.1)
          const saved = this.vars;
          this.vars = new Map([...saved].map(([k, v]) => [k, { ...v, classes: [...v.classes] }]));
          const inner = this.group(p.group, new Set(), outer);
          this.vars = saved;
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
          this.readExpr(p.expr, { position: "BIND", scope: new Set([...bound.keys(), ...outer]) }, p.at);
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
    const scope = new Set([...bound.keys(), ...visible, ...outer]);
    for (const f of filters) if (f.type === "filter") this.readExpr(f.expr, { position: "FILTER", scope }, f.at);
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
    // one column a variable (Jena and Oxigraph refuse a repeat; its rows would bind it twice)
    const named = new Set<string>();
    for (const v of p.variables) {
      if (named.has(v.name)) {
        this.report(
          { code: "values-repeated-variable", severity: "error", message: `VALUES names ?${v.name} twice: each variable names one column`, term: `?${v.name}`, fix: `name ?${v.name} once and drop its second column` },
          v.at ?? p.at,
        );
      }
      named.add(v.name);
    }
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

  /** Walk an expression for EXISTS patterns (checked with the enclosing scope visible) and IRI constants in described namespaces (function names are not checked). */
  exprCheck(expr: Expr, scope: Set<string>): void {
    switch (expr.kind) {
      case "exists": {
        // typed apart, as MINUS: EXISTS binds nothing outside it (SPARQL 1.1 §8.1, §18.2.1)
        const saved = this.vars;
        this.vars = new Map([...saved].map(([k, v]) => [k, { ...v, classes: [...v.classes] }]));
        this.group(expr.group, new Set(), scope);
        this.vars = saved;
        return;
      }
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
}

function article(kind: "entity" | "literal" | "unknown"): string {
  return kind === "entity" ? "an entity" : kind === "literal" ? "a literal" : "untyped";
}
