import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { parseGraph } from "../../ts/rdf/index.js";
import { Schema, createKernel, parseSparql, SparqlSyntaxError, SparqlNestingError, MAX_SPARQL_NESTING, type CheckResult } from "../../ts/kernel/index.js";

/**
 * SPARQL 1.1's static rules (the ones a grammar alone does not enforce) and the kernel's lints:
 * each rule has one query that breaks it and one that does not, and its message is the one
 * docs/kernel.md lists. The queries are generic (ex:), checked against an empty schema.
 */
const kernel = createKernel(Schema.fromGraph(parseGraph("")));
const P = "PREFIX ex: <http://example.org/>\n";
const DOC = readFileSync(new URL("../../docs/kernel.md", import.meta.url), "utf8");

interface Rule {
  code: string;
  /** The message (a stable prefix of it) docs/kernel.md shows. */
  message: string;
  breaking: string;
  conforming: string;
  severity?: "error" | "warning";
  fix?: string;
  /** 1-based column on line 2 (the query line after the PREFIX line). */
  column?: number;
}

const RULES: Rule[] = [
  { code: "unbound-filter-variable", message: "unbound variable ?z in FILTER", breaking: "SELECT ?s WHERE { ?s ex:p ?o FILTER(?z > 1) }", conforming: "SELECT ?s WHERE { ?s ex:p ?o FILTER(?o > 1) }", column: 37 },
  { code: "unbound-filter-variable", message: "unbound variable ?z in FILTER", breaking: "SELECT * WHERE { SERVICE <http://example.org/sparql> { ?s ex:p ?o } FILTER(?z) }", conforming: "SELECT * WHERE { SERVICE <http://example.org/sparql> { ?s ex:p ?o } FILTER(?o) }" },
  { code: "bind-already-bound", message: "BIND target ?o is already bound", breaking: "SELECT * WHERE { ?s ex:p ?o BIND(1 AS ?o) }", conforming: "SELECT * WHERE { ?s ex:p ?o BIND(1 AS ?n) }" },
  { code: "alias-already-bound", message: "(123 AS ?y) in SELECT: ?y is already bound", breaking: "SELECT (123 AS ?y) WHERE { ?y ex:p ?o } GROUP BY ?y", conforming: "SELECT (123 AS ?k) WHERE { ?y ex:p ?o } GROUP BY ?y", fix: "name it with a new variable, e.g. (123 AS ?y2)", column: 16 },
  { code: "alias-already-bound", message: "(1 AS ?X) in SELECT: ?X is already bound", breaking: "SELECT (1 AS ?X) (1 AS ?X) {}", conforming: "SELECT (1 AS ?X) (1 AS ?Y) {}" },
  { code: "alias-already-bound", message: "(1 AS ?X) in SELECT: ?X is already bound", breaking: "SELECT (1 AS ?X) { SELECT (2 AS ?X) {} }", conforming: "SELECT (1 AS ?Y) { SELECT (2 AS ?X) {} }" },
  { code: "alias-already-bound", message: "(?s AS ?o) in GROUP BY: ?o is already bound", breaking: "SELECT ?o WHERE { ?s ex:p ?o } GROUP BY (?s AS ?o)", conforming: "SELECT ?k WHERE { ?s ex:p ?o } GROUP BY (?s AS ?k)" },
  { code: "ungrouped-projection", message: "?o is neither grouped nor aggregated", breaking: "SELECT ?s ?o WHERE { ?s ex:p ?o } GROUP BY ?s", conforming: "SELECT ?s (SAMPLE(?o) AS ?one) WHERE { ?s ex:p ?o } GROUP BY ?s" },
  { code: "ungrouped-projection", message: "?o is neither grouped nor aggregated", breaking: "SELECT ?o (COUNT(?s) AS ?n) WHERE { ?s ex:p ?o }", conforming: "SELECT (COUNT(?s) AS ?n) WHERE { ?s ex:p ?o }" },
  { code: "select-star-grouped", message: "SELECT * is not allowed in a grouped query", breaking: "SELECT * WHERE { ?s ex:p ?o } GROUP BY ?s", conforming: "SELECT ?s WHERE { ?s ex:p ?o } GROUP BY ?s", column: 8, fix: "write SELECT ?s and the aggregates you need, e.g. (COUNT(*) AS ?n)" },
  { code: "having-alias", message: "HAVING uses ?n, the name of (COUNT(?g) AS ?n) in SELECT, which is not bound yet", breaking: "SELECT ?c (COUNT(?g) AS ?n) WHERE { ?c ex:hosted ?g } GROUP BY ?c HAVING (?n > 1)", conforming: "SELECT ?c (COUNT(?g) AS ?n) WHERE { ?c ex:hosted ?g } GROUP BY ?c HAVING (COUNT(?g) > 1)", fix: "write HAVING (COUNT(?g) > 1)", column: 75 },
  { code: "unbound-having-variable", message: "unbound variable ?zzz in HAVING", breaking: "SELECT ?c WHERE { ?c ex:hosted ?g } GROUP BY ?c HAVING (?zzz > 1)", conforming: "SELECT ?c WHERE { ?c ex:hosted ?g } GROUP BY ?c HAVING (COUNT(?g) > 1)" },
  { code: "ungrouped-projection", message: "?g in HAVING is neither grouped nor aggregated", breaking: "SELECT ?c WHERE { ?c ex:hosted ?g } GROUP BY ?c HAVING (?g > 1)", conforming: "SELECT ?c WHERE { ?c ex:hosted ?g } GROUP BY ?c HAVING (MAX(?g) > 1)" },
  { code: "blank-node-reuse", message: "the blank node _:a is used in two basic graph patterns", breaking: "SELECT * WHERE { _:a ex:p ?o OPTIONAL { _:a ex:q ?r } }", conforming: "SELECT * WHERE { _:a ex:p ?o FILTER(?o) _:a ex:q ?r }", fix: "write a variable, ?a, for _:a" },
  { code: "unbound-projection", message: "?x is projected but never bound", severity: "warning", breaking: "SELECT ?x WHERE { ?s ex:p ?o MINUS { ?s ex:q ?x } }", conforming: "SELECT ?o WHERE { ?s ex:p ?o MINUS { ?s ex:q ?o } }" },
  { code: "unbound-projection", message: "?y is projected but never bound", severity: "warning", breaking: "SELECT ?y WHERE { { SELECT ?x WHERE { ?x ex:p ?y } } }", conforming: "SELECT ?y WHERE { { SELECT ?y WHERE { ?x ex:p ?y } } }" },
  // lints (warnings)
  { code: "minus-disjoint", message: "MINUS shares no variable with its left side and removes nothing", severity: "warning", breaking: "SELECT ?s WHERE { ?s ex:p ?o MINUS { ?a ex:q ?b } }", conforming: "SELECT ?s WHERE { ?s ex:p ?o MINUS { ?s ex:q ?b } }" },
  { code: "mixed-negated-property-set", message: "the negated property set !(ex:r|^ex:r) mixes directions", severity: "warning", breaking: "SELECT * WHERE { ?a !(ex:r|^ex:r) ?b }", conforming: "SELECT * WHERE { ?a !(ex:r|ex:s) ?b }", fix: "for \"not linked either way\" write FILTER NOT EXISTS { ?a ex:r ?b } FILTER NOT EXISTS { ?b ex:r ?a }" },
];

const all = (r: CheckResult) => [...r.errors, ...r.warnings];

describe("SPARQL 1.1 static rules and lints: one breaking and one conforming query each", () => {
  for (const rule of RULES) {
    it(`${rule.code}: ${rule.message}`, () => {
      const bad = kernel.check(P + rule.breaking);
      const hit = all(bad).find((d) => d.code === rule.code);
      expect(hit, JSON.stringify(all(bad))).toBeDefined();
      expect(hit!.message.startsWith(rule.message)).toBe(true);
      expect(hit!.severity).toBe(rule.severity ?? "error");
      if (rule.fix) expect(hit!.fix).toBe(rule.fix);
      if (rule.column) expect(hit!.span).toMatchObject({ line: 2, column: rule.column });
      const good = kernel.check(P + rule.conforming);
      expect(all(good).filter((d) => d.code === rule.code)).toEqual([]);
      if ((rule.severity ?? "error") === "error") expect(good.errors).toEqual([]);
    });
  }

  it("docs/kernel.md lists every rule with its message", () => {
    for (const rule of RULES) {
      expect(DOC).toContain(rule.code);
      expect(DOC).toContain(rule.message.replace(/\?\w+|_:a|\(.*?\)|!\(.*?\)/g, "").split(/\s+/).filter((w) => w.length > 3)[0]);
    }
  });
});

/** Parse and return the syntax error (fails the test when the query parses). */
function syntaxError(text: string): SparqlSyntaxError {
  try {
    parseSparql(text);
  } catch (error) {
    expect(error).toBeInstanceOf(SparqlSyntaxError);
    return error as SparqlSyntaxError;
  }
  throw new Error(`accepted: ${text}`);
}

interface SyntaxRule {
  name: string;
  breaking: string;
  conforming: string;
  detail: string | RegExp;
  fix?: string;
  at: [number, number];
}

const SYNTAX: SyntaxRule[] = [
  { name: "COUNT(*) bare in SELECT", breaking: "SELECT COUNT(*) WHERE { ?s ?p ?o }", conforming: "SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }", detail: /^an aggregate in SELECT is written in parentheses with a name/, fix: "write (COUNT(*) AS ?n)", at: [1, 8] },
  { name: "Count(?s) as ?c", breaking: "SELECT Count(?s) as ?c WHERE { ?s ?p ?o }", conforming: "SELECT (Count(?s) as ?c) WHERE { ?s ?p ?o }", detail: /\(COUNT\(\?s\) AS \?c\)/, fix: "write (COUNT(?s) AS ?c)", at: [1, 8] },
  { name: "COUNT DISTINCT ?x", breaking: "SELECT COUNT DISTINCT ?x WHERE { ?x ?p ?o }", conforming: "SELECT (COUNT(DISTINCT ?x) AS ?n) WHERE { ?x ?p ?o }", detail: /aggregate in SELECT/, fix: "write (COUNT(DISTINCT ?x) AS ?n)", at: [1, 8] },
  // the LC-QuAD shape (hundreds of its gold queries) and the QALD-9 train #56 shape
  { name: "SELECT DISTINCT COUNT(?uri)", breaking: "SELECT DISTINCT COUNT(?uri) WHERE { ?uri ?p ?o }", conforming: "SELECT (COUNT(DISTINCT ?uri) AS ?n) WHERE { ?uri ?p ?o }", detail: /aggregate in SELECT/, fix: "write (COUNT(?uri) AS ?n)", at: [1, 17] },
  { name: "an alias inside the aggregate", breaking: "SELECT COUNT(DISTINCT ?uri AS ?uri) WHERE { ?uri ?p ?o }", conforming: "SELECT (COUNT(DISTINCT ?uri) AS ?n) WHERE { ?uri ?p ?o }", detail: /aggregate in SELECT/, fix: "write (COUNT(DISTINCT ?uri) AS ?n)", at: [1, 8] },
  // W3C syn-bad-04
  { name: "a SELECT expression without a name", breaking: "SELECT (?o+1) WHERE { ?s ?p ?o }", conforming: "SELECT (?o+1 AS ?value) WHERE { ?s ?p ?o }", detail: /^an expression in SELECT needs a name/, fix: "write (?o+1 AS ?value)", at: [1, 13] },
  { name: "a missing } at the end of input", breaking: "SELECT ?x WHERE {\n  ?x ?p ?o", conforming: "SELECT ?x WHERE {\n  ?x ?p ?o }", detail: "unexpected end of input: '{' opened at line 1, column 17 is not closed", fix: "add '}' at the end", at: [2, 11] },
  { name: "two brackets open at the end of input", breaking: "SELECT ?x WHERE { ?x ?p ?o OPTIONAL { ?x ?q ?r ", conforming: "SELECT ?x WHERE { ?x ?p ?o OPTIONAL { ?x ?q ?r } }", detail: "unexpected end of input: 2 brackets are not closed, the innermost '{' opened at line 1, column 37", fix: "add '} }' at the end", at: [1, 48] },
  { name: "a ) missing before }", breaking: "SELECT ?x WHERE { ?x ?p ?o FILTER(?o > 1 }", conforming: "SELECT ?x WHERE { ?x ?p ?o FILTER(?o > 1) }", detail: "'}' does not close the '(' opened at line 1, column 34", fix: "write ')' before this '}'", at: [1, 42] },
  { name: "an aggregate in FILTER (positioned)", breaking: "SELECT ?x WHERE { ?x ?p ?o FILTER(COUNT(?o) > 1) }", conforming: "SELECT ?x WHERE { ?x ?p ?o } GROUP BY ?x HAVING (COUNT(?o) > 1)", detail: "Aggregates are only allowed in SELECT, HAVING, and ORDER BY clauses.", at: [1, 35] },
  { name: "an aggregate in GROUP BY (positioned)", breaking: "SELECT ?x WHERE { ?x ?p ?o } GROUP BY (COUNT(?o))", conforming: "SELECT ?x WHERE { ?x ?p ?o } GROUP BY ?x", detail: "Aggregates are only allowed in SELECT, HAVING, and ORDER BY clauses.", at: [1, 40] },
  { name: "a nested aggregate (positioned)", breaking: "SELECT (COUNT(SUM(?o)) AS ?n) WHERE { ?x ?p ?o }", conforming: "SELECT (SUM(?o) AS ?n) WHERE { ?x ?p ?o }", detail: "An aggregate function is not allowed within an aggregate function.", at: [1, 15] },
  { name: "a VALUES row of the wrong length", breaking: "SELECT * WHERE { VALUES (?a ?b) { (1) } }", conforming: "SELECT * WHERE { VALUES (?a ?b) { (1 UNDEF) } }", detail: /^VALUES row 1 has 1 value for 2 variables/, at: [1, 35] },
  { name: "an undeclared prefix", breaking: "SELECT * WHERE { ?s zz:p ?o }", conforming: "PREFIX zz: <http://example.org/zz#> SELECT * WHERE { ?s zz:p ?o }", detail: 'undeclared prefix "zz:"', at: [1, 21] },
];

describe("syntax errors: positioned, with a fix-it for the common slips", () => {
  for (const rule of SYNTAX) {
    it(rule.name, () => {
      const e = syntaxError(rule.breaking);
      if (typeof rule.detail === "string") expect(e.detail).toBe(rule.detail);
      else expect(e.detail).toMatch(rule.detail);
      expect(e.fix).toBe(rule.fix);
      expect([e.line, e.column]).toEqual(rule.at);
      if (rule.fix) expect(e.message).toContain(`(fix: ${rule.fix})`);
      expect(() => parseSparql(rule.conforming)).not.toThrow();
    });
  }

  it("a lexer error keeps the lexer's message, with no fix-it", () => {
    const e = syntaxError("SELECT ?x WHERE {\n ?x ?y 'abc }");
    expect([e.line, e.column, e.fix]).toEqual([2, 8, undefined]);
  });
});

describe("nesting (issue 12 item 10): a documented limit with a typed error, never a stack overflow", () => {
  const nested = (n: number) => "SELECT * WHERE " + "{ ".repeat(n) + "?s ?p ?o" + " }".repeat(n);

  it("200 nested groups: SparqlNestingError at the first bracket past the limit", () => {
    const e = syntaxError(nested(200));
    expect(e).toBeInstanceOf(SparqlNestingError);
    expect(e).toMatchObject({ line: 1, column: 16 + 2 * MAX_SPARQL_NESTING, limit: 48 });
    expect(e.detail).toBe("nesting deeper than 48 at line 1");
    expect(() => kernel.check(nested(200))).toThrow(SparqlNestingError);
  });

  it("groups and parentheses up to the limit parse and check", () => {
    expect(kernel.check(nested(MAX_SPARQL_NESTING)).errors).toEqual([]);
    const parens = "SELECT * WHERE { ?s ?p ?o FILTER" + "(".repeat(MAX_SPARQL_NESTING - 1) + "?o" + ")".repeat(MAX_SPARQL_NESTING - 1) + " }";
    expect(kernel.check(parens).errors).toEqual([]);
    // brackets inside a string literal are not nesting
    expect(() => parseSparql(`SELECT * WHERE { ?s ?p "${"{".repeat(300)}" }`)).not.toThrow();
  });

  it("a very long operator chain is a typed error, not a crash", () => {
    const e = syntaxError("SELECT * WHERE { ?s ?p ?o FILTER(" + "?o + ".repeat(20000) + "1) }");
    expect(e.detail).toMatch(/^the query is too deeply nested to parse/);
  });
});

describe("the fix reaches the planner", () => {
  it("renderPlanState shows a diagnostic's fix on the line after it", async () => {
    const { renderPlanState } = await import("../../ts/kernel/index.js");
    const r = kernel.check(P + "SELECT ?c (COUNT(?g) AS ?n) WHERE { ?c ex:hosted ?g } GROUP BY ?c HAVING (?n > 1)");
    expect(renderPlanState(r)).toContain(
      "errors:\n  HAVING uses ?n, the name of (COUNT(?g) AS ?n) in SELECT, which is not bound yet: HAVING is evaluated before SELECT (SPARQL 1.1 §18.2.4.1) (line 2, column 75)\n    fix: write HAVING (COUNT(?g) > 1)\n",
    );
  });
});
