// Variable scope (SPARQL 1.1 §18.2 scoping, §11 grouping): every place an expression reads a
// variable goes through one check, with did-you-mean; each position has a query that breaks the
// rule and one that keeps it.
import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { parseGraph } from "../../ts/rdf/index.js";
import { Schema, createKernel, type CheckResult } from "../../ts/kernel/index.js";

const bare = createKernel(Schema.fromGraph(parseGraph("")));
const olympics = createKernel(Schema.fromGraph(parseGraph(readFileSync(new URL("../fixtures/kernel/olympics.ttl", import.meta.url), "utf8"), { source: "olympics.ttl" })));
const P = "PREFIX ex: <http://example.org/>\n";
const W = "WHERE { ?city ex:population ?population }";
const found = (r: CheckResult) => ({ errors: r.errors.map((e) => e.message), warnings: r.warnings.map((e) => e.message) });
const check = (q: string) => found(bare.check(P + q));
const clean = { errors: [], warnings: [] };

/** [position, breaking query, its findings, conforming query]. */
const CASES: [string, string, { errors?: string[]; warnings?: string[] }, string][] = [
  ["ORDER BY", `SELECT ?city ${W} ORDER BY ?popluation`, { warnings: ["unbound variable ?popluation in ORDER BY (did you mean ?population?)"] }, `SELECT ?city ${W} ORDER BY ?population`],
  ["ORDER BY reads a SELECT alias", `SELECT (?population * 2 AS ?twice) ${W} ORDER BY DESC(?twise)`, { warnings: ["unbound variable ?twise in ORDER BY (did you mean ?twice?)"] }, `SELECT (?population * 2 AS ?twice) ${W} ORDER BY DESC(?twice)`],
  ["ORDER BY in a grouped query", `SELECT ?city (COUNT(?population) AS ?n) ${W} GROUP BY ?city ORDER BY ?population`, { errors: ["?population in ORDER BY is neither grouped nor aggregated"] }, `SELECT ?city (COUNT(?population) AS ?n) ${W} GROUP BY ?city ORDER BY DESC(?n) ?city DESC(MAX(?population))`],
  ["SELECT expression", `SELECT (?popluation * 2 AS ?p2) ${W}`, { warnings: ["unbound variable ?popluation in SELECT (did you mean ?population?)"] }, `SELECT (?population * 2 AS ?p2) ${W}`],
  ["SELECT expression reads a later alias", `SELECT (?b * 2 AS ?a) (?population AS ?b) ${W}`, { warnings: ["unbound variable ?b in SELECT"] }, `SELECT (?population AS ?b) (?b * 2 AS ?a) ${W}`],
  ["aggregate argument in SELECT", `SELECT (SUM(?popluation) AS ?t) ${W}`, { warnings: ["unbound variable ?popluation in SELECT (inside an aggregate) (did you mean ?population?)"] }, `SELECT (SUM(?population) AS ?t) ${W}`],
  ["aggregate argument reads an alias", `SELECT (COUNT(?city) AS ?n) (SUM(?n) AS ?m) ${W}`, { warnings: ["unbound variable ?n in SELECT (inside an aggregate)"] }, `SELECT (COUNT(?city) AS ?n) (SUM(?population) AS ?m) ${W}`],
  ["BIND", `SELECT * WHERE { ?city ex:population ?population BIND(?popluation * 2 AS ?x) }`, { warnings: ["unbound variable ?popluation in BIND (did you mean ?population?)"] }, `SELECT * WHERE { ?city ex:population ?population BIND(?population * 2 AS ?x) }`],
  ["BIND before the pattern that binds", `SELECT * WHERE { BIND(?population AS ?x) ?city ex:population ?population }`, { warnings: ["unbound variable ?population in BIND"] }, `SELECT * WHERE { ?city ex:population ?population BIND(?population AS ?x) }`],
  ["BIND inside OPTIONAL (not the left side)", `SELECT * WHERE { ?city ex:population ?population OPTIONAL { ?city ex:q ?r BIND(?population AS ?x) } }`, { warnings: ["unbound variable ?population in BIND"] }, `SELECT * WHERE { ?city ex:population ?population OPTIONAL { ?city ex:q ?r BIND(?r AS ?x) } }`],
  ["BIND inside a UNION branch", `SELECT * WHERE { ?s ex:p ?o { BIND(?o + 1 AS ?z) } UNION { BIND(2 AS ?z) } }`, { warnings: ["unbound variable ?o in BIND"] }, `SELECT * WHERE { ?s ex:p ?o { BIND(1 AS ?z) } UNION { BIND(2 AS ?z) } }`],
  ["BIND inside EXISTS sees the tested solution", `SELECT * WHERE { ?s ex:p ?o FILTER EXISTS { ?s ex:q ?r BIND(?oo AS ?x) } }`, { warnings: ["unbound variable ?oo in BIND"] }, `SELECT * WHERE { ?s ex:p ?o FILTER EXISTS { ?s ex:q ?r BIND(?o AS ?x) } }`],
  ["FILTER", `SELECT * ${W.replace("}", "FILTER(?popluation > 1) }")}`, { errors: ["unbound variable ?popluation in FILTER (did you mean ?population?)"] }, `SELECT * ${W.replace("}", "FILTER(?population > 1) }")}`],
  ["FILTER BOUND()", `SELECT * ${W.replace("}", "FILTER(!BOUND(?popluation)) }")}`, { errors: ["unbound variable ?popluation in FILTER (did you mean ?population?)"] }, `SELECT * WHERE { ?city ex:p ?o OPTIONAL { ?city ex:population ?population } FILTER(!BOUND(?population)) }`],
  ["FILTER inside OPTIONAL sees the left side", `SELECT * WHERE { ?s ex:p ?o OPTIONAL { ?s ex:q ?r FILTER(?r > ?oo) } }`, { errors: ["unbound variable ?oo in FILTER"] }, `SELECT * WHERE { ?s ex:p ?o OPTIONAL { ?s ex:q ?r FILTER(?r > ?o) } }`],
  ["FILTER inside MINUS", `SELECT * WHERE { ?s ex:p ?o MINUS { ?s ex:q ?x FILTER(?o) } }`, { errors: ["unbound variable ?o in FILTER"] }, `SELECT * WHERE { ?s ex:p ?o MINUS { ?s ex:q ?x FILTER(?x) } }`],
  ["FILTER inside EXISTS", `SELECT * WHERE { ?s ex:p ?o FILTER NOT EXISTS { ?s ex:q ?r FILTER(?zz) } }`, { errors: ["unbound variable ?zz in FILTER"] }, `SELECT * WHERE { ?s ex:p ?o FILTER NOT EXISTS { ?s ex:q ?r FILTER(?r = ?o) } }`],
  ["FILTER inside SERVICE", `SELECT * WHERE { ?s ex:p ?o SERVICE <http://e/sparql> { ?s ex:q ?r FILTER(?o) } }`, { errors: ["unbound variable ?o in FILTER"] }, `SELECT * WHERE { ?s ex:p ?o SERVICE <http://e/sparql> { ?s ex:q ?r } FILTER(?r = ?o) }`],
  ["FILTER inside GRAPH", `SELECT * WHERE { ?s ex:p ?o GRAPH ?g { ?s ex:q ?r FILTER(?o) } }`, { errors: ["unbound variable ?o in FILTER"] }, `SELECT * WHERE { ?s ex:p ?o GRAPH ?g { ?s ex:q ?r FILTER(?r) } FILTER(?g) }`],
  ["HAVING BOUND() of a SELECT alias", `SELECT ?city (COUNT(?population) AS ?n) ${W} GROUP BY ?city HAVING (!BOUND(?n))`, { errors: ["HAVING uses ?n, the name of (COUNT(?population) AS ?n) in SELECT, which is not bound yet: HAVING is evaluated before SELECT (SPARQL 1.1 §18.2.4.1)"] }, `SELECT ?city (COUNT(?population) AS ?n) ${W} GROUP BY ?city HAVING (BOUND(?city))`],
  ["HAVING unbound", `SELECT ?city ${W} GROUP BY ?city HAVING (?citty != 1)`, { errors: ["unbound variable ?citty in HAVING (did you mean ?city?)"] }, `SELECT ?city ${W} GROUP BY ?city HAVING (?city != 1)`],
  ["HAVING aggregate argument", `SELECT ?city ${W} GROUP BY ?city HAVING (COUNT(?popluation) > 1)`, { warnings: ["unbound variable ?popluation in HAVING (inside an aggregate) (did you mean ?population?)"] }, `SELECT ?city ${W} GROUP BY ?city HAVING (COUNT(?population) > 1)`],
  ["GROUP BY expression", `SELECT ?k ${W} GROUP BY (STRLEN(?popluation) AS ?k)`, { warnings: ["unbound variable ?popluation in GROUP BY (did you mean ?population?)"] }, `SELECT ?k ${W} GROUP BY (STRLEN(?population) AS ?k)`],
  ["GROUP BY variable", `SELECT ?popluation ${W} GROUP BY ?popluation`, { warnings: ["?popluation is used in GROUP BY but never bound (did you mean ?population?)"] }, `SELECT ?population ${W} GROUP BY ?population`],
  ["projection", `SELECT ?popluation ${W}`, { warnings: ["?popluation is projected but never bound (did you mean ?population?)"] }, `SELECT ?population ${W}`],
  ["VALUES repeats a variable", `SELECT * WHERE { VALUES (?c ?c) { (1 2) } }`, { errors: ["VALUES names ?c twice: each variable names one column"] }, `SELECT * WHERE { VALUES (?c ?d) { (1 2) } }`],
  ["trailing VALUES repeats a variable", `SELECT * WHERE { ?c ex:p ?o } VALUES (?c ?o ?c) { (1 2 3) }`, { errors: ["VALUES names ?c twice: each variable names one column"] }, `SELECT * WHERE { ?c ex:p ?o } VALUES (?c ?o) { (1 2) }`],
  ["subquery: only projected variables are visible", `SELECT ?s WHERE { { SELECT ?s WHERE { ?s ex:p ?hidden } } FILTER(?hidden) } ORDER BY ?hidden`, { errors: ["unbound variable ?hidden in FILTER"], warnings: ["unbound variable ?hidden in ORDER BY"] }, `SELECT ?s WHERE { { SELECT ?s ?hidden WHERE { ?s ex:p ?hidden } } FILTER(?hidden) } ORDER BY ?hidden`],
  ["subquery's own ORDER BY", `SELECT ?s WHERE { { SELECT ?s WHERE { ?s ex:p ?obj } ORDER BY ?objj } }`, { warnings: ["unbound variable ?objj in ORDER BY (did you mean ?obj?)"] }, `SELECT ?s WHERE { { SELECT ?s WHERE { ?s ex:p ?obj } ORDER BY ?obj } }`],
  ["CONSTRUCT template", `CONSTRUCT { ?city ex:q ?popluation . _:b ex:r ?city } ${W}`, { warnings: ["?popluation is in the CONSTRUCT template but never bound: its triples are never built (did you mean ?population?)"] }, `CONSTRUCT { ?city ex:q ?population . _:b ex:r ?city } ${W}`],
  ["DESCRIBE", `DESCRIBE ?popluation ${W}`, { warnings: ["?popluation is described but never bound (did you mean ?population?)"] }, `DESCRIBE ?population ${W}`],
  ["grouped SELECT expression reads a variable bound nowhere", `SELECT (?n AS ?m) WHERE { ?s ex:p ?o } GROUP BY ?s`, { errors: ["?n is neither grouped nor aggregated"] }, `SELECT (?s AS ?m) WHERE { ?s ex:p ?o } GROUP BY ?s`],
  ["implicitly grouped SELECT expression reads a variable bound nowhere", `SELECT (COUNT(*) AS ?c) (?zz + 1 AS ?d) WHERE { ?s ex:p ?o }`, { errors: ["?zz is neither grouped nor aggregated"] }, `SELECT (COUNT(*) AS ?c) (?c + 1 AS ?d) WHERE { ?s ex:p ?o }`],
  ["an alias of a grouped variable", `SELECT (123 AS ?s) WHERE { ?s ex:p ?z } GROUP BY ?s`, { errors: ["(123 AS ?s) in SELECT: ?s is already bound (SPARQL 1.1 §18.2.4.1)"] }, `SELECT (123 AS ?z) WHERE { ?s ex:p ?z } GROUP BY ?s`],
  ["an alias of a WHERE variable, ungrouped query", `SELECT (123 AS ?z) WHERE { ?s ex:p ?z }`, { errors: ["(123 AS ?z) in SELECT: ?z is already bound (SPARQL 1.1 §18.2.4.1)"] }, `SELECT (COUNT(*) AS ?z) WHERE { ?s ex:p ?z }`],
];

describe("one scope check for every variable an expression reads", () => {
  for (const [position, breaking, expected, conforming] of CASES) {
    it(position, () => {
      expect(check(breaking), breaking).toEqual({ errors: expected.errors ?? [], warnings: expected.warnings ?? [] });
      expect(check(conforming), conforming).toEqual(clean);
    });
  }

  // The scoping variants the SPARQL 1.1 notes and errata and the SPARQL 1.2 draft settle (as Traqula's parser tests list them)
  it("accepts each alias and BIND whose name is not in scope there", () => {
    for (const q of [
      "SELECT (?o + 1 AS ?a) (?a * 2 AS ?b) { ?s ?p ?o }",
      "SELECT (1 AS ?x) { ?s ?p ?o MINUS { ?s ?p ?x } }",
      "SELECT (1 AS ?x) { ?s ?p ?o FILTER EXISTS { ?s ?p ?x } }",
      "SELECT (1 AS ?x) { { SELECT ?s { ?s ?p ?x } } }",
      "SELECT (COUNT(?o) AS ?c) { ?s ?p ?o } GROUP BY ?s",
      "SELECT * { { SELECT (?o + 1 AS ?a) { ?s ?p ?o } } ?a ?p ?o }",
      "ASK { { SELECT * { { SELECT (1 AS ?x) { ?s ?p ?o } } } } }",
      "SELECT (1 AS ?g) { { SELECT (COUNT(*) AS ?c) { ?s ?p ?o } GROUP BY (?s AS ?g) } }",
      "SELECT (1 AS ?x) { { SELECT ?s { ?s ?p ?o } VALUES ?x { 1 } } }",
      "SELECT (123 AS ?z) WHERE { ?s ?p ?z } GROUP BY ?s",
      "SELECT ?s (COUNT(?z) AS ?z) { ?s ?p ?z } GROUP BY ?s",
      "SELECT (COUNT(?z) AS ?z) { ?s ?p ?z }",
      "SELECT (1 AS ?z) { ?s ?p ?z } HAVING (COUNT(*) > 1)",
      "SELECT (1 AS ?z) { ?s ?p ?z } ORDER BY (COUNT(*))",
      "SELECT * { { SELECT (COUNT(?z) AS ?z) { ?s ?p ?z } } }",
      "PREFIX xsd: <http://www.w3.org/2001/XMLSchema#> SELECT (xsd:integer(COUNT(?z)) AS ?z) { ?s ?p ?z }",
      "SELECT (1 AS ?z) { ?s ?p ?z } HAVING (<http://ex.org/f>(SUM(?z)) > 1)",
      "SELECT * { ?s ?p ?o BIND(?s AS ?x) ?x ?a ?b }",
      "SELECT * { { ?s ?p ?o BIND(1 AS ?x) } BIND(2 AS ?y) }",
      "SELECT * { ?s ?p ?o MINUS { ?s ?p ?x } BIND(1 AS ?x) }",
      "SELECT * { ?s ?p ?o FILTER EXISTS { ?s ?p ?x } BIND(1 AS ?x) }",
      "SELECT * { { BIND(1 AS ?x) } UNION { BIND(2 AS ?x) } }",
      "SELECT * { { SELECT ?s { ?s ?p ?o } VALUES ?x { 1 } } BIND(1 AS ?x) }",
    ]) {
      // scope only: the subquery's (?o + 1 AS ?a) used as a subject is a type mismatch, which is not this rule
      expect(bare.check(q).errors.filter((e) => e.code !== "type-mismatch").map((e) => e.message), q).toEqual([]);
    }
  });

  it("refuses each alias, BIND and VALUES that the same rules refuse", () => {
    for (const [q, message] of [
      ["SELECT (1 AS ?X) { SELECT (2 AS ?X) {} }", "(1 AS ?X) in SELECT: ?X is already bound (SPARQL 1.1 §18.2.4.1)"],
      ["SELECT (123 AS ?z) WHERE { ?s ?p ?o } GROUP BY ?z", "(123 AS ?z) in SELECT: ?z is already bound (SPARQL 1.1 §18.2.4.1)"],
      ["SELECT (1 AS ?z) { ?s ?p ?z }", "(1 AS ?z) in SELECT: ?z is already bound (SPARQL 1.1 §18.2.4.1)"],
      ["SELECT * { ?s ?p ?o BIND(?o AS ?o) }", "BIND target ?o is already bound"],
      ["SELECT * { ?s ?p ?o BIND(1 AS ?x) BIND(2 AS ?x) }", "BIND target ?x is already bound"],
      ["SELECT ?o WHERE { ?s ?p ?o } GROUP BY ?s", "?o is neither grouped nor aggregated"],
      ["SELECT ?s WHERE { ?s ?p ?o } ORDER BY DESC(COUNT(?o))", "?s is neither grouped nor aggregated"],
      ["SELECT * { VALUES (?a ?a) { (1 1) } }", "VALUES names ?a twice: each variable names one column"],
    ]) {
      expect(bare.check(q).errors.map((e) => e.message), q).toEqual([message]);
    }
  });

  it("did-you-mean candidates are on the diagnostic, with its span", () => {
    const r = bare.check(P + `SELECT ?city ${W} ORDER BY ?popluation`);
    expect(r.warnings[0]).toMatchObject({ code: "unbound-variable", term: "?popluation", candidates: ["?population"], span: { line: 2, column: 65 } });
    const f = bare.check(P + `SELECT * ${W.replace("}", "FILTER(?popluation > 1) }")}`);
    expect(f.errors[0]).toMatchObject({ code: "unbound-filter-variable", candidates: ["?population"] });
    const v = bare.check(P + "SELECT * WHERE { VALUES (?c ?c) { (1 2) } }");
    expect(v.errors[0]).toMatchObject({ code: "values-repeated-variable", term: "?c", span: { line: 2, column: 29 } });
  });

  it("after grouping ?z is not in scope: SELECT (123 AS ?z) … GROUP BY ?s is accepted and ?z is the new value", () => {
    const r = bare.check(P + "SELECT (123 AS ?z) WHERE { ?s ex:p ?z } GROUP BY ?s");
    expect(found(r)).toEqual(clean);
    expect(r.context.map((c) => c.text)).toEqual(["?s : entity", "?z : xsd:integer"]);
  });

  it("a variable only inside MINUS (or EXISTS) is not in the typing context, and MINUS types nothing outside", () => {
    const r = olympics.check("PREFIX ex: <http://example.org/olympics/>\nSELECT ?c WHERE { ?c a ex:City MINUS { ?c ex:hosted ?g . ?g ex:year ?y } }");
    expect(r.errors).toEqual([]);
    expect(r.context.map((c) => c.text)).toEqual(["?c : ex:City"]);
    // EXISTS binds nothing outside it either
    const exists = olympics.check("PREFIX ex: <http://example.org/olympics/>\nSELECT ?c WHERE { ?c a ex:City FILTER NOT EXISTS { ?c ex:hosted ?g . ?g ex:year ?y } }");
    expect(exists.errors).toEqual([]);
    expect(exists.context.map((c) => c.text)).toEqual(["?c : ex:City"]);
    // a type mismatch inside MINUS is still reported
    const bad = olympics.check('PREFIX ex: <http://example.org/olympics/>\nSELECT ?c WHERE { ?c a ex:City MINUS { ?c ex:hosted "Winter" } }');
    expect(bad.errors.map((e) => e.message)).toEqual(['type mismatch: ex:hosted expects an entity of ex:OlympicGames, got the literal "Winter"']);
  });

  it("an op list goes through the same check, naming the op", () => {
    const r = bare.check([
      { op: "prefix", prefix: "ex", iri: "http://example.org/" },
      { op: "triple", s: "?city", p: "ex:population", o: "?population" },
      { op: "bind", expr: "?popluation * 2", as: "?x" },
      { op: "values", vars: ["?c", "?c"], rows: [["1", "2"]] },
      { op: "project", vars: ["?city", "(?popluation * 2 AS ?p2)"] },
      { op: "order", by: ["?popluation"] },
    ]);
    expect(r.errors.map((e) => [e.message, e.op])).toEqual([["VALUES names ?c twice: each variable names one column", 3]]);
    expect(r.warnings.map((e) => [e.message, e.op])).toEqual([
      ["unbound variable ?popluation in BIND (did you mean ?population?)", 2],
      ["unbound variable ?popluation in SELECT (did you mean ?population?)", 4],
      ["unbound variable ?popluation in ORDER BY (did you mean ?population?)", 5],
    ]);
  });
});
