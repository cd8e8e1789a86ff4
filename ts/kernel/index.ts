// ts/kernel: the plan verifier (browser-safe). Node-only pieces (the embedded Oxigraph store) are in ./node.ts.
export { Schema, namespaceOf, type PropertyInfo } from "./schema.js";
export { computeClosure, closureTs, closureAncestorsOf, closureHas, closurePairCount, type Closure } from "./closure.js";
export { toSparql, emptyQuery, iriRef, compactIri, SparqlIriError, SparqlTermError, type Query, type Group, type Pattern, type TriplePattern, type Path, type Expr, type Term, type Iri, type Variable, type Literal, type BlankNode, type Values, type Projection, type Origin, type Span as PlanSpan } from "./algebra.js";
export { parseSparql, SparqlSyntaxError, SparqlNestingError, createLineIndex } from "./sparql.js";
export { parseSparqlDialect, dialectPrefixes, SPARQL_DIALECTS, PREFIX_PRESETS, PREFIX_PRESET_NAMES, VIRTUOSO_PREFIXES, MAX_DIALECT_REWRITES, type SparqlDialect } from "./dialect.js";
export { MAX_SPARQL_NESTING } from "./syntax-hints.js";
export { compileOps, PlanError, OP_NAMES, type Op, type Plan } from "./ops.js";
export { goalSchema, opSchema, patternOpSchema, planSchema, GOAL_KINDS, AGGREGATE_FUNCTIONS, type PatternOp } from "./plan-schema.js";
export { parseGoal, GoalError, expandName, type Goal, type GoalInput } from "./goal.js";
// From the checker's files, not ./check/index.js: a re-export there that this entry does not use (closest)
// makes rollup hoist that file's imports (fastest-levenshtein) into dist/index.js.
export { Kernel, createKernel } from "./check/kernel.js";
export { renderPlanState, type CheckResult, type ContextEntry, type Diagnostic } from "./check/diagnostics.js";
export { createSparqlEndpointStore, parseSparqlJsonResults, solutionCount, SparqlStoreError, type SparqlStore, type SparqlResult, type ResultTerm } from "./store.js";
export { prove, createScriptedSynthesizer, type ProveOptions, type ProveResult, type ProveTurn } from "./prove.js";
export { runCheckedPlan, prepareCheckedPlan, answerPreparedPlan, limitQuery, renderTable, formatResultTerm, QueryRefusedError, type PreparedPlan, type RunPlanOptions, type RunPlanResult } from "./run.js";
export { searchSchema, describeTerm, addTermExamples, termIri, MAX_EXPLORE_ITEMS, type SchemaHit, type TermDescription } from "./explore.js";
