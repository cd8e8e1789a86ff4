import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { parseGraph } from "../../ts/rdf/index.js";
import {
  Schema, createKernel, renderPlanState, compileOps, toSparql, parseSparql,
  SparqlSyntaxError, PlanError, GoalError, parseGoal, type CheckResult, type Op, type GoalInput,
} from "../../ts/kernel/index.js";

const KG = readFileSync(new URL("../fixtures/kernel/olympics.ttl", import.meta.url), "utf8");
const schema = Schema.fromGraph(parseGraph(KG, { source: "olympics.ttl" }));
const kernel = createKernel(schema);
/** A schema that describes no namespace but rdf: and rdfs: (the issue's `ex:` examples are generic). */
const bare = createKernel(Schema.fromGraph(parseGraph("")));
const P = "PREFIX ex: <http://example.org/olympics/>\n";
const messages = (r: CheckResult) => r.errors.map((e) => e.message);
const warnings = (r: CheckResult) => r.warnings.map((e) => e.message);

describe("Schema.fromGraph", () => {
  it("reads classes, properties, domains, ranges and the subclass closure", () => {
    expect(schema.isClass("http://example.org/olympics/City")).toBe(true);
    expect(schema.isSubClassOf("http://example.org/olympics/Capital", "http://example.org/olympics/Place")).toBe(true);
    expect(schema.isSubClassOf("http://example.org/olympics/Place", "http://example.org/olympics/City")).toBe(false);
    expect(schema.domainsOf("http://example.org/olympics/hosted")).toEqual(["http://example.org/olympics/City"]);
    expect(schema.describes("http://example.org/olympics/anything")).toBe(true);
    expect(schema.describes("http://example.org/other/anything")).toBe(false);
  });

  it("handles equivalent classes by mutual subclassing (a cycle)", () => {
    const s = Schema.fromGraph(parseGraph(`@prefix ex: <http://e/> . @prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
      ex:A rdfs:subClassOf ex:B . ex:B rdfs:subClassOf ex:A . ex:C rdfs:subClassOf ex:A .`));
    expect(s.isSubClassOf("http://e/A", "http://e/B") && s.isSubClassOf("http://e/B", "http://e/A")).toBe(true);
    expect(s.isSubClassOf("http://e/C", "http://e/B")).toBe(true);
  });
});

describe("the seed's error table, word for word", () => {
  it("unknown term in a described namespace, with did-you-mean", () => {
    const r = kernel.check(P + 'SELECT ?c WHERE { ?c ex:hosts ?g }');
    expect(messages(r)).toEqual(["unknown property ex:hosts (did you mean ex:hosted?)"]);
    expect(r.errors[0]).toMatchObject({ code: "unknown-term", term: "ex:hosts", candidates: ["ex:hosted"], span: { line: 2, column: 22 } });
    expect(messages(kernel.check(P + "SELECT ?c WHERE { ?c a ex:Cty }"))).toEqual(["unknown class ex:Cty (did you mean ex:City?)"]);
  });

  it("no unknown-term error outside described namespaces", () => {
    expect(kernel.check("PREFIX o: <http://other.org/> SELECT ?c WHERE { ?c o:hosts ?g }").errors).toEqual([]);
  });

  it("literal where an entity is required", () => {
    expect(messages(kernel.check(P + 'SELECT ?c WHERE { ?c ex:hosted "Winter" }'))).toEqual([
      'type mismatch: ex:hosted expects an entity of ex:OlympicGames, got the literal "Winter"',
    ]);
  });

  it("literal used as an entity, or the reverse", () => {
    const r = kernel.check(P + "SELECT ?c WHERE { ?c ex:hosted ?g . ?g ex:season ?s . ?s ex:name ?n }");
    expect(messages(r)).toEqual(["type mismatch: ?s is a literal but it is used as the subject of ex:name"]);
    expect(messages(kernel.check(P + "SELECT ?c WHERE { ?c ex:name ?n . ?x ex:hosted ?n }"))).toEqual([
      "type mismatch: ?n is a literal but ex:hosted expects an entity of ex:OlympicGames",
    ]);
    expect(messages(kernel.check(P + "SELECT ?c WHERE { ?c ex:hosted ?g . ?x ex:population ?g }"))).toEqual([
      "type mismatch: ?g is an entity but ex:population expects a literal of xsd:integer",
    ]);
  });

  it("unbound variable in FILTER", () => {
    const r = kernel.check(P + "SELECT ?c WHERE { ?c ex:hosted ?g . FILTER(?y > 2) }");
    expect(messages(r)).toEqual(["unbound variable ?y in FILTER"]);
    expect(r.errors[0].span).toMatchObject({ line: 2, column: 44 });
  });

  it("a FILTER sees its whole group, and an OPTIONAL's FILTER sees the left side", () => {
    expect(kernel.check(P + "SELECT ?c WHERE { FILTER(?p > 2) ?c ex:population ?p }").errors).toEqual([]);
    expect(kernel.check(P + "SELECT ?c WHERE { ?c ex:population ?p OPTIONAL { ?c ex:hosted ?g FILTER(?p > 2) } }").errors).toEqual([]);
    expect(kernel.check(P + "SELECT ?c WHERE { ?c ex:population ?p FILTER NOT EXISTS { ?c ex:hosted ?g FILTER(?p > 2) } }").errors).toEqual([]);
  });

  it("BIND onto a bound variable", () => {
    expect(messages(kernel.check(P + "SELECT ?g WHERE { ?c ex:hosted ?g . BIND(ex:Paris AS ?g) }"))).toEqual(["BIND target ?g is already bound"]);
  });

  it("ungrouped projection", () => {
    expect(messages(kernel.check(P + "SELECT ?g (COUNT(?c) AS ?n) WHERE { ?c ex:hosted ?g . ?g ex:year ?y } GROUP BY ?y"))).toEqual([
      "?g is neither grouped nor aggregated",
    ]);
  });

  it("variables only inside MINUS are not bound", () => {
    const r = kernel.check(P + "SELECT ?c ?g WHERE { ?c a ex:City MINUS { ?c ex:hosted ?g } FILTER(BOUND(?c) && ?g != ex:Paris1900) }");
    expect(messages(r)).toEqual(["unbound variable ?g in FILTER"]);
    expect(warnings(r)).toContain("?g is projected but never bound");
  });

  it("two unrelated classes on one variable are a warning, not an error", () => {
    const r = kernel.check(P + "SELECT ?x WHERE { ?x a ex:City , ex:OlympicGames }");
    expect(r.errors).toEqual([]);
    expect(warnings(r)).toEqual(["?x has two unrelated classes: ex:City and ex:OlympicGames"]);
    // related classes refine silently: the most specific one is kept
    const ok = kernel.check(P + "SELECT ?x WHERE { ?x a ex:Place , ex:Capital }");
    expect(ok.warnings).toEqual([]);
    expect(ok.context.map((c) => c.text)).toEqual(["?x : ex:Capital"]);
  });
});

describe("cases from the field", () => {
  it("BIND(3 AS ?n) BIND(4 AS ?n): points at the second BIND and at the first binding", () => {
    const r = bare.check("SELECT ?n WHERE { BIND(3 AS ?n) BIND(4 AS ?n) }");
    expect(messages(r)).toEqual(["BIND target ?n is already bound"]);
    expect(r.errors[0].span).toMatchObject({ line: 1, column: 33 });
    expect(r.errors[0].related).toEqual([{ message: "?n is bound by BIND(… AS ?n)", span: { start: 18, end: 31, line: 1, column: 19 } }]);
  });

  it("?a ?b ?c . BIND(?c AS ?a): names the triple pattern that bound ?a", () => {
    const r = bare.check("SELECT * { ?a ?b ?c . BIND(?c AS ?a) }");
    expect(messages(r)).toEqual(["BIND target ?a is already bound"]);
    expect(r.errors[0].related?.[0]).toMatchObject({ message: "?a is bound by the triple pattern ?a ?b ?c", span: { line: 1, column: 12 } });
  });

  it("SUM without GROUP BY: the implicit single group", () => {
    const r = bare.check("PREFIX ex: <http://example.org/> SELECT ?acct (SUM(?amt) AS ?total) WHERE { ?acct ex:amount ?amt }");
    expect(messages(r)).toEqual(["?acct is neither grouped nor aggregated"]);
  });

  it("GROUP BY (?a + ?b) with ((?a + ?b) AS ?s) projected: rejected with the hint", () => {
    const r = bare.check("PREFIX ex: <http://example.org/> SELECT ((?a + ?b) AS ?s) (COUNT(?a) AS ?c) WHERE { ?x ex:p ?a ; ex:q ?b } GROUP BY (?a + ?b)");
    expect(r.errors.length).toBeGreaterThan(0);
    expect(new Set(messages(r))).toEqual(new Set(["?a is neither grouped nor aggregated", "?b is neither grouped nor aggregated"]));
    expect(r.errors[0].hint).toContain("GROUP BY ((?a + ?b) AS ?s)");
    // the repair the hint asks for is accepted
    expect(bare.check("PREFIX ex: <http://example.org/> SELECT ?s (COUNT(?a) AS ?c) WHERE { ?x ex:p ?a ; ex:q ?b } GROUP BY ((?a + ?b) AS ?s)").errors).toEqual([]);
  });

  it("MINUS sharing no variable: a warning that it removes nothing", () => {
    const r = bare.check("SELECT * { ?s ?p ?o MINUS { ?x ?y ?z } }");
    expect(r.errors).toEqual([]);
    expect(warnings(r)).toEqual(["MINUS shares no variable with its left side and removes nothing"]);
  });

  it("?popluation projected but never bound (did you mean ?population?)", () => {
    const r = kernel.check(P + "SELECT ?city ?popluation WHERE { ?city a ex:City ; ex:population ?population }", {
      answer: ["?city", "?popluation"], kind: "entity", many: true,
    });
    expect(warnings(r)).toEqual(["?popluation is projected but never bound (did you mean ?population?)"]);
    expect(r.warnings[0].candidates).toEqual(["?population"]);
    expect(r.openGoals).toContain("answer ?popluation is not bound");
  });

  it("ASK { [] !ex:a ex:b } is valid: accepted and typed, no crash", () => {
    const r = bare.check("PREFIX ex: <http://example.org/> ASK { [] !ex:a ex:b }", { kind: "boolean", many: false });
    expect(r.errors).toEqual([]);
    expect(r.openGoals).toEqual([]);
    expect(r.query.form).toBe("ask");
  });
});

describe("property paths", () => {
  it("types a single IRI under inverse and checks every IRI of a longer path", () => {
    const r = kernel.check(P + "SELECT ?c WHERE { ?g ^ex:hosted ?c }");
    expect(r.errors).toEqual([]);
    expect(r.context.map((c) => c.text).sort()).toEqual(["?c : ex:City", "?g : ex:OlympicGames"]);
    expect(messages(kernel.check(P + "SELECT ?c WHERE { ?c ex:country/ex:nam ?n }"))).toEqual(["unknown property ex:nam (did you mean ex:name?)"]);
    expect(messages(kernel.check(P + "PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#> SELECT ?c WHERE { ?c a/rdfs:subClassOf* ex:Plase }"))).toEqual([
      "unknown class ex:Plase (did you mean ex:Place?)",
    ]);
    expect(kernel.check(P + "SELECT * WHERE { ?a (ex:hosted|^ex:country)+ ?b . ?b !(ex:name|^ex:year) ?c }").errors).toEqual([]);
  });
});

describe("IRIs of a described namespace in subject, object, VALUES and expression positions", () => {
  const R = P + "PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#>\n";
  /** The olympics schema without its individuals: an ontology alone, as DBpedia's is for dbo:. */
  const ontologyOnly = createKernel(Schema.fromGraph(parseGraph(KG.split("\n").filter((l) => !/^(ex:[A-Z]\w* a ex:|  ex:hosted)/.test(l)).join("\n"))));

  it("the schema knows every IRI its graph mentions, and which namespaces hold individuals", () => {
    expect(schema.isKnownTerm("http://example.org/olympics/Paris")).toBe(true);
    expect(schema.isKnownTerm("http://example.org/olympics/Berlin")).toBe(false);
    expect([...schema.individualNamespaces]).toEqual(["http://example.org/olympics/"]);
    expect([...ontologyOnly.schema.individualNamespaces]).toEqual([]);
    expect(ontologyOnly.schema.isKnownTerm("http://example.org/olympics/City")).toBe(true);
  });

  it("a subject or object IRI takes its role from the predicate: class, property or plain term", () => {
    const sub = kernel.check(R + "SELECT ?c WHERE { ex:Ctiy rdfs:subClassOf ?c }");
    expect(sub.errors).toEqual([
      { code: "unknown-term", severity: "error", message: "unknown class ex:Ctiy (did you mean ex:City?)", term: "ex:Ctiy", candidates: ["ex:City"], span: { start: 113, end: 120, line: 3, column: 19 } },
    ]);
    expect(messages(kernel.check(R + "SELECT ?c WHERE { ?c rdfs:subClassOf ex:Palce }"))).toEqual(["unknown class ex:Palce (did you mean ex:Place?)"]);
    expect(messages(kernel.check(R + "SELECT ?p WHERE { ?p rdfs:subPropertyOf ex:hosts }"))).toEqual(["unknown property ex:hosts (did you mean ex:hosted?)"]);
    const obj = kernel.check(R + "SELECT ?x WHERE { ?x ex:country ex:Frnace }");
    expect(obj.errors).toMatchObject([{ code: "unknown-term", message: "unknown term ex:Frnace (did you mean ex:France?)", term: "ex:Frnace", candidates: ["ex:France"], span: { line: 3, column: 33 } }]);
    // through an inverse path the object is the subject of the link: still a plain term
    expect(messages(kernel.check(R + "SELECT ?x WHERE { ?x ^ex:hosted ex:Pariss }"))).toEqual(["unknown term ex:Pariss (did you mean ex:Paris?)"]);
    // the class at the end of a/rdfs:subClassOf* is reported once, as a class
    expect(messages(kernel.check(R + "SELECT ?x WHERE { ?x a/rdfs:subClassOf* ex:Cityy }"))).toEqual(["unknown class ex:Cityy (did you mean ex:City?)"]);
  });

  it("VALUES cells and IRI constants of FILTER, BIND, ORDER BY are checked", () => {
    const v = kernel.check(R + "SELECT ?x WHERE { VALUES ?x { ex:Pari ex:Tokyo } ?x ex:name ?n }");
    expect(v.errors).toMatchObject([{ message: "unknown term ex:Pari (did you mean ex:Paris?)", span: { line: 3, column: 31 } }]);
    expect(kernel.check(R + "SELECT ?x WHERE { ?x ex:country ?k FILTER(?k = ex:Japn) }").errors).toMatchObject([
      { code: "unknown-term", message: "unknown term ex:Japn (did you mean ex:Japan?)", span: { line: 3, column: 48 } },
    ]);
    expect(messages(kernel.check(R + "SELECT ?x ?y WHERE { ?x ex:country ?k BIND(IF(?k = ex:Frnce, 1, 0) AS ?y) } ORDER BY (?k = ex:Jaapn)"))).toEqual([
      "unknown term ex:Frnce (did you mean ex:France?)",
      "unknown term ex:Jaapn (did you mean ex:Japan?)",
    ]);
    // the op list's VALUES points at the op
    expect(kernel.check([{ op: "prefix", prefix: "ex", iri: "http://example.org/olympics/" }, { op: "values", vars: ["?k"], rows: [["ex:Frnace"]] }]).errors).toMatchObject([
      { message: "unknown term ex:Frnace (did you mean ex:France?)", op: 1 },
    ]);
  });

  it("in a namespace whose individuals the schema holds, an unmentioned IRI is unknown even with nothing near", () => {
    expect(messages(kernel.check(R + "SELECT ?x WHERE { ?x ex:country ex:Germany }"))).toEqual(["unknown term ex:Germany"]);
  });

  it("with an ontology alone, a plain term is reported only as a near miss of a schema term (it may be an individual of other data)", () => {
    expect(ontologyOnly.check(R + "SELECT ?x WHERE { ?x ex:country ex:Germany . FILTER(?x != ex:Frnace) }").errors).toEqual([]);
    expect(messages(ontologyOnly.check(R + "SELECT ?x WHERE { ?x ex:country ?k . VALUES ?k { ex:Cuntry } }"))).toEqual(["unknown term ex:Cuntry (did you mean ex:Country?)"]);
    // a class or property position is checked in full
    expect(messages(ontologyOnly.check(R + "SELECT ?c WHERE { ?c rdfs:subClassOf ex:Vehicle }"))).toEqual(["unknown class ex:Vehicle"]);
  });

  it("known IRIs in those positions pass, and undescribed namespaces are never checked", () => {
    expect(kernel.check(R + "SELECT ?x WHERE { ex:Capital rdfs:subClassOf ?c . ?x ex:country ex:France . VALUES ?g { ex:Paris1900 } FILTER(?x != ex:Oslo) }").errors).toEqual([]);
    expect(kernel.check(R + "PREFIX o: <http://other.org/> SELECT ?x WHERE { ?x ex:country o:Frnace . o:Ctiy rdfs:subClassOf ?c }").errors).toEqual([]);
    expect(kernel.check(R + "SELECT ?x WHERE { ?x rdfs:range xsd:integer }".replace("xsd:", "<http://www.w3.org/2001/XMLSchema#").replace("integer }", "integer> }")).errors).toEqual([]);
  });
});

describe("subqueries are their own variable scope", () => {
  const goal = { answer: ["c"], kind: "entity" as const, many: true };

  it("a subquery's unprojected variable is distinct from a same-named one outside", () => {
    // inside, ?n is a game; outside, a name: not a type mismatch, since the subquery does not project ?n
    const r = kernel.check(P + "SELECT ?c WHERE { ?c ex:name ?n . { SELECT ?c WHERE { ?c ex:hosted ?n } } }", goal);
    expect(r.errors).toEqual([]);
    expect(r.warnings).toEqual([]);
    expect(r.context.map((c) => c.text)).toEqual(["?c : ex:City", "?n : xsd:string", "?n : ex:OlympicGames (subquery 1)"]);
    expect(r.context[2]).toMatchObject({ variable: "?n", scope: "subquery 1", kind: "entity" });
    expect(r.openGoals).toEqual([]);
    // nested subqueries are numbered in reading order
    const nested = kernel.check(P + "SELECT ?c WHERE { ?c ex:name ?n { SELECT ?c WHERE { ?c ex:hosted ?n { SELECT ?n WHERE { ?n ex:year ?m } } } } }");
    expect(nested.errors).toEqual([]);
    expect(nested.context.map((c) => c.text)).toEqual(["?c : ex:City", "?n : xsd:string", "?m : xsd:integer (subquery 2)", "?n : ex:OlympicGames (subquery 1)"]);
  });

  it("a projected variable joins the outer one: its type carries across, both ways", () => {
    const r = kernel.check(P + "SELECT ?g ?y WHERE { { SELECT ?g WHERE { ?x ex:hosted ?g } } ?g ex:year ?y }");
    expect(r.errors).toEqual([]);
    expect(r.context.map((c) => c.text)).toEqual(["?g : ex:OlympicGames", "?y : xsd:integer", "?x : ex:City (subquery 1)"]);
    // the subquery first: the outer pattern sees ?g as an entity
    expect(kernel.check(P + "SELECT ?g WHERE { { SELECT ?g WHERE { ?x ex:hosted ?g } } ?c ex:name ?g }").errors).toMatchObject([
      { code: "type-mismatch", message: "type mismatch: ?g is an entity but ex:name expects a literal of xsd:string", span: { line: 2, column: 70 } },
    ]);
    // the subquery after: the join itself is the mismatch, reported at the subquery
    expect(kernel.check(P + "SELECT ?g WHERE { ?c ex:name ?g . { SELECT ?g WHERE { ?x ex:hosted ?g } } }").errors).toEqual([
      {
        code: "type-mismatch",
        severity: "error",
        message: "type mismatch: ?g is a literal but the subquery binds it as an entity (the object of ex:hosted)",
        term: "?g",
        related: [{ message: "?g is a literal as the object of ex:name" }],
        span: { start: 78, end: 113, line: 2, column: 37 }, // the subquery's SELECT
      },
    ]);
    // classes join too: unrelated ones are a warning
    expect(warnings(kernel.check(P + "SELECT ?g WHERE { ?g a ex:City . { SELECT ?g WHERE { ?x ex:hosted ?g } } }"))).toEqual([
      "?g has two unrelated classes: ex:City and ex:OlympicGames",
    ]);
    // an aggregate projected out of a grouped subquery is a number outside
    const agg = kernel.check(P + "SELECT ?c ?n WHERE { ?c ex:hosted ?g . { SELECT ?c (COUNT(?g) AS ?n) WHERE { ?c ex:hosted ?g } GROUP BY ?c } }", { answer: ["n"], kind: "number", many: true });
    expect(agg.errors).toEqual([]);
    expect(agg.context.find((c) => c.variable === "?n")).toMatchObject({ numeric: true, aggregate: true, text: "?n : xsd:integer" });
  });

  it("a subquery's unbound projection does not make the outer answer unbound", () => {
    const r = kernel.check(P + "SELECT ?c WHERE { ?c ex:hosted ?g . { SELECT ?c ?k WHERE { ?c ex:country ?q } } }", goal);
    expect(warnings(r)).toEqual(["?k is projected but never bound"]);
    expect(r.openGoals).toEqual([]);
    expect(kernel.check(P + "SELECT ?c WHERE { ?x ex:hosted ?g }", goal).openGoals).toEqual(["answer ?c is not bound"]);
  });
});

describe("goals and the plan state", () => {
  const goal = { op: "goal", answer: ["?c"], kind: "entity", type: "ex:City", many: true } satisfies GoalInput;

  it("renders the seed's plan state when the goal is met", () => {
    const r = kernel.check(P + 'SELECT ?c WHERE { ?c ex:hosted ?g . ?g ex:season "Winter" }', goal);
    expect(renderPlanState(r)).toBe("context:\n  ?c : ex:City\n  ?g : ex:OlympicGames\nopen goals:\n  goals accomplished\n");
  });

  it("lists every open goal of the seed", () => {
    // not projected says it all: no "not bound" besides (issue 14 item 4)
    expect(kernel.check(P + "SELECT ?g WHERE { ?g a ex:OlympicGames }", goal).openGoals).toEqual([
      "answer ?c is not projected", "?g is projected but is not an answer",
    ]);
    expect(kernel.check(P + "SELECT ?g WHERE { ?c ex:hosted ?g }", goal).openGoals).toEqual(["answer ?c is not projected", "?g is projected but is not an answer"]);
    expect(kernel.check(P + "SELECT ?c WHERE { ?g ex:season ?c }", goal).openGoals).toEqual([
      "answer ?c should be an entity but is a literal", "answer ?c is not established as ex:City",
    ]);
    expect(kernel.check(P + "SELECT ?c WHERE { ?c ex:country ?k }", goal).openGoals).toEqual([]);
    expect(kernel.check(P + "SELECT ?c WHERE { ?c a ex:Place }", goal).openGoals).toEqual(["answer ?c is not established as ex:City"]);
    // a misspelt goal class is an unknown class with a did-you-mean, not only an open goal
    const typo = kernel.check(P + "SELECT ?c WHERE { ?c a ex:City }", { ...goal, type: "ex:Cty" });
    expect(typo.errors.map((e) => [e.code, e.message, e.span])).toEqual([["unknown-term", "unknown class ex:Cty (did you mean ex:City?)", undefined]]);
    expect(typo.openGoals).toEqual(["answer ?c is not established as ex:Cty"]);
    const number = { answer: ["?n"], kind: "number", many: false } satisfies GoalInput;
    expect(kernel.check(P + "SELECT ?n WHERE { ?g ex:season ?n }", number).openGoals).toEqual(["answer ?n is not a number: not an aggregate or a numeric value"]);
    expect(kernel.check(P + "SELECT (COUNT(?g) AS ?n) WHERE { ?g ex:season ?s }", number).openGoals).toEqual([]);
    expect(kernel.check(P + "SELECT ?n WHERE { ?c ex:population ?n }", number).openGoals).toEqual([]);
    const yesNo = { kind: "boolean", many: false } satisfies GoalInput;
    expect(kernel.check(P + "SELECT ?g WHERE { ex:Paris ex:hosted ?g }", yesNo).openGoals).toEqual(["a yes-or-no question is not an ASK"]);
    expect(kernel.check(P + "ASK { ex:Paris ex:hosted ?g }", yesNo).openGoals).toEqual([]);
  });

  it("after execution: more than one solution when one was asked for", () => {
    const one = { answer: ["?c"], kind: "entity", type: "ex:City", many: false } satisfies GoalInput;
    const q = P + "SELECT ?c WHERE { ?c ex:hosted ?g }";
    expect(kernel.check(q, one).openGoals).toEqual([]);
    expect(kernel.check(q, one, { solutions: 9 }).openGoals).toEqual(["one answer was asked for, but the plan returned 9 solutions"]);
    expect(kernel.check(q, one, { solutions: 1 }).openGoals).toEqual([]);
  });

  it("rejects a malformed goal clearly", () => {
    expect(() => parseGoal({ answer: ["?c"], kind: "place" })).toThrow(GoalError);
    expect(() => parseGoal({ answer: ["?c"], kind: "place" })).toThrow('malformed goal: "kind" must be one of entity, literal, number, boolean, got "place"');
    expect(parseGoal('{"answer":["?c"],"kind":"entity","many":false}')).toEqual({ answer: ["c"], kind: "entity", type: undefined, many: false });
    expect(() => parseGoal("{nope")).toThrow(/^malformed goal: not JSON/);
    expect(() => parseGoal({ kind: "entity" })).toThrow('"answer" must name at least one variable for an entity goal');
    expect(() => parseGoal({ answer: "c", kind: "entity" })).toThrow(/"answer" must be a list of variables/);
    expect(() => parseGoal({ answer: ["?c"], kind: "entity", many: "yes" })).toThrow(/"many" must be true or false/);
    expect(() => parseGoal([1])).toThrow(/expected a JSON object/);
  });
});

describe("op-list plans", () => {
  const ops = [
    { op: "prefix", prefix: "ex", iri: "http://example.org/olympics/" },
    { op: "goal", answer: ["?c"], kind: "entity", type: "ex:City", many: true },
    { op: "triple", s: "?c", p: "ex:hosted", o: "?g" },
    { op: "triple", s: "?g", p: "ex:season", o: '"Winter"' },
    { op: "project", vars: ["?c"] },
    { op: "distinct" },
  ] satisfies Op[];

  it("compile to the same algebra as the query and to SPARQL text", () => {
    const r = kernel.check(ops);
    expect(r.errors).toEqual([]);
    expect(r.openGoals).toEqual([]);
    expect(r.sparql).toBe('PREFIX ex: <http://example.org/olympics/>\nSELECT DISTINCT ?c\nWHERE {\n  ?c ex:hosted ?g .\n  ?g ex:season "Winter" .\n}\n');
    // the SPARQL text parses back and checks the same
    expect(renderPlanState(kernel.check(r.sparql, r.goal))).toBe(renderPlanState(r));
  });

  it("point diagnostics at the op index", () => {
    const bad: Op[] = [...ops.slice(0, 2), { op: "triple", s: "?c", p: "ex:hosts", o: "?g" }, { op: "project", vars: ["?c"] }];
    const r = kernel.check(bad);
    expect(r.errors).toMatchObject([{ message: "unknown property ex:hosts (did you mean ex:hosted?)", op: 2 }]);
    // the text counts ops from 1, as PlanError messages do (op holds the 0-based index)
    expect(renderPlanState(r)).toContain("errors:\n  unknown property ex:hosts (did you mean ex:hosted?) (op 3)\n");
  });

  it("cover FILTER, BIND, OPTIONAL, MINUS, UNION, VALUES, GROUP BY with aggregates, ASK, ORDER BY, LIMIT/OFFSET", () => {
    const { query } = compileOps([
      { op: "prefix", prefix: "ex", iri: "http://example.org/olympics/" },
      { op: "values", vars: ["?k"], rows: [["ex:France"], ["ex:Japan"]] },
      { op: "union", branches: [[{ op: "triple", s: "?c", p: "a", o: "ex:City" }], [{ op: "triple", s: "?c", p: "a", o: "ex:Capital" }]] },
      { op: "triple", s: "?c", p: "ex:country", o: "?k" },
      { op: "optional", ops: [{ op: "triple", s: "?c", p: "ex:population", o: "?p" }] },
      { op: "minus", ops: [{ op: "triple", s: "?c", p: "ex:name", o: '"Paris"' }] },
      { op: "triple", s: "?c", p: "ex:hosted", o: "?g" },
      { op: "bind", expr: "?p / 1000", as: "?kp" },
      { op: "filter", expr: "?kp > 10" },
      { op: "group", by: ["?k"] },
      { op: "aggregate", fn: "count", of: "?g", as: "?n", distinct: true },
      { op: "project", vars: ["?k"] },
      { op: "order", by: ["DESC(?n)"] },
      { op: "limit", n: 2 },
      { op: "offset", n: 0 },
    ]);
    const text = toSparql(query);
    expect(text).toContain("GROUP BY ?k");
    expect(text).toContain("(COUNT(DISTINCT ?g) AS ?n)");
    const again = parseSparql(text);
    expect(again.limit).toBe(2);
    expect(kernel.check(text).errors).toEqual([]);
    expect(toSparql(compileOps([{ op: "ask" }, { op: "triple", s: "<http://e/a>", p: "<http://e/b>", o: "?x" }]).query)).toBe("ASK\nWHERE {\n  <http://e/a> <http://e/b> ?x .\n}\n");
  });

  it("reject an unknown op, a malformed op and a malformed goal op with the op index", () => {
    // @ts-expect-error: a malformed op, refused at run time too
    expect(() => compileOps([{ op: "jion" }])).toThrow(PlanError);
    // @ts-expect-error: a malformed op, refused at run time too
    expect(() => compileOps([{ op: "jion" }])).toThrow(/^op 1: unknown op "jion" \(expected one of prefix, goal, triple/);
    // @ts-expect-error: a malformed op, refused at run time too
    expect(() => compileOps([{ op: "triple", s: "?c", p: "ex:hosted" }])).toThrow('op 1: triple needs "o" as a non-empty string, got undefined');
    expect(() => compileOps([{ op: "limit", n: -1 }])).toThrow(/op 1: limit needs "n"/);
    expect(() => compileOps([{ op: "triple", s: "?c", p: "zz:hosted", o: "?g" }])).toThrow(/op 1: triple: undeclared prefix "zz:"/);
    // @ts-expect-error: a malformed op, refused at run time too
    expect(() => compileOps([{ op: "goal", answer: ["?c"], kind: "city" }])).toThrow(/op 1: malformed goal: "kind"/);
    expect(() => compileOps("[{")).toThrow(/the plan is not JSON/);
  });

  it("reject a VALUES row of the wrong length, naming the op index and the row", () => {
    const plan: Op[] = [{ op: "prefix", prefix: "ex", iri: "http://example.org/olympics/" }, { op: "values", vars: ["?c", "?k"], rows: [["ex:Paris", "ex:France"], ["ex:Oslo"]] }];
    expect(() => compileOps(plan)).toThrow(PlanError);
    expect(() => compileOps(plan)).toThrow('op 2: values: row 2 ["ex:Oslo"] has 1 term for 2 variables (?c ?k): write null or "UNDEF" for a missing value');
    expect(() => compileOps([{ op: "values", vars: ["?c"], rows: [["ex:a", "ex:b"]] }])).toThrow('op 1: values: row 1 ["ex:a","ex:b"] has 2 terms for 1 variable (?c)');
    // @ts-expect-error: a malformed op, refused at run time too
    expect(() => compileOps([{ op: "values", vars: ["?c"], rows: ["ex:a"] }])).toThrow('op 1: values: row 1 must be a list of 1 terms, got "ex:a"');
    // nested: the index is the top-level op's
    expect(() => compileOps([{ op: "triple", s: "?c", p: "?p", o: "?o" }, { op: "optional", ops: [{ op: "values", vars: ["?c", "?o"], rows: [[null]] }] }])).toThrow("op 2: values: row 1 [null] has 1 term for 2 variables (?c ?o)");
    expect(compileOps([{ op: "values", vars: ["?c", "?o"], rows: [[null, "UNDEF"]] }]).query.where.patterns[0]).toMatchObject({ rows: [[undefined, undefined]] });
  });
});

describe("bad SPARQL", () => {
  it("reports the line and column of a parse error", () => {
    try {
      kernel.check("SELECT ?x WHERE {\n  ?x ?y }");
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(SparqlSyntaxError);
      expect(error).toMatchObject({ line: 2, column: 9 });
      expect((error as Error).message).toMatch(/^SPARQL syntax error at line 2, column 9: unexpected '}'/);
    }
  });

  it("reports a lexer error and an undeclared prefix with line and column", () => {
    expect(() => kernel.check("SELECT ?x WHERE {\n ?x ?y 'abc }")).toThrow(/line 2, column 8/);
    expect(() => kernel.check("SELECT ?x WHERE {\n ?x zz:p ?y }")).toThrow('SPARQL syntax error at line 2, column 5: undeclared prefix "zz:"');
  });

  it("reports a VALUES row with too few or too many values at the row (Traqula's AST cannot show it)", () => {
    const few = (text: string) => {
      try {
        parseSparql(text);
      } catch (error) {
        expect(error).toBeInstanceOf(SparqlSyntaxError);
        return error as SparqlSyntaxError;
      }
      throw new Error("accepted");
    };
    // the W3C negative syntax tests syn-bad-values-too-few and syn-bad-values-too-many
    expect(few("SELECT * WHERE { VALUES (?a ?b) { (1) } }")).toMatchObject({
      line: 1, column: 35, message: "SPARQL syntax error at line 1, column 35: VALUES row 1 has 1 value for 2 variables (?a ?b): write UNDEF for a missing value",
    });
    expect(few("SELECT * WHERE { VALUES (?a ?b) { (1 2 3) } }")).toMatchObject({ line: 1, column: 35, detail: "VALUES row 1 has 3 values for 2 variables (?a ?b)" });
    // a trailing VALUES clause, a later row, an empty row; language tags and datatypes belong to their literal
    expect(few('SELECT * { ?a ?b ?c }\nVALUES (?a ?c) {\n  ("x"@en "y"^^<http://e/t>)\n  (UNDEF) }').detail).toBe("VALUES row 2 has 1 value for 2 variables (?a ?c): write UNDEF for a missing value");
    expect(few('SELECT * { ?a ?b ?c }\nVALUES (?a ?c) {\n  ("x"@en "y"^^<http://e/t>)\n  (UNDEF) }')).toMatchObject({ line: 4, column: 3 });
    expect(few("SELECT * { VALUES (?a) { ( ) } }")).toMatchObject({ line: 1, column: 26, detail: "VALUES row 1 has 0 values for 1 variable (?a): write UNDEF for a missing value" });
    // a syntax error before the VALUES block is reported first
    expect(few("SELECT * { ?a ?b } }\nVALUES (?a ?b) { (1) }").detail).toMatch(/^unexpected '}'/);
    // well-formed rows pass, UNDEF and signed numbers included
    expect(parseSparql('SELECT * { VALUES (?a ?b) { (UNDEF -1) ("x"^^<http://e/t> +2.5) (true <http://e/a>) } }').where.patterns[0]).toMatchObject({ rows: [[undefined, { value: "-1" }], [{ value: "x" }, { value: "+2.5" }], [{ value: "true" }, { value: "http://e/a" }]] });
  });
});
