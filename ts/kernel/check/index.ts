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
 *
 * The folder, one concern a file (each imports only files above it in this list). The
 * checker is one class built in layers, each file adding one concern's methods to the
 * layer below it, so the dependencies run one way (scope uses typing, typing uses existence):
 *   diagnostics.ts    what a check reports (Diagnostic, ContextEntry, CheckResult) and renderPlanState
 *   did-you-mean.ts   near misses for unknown names (closest)
 *   query-walks.ts    walks over the algebra: variables, path IRIs, aggregates, blank nodes
 *   checker-base.ts   the checker's state, and how it names terms and reports (CheckerBase)
 *   existence.ts      whether an IRI is a term the schema knows (ExistenceChecker)
 *   typing.ts         what triples and expressions establish about variables (TypingChecker)
 *   scope.ts          SPARQL scoping: queries, groups, subqueries, FILTER, BIND, HAVING (ScopeChecker)
 *   checker.ts        one pass, the typing context and the open goals (Checker)
 *   kernel.ts         Kernel and createKernel, the public entry
 */
export { Kernel, createKernel } from "./kernel.js";
export { renderPlanState, type CheckResult, type ContextEntry, type Diagnostic } from "./diagnostics.js";
export { closest } from "./did-you-mean.js";
export { hasAggregate } from "./query-walks.js";
