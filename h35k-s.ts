import { createKernel, Schema } from "./ts/kernel/index.ts";
import { parseGraph } from "./ts/rdf/index.ts";
const k = createKernel(Schema.fromGraph(parseGraph("")));
const P = "PREFIX ex: <http://example.org/>\n";
const W = "WHERE { ?city ex:population ?population }";
const qs = [
  `SELECT ?city ${W} ORDER BY ?popluation`,
  `SELECT (?population * 2 AS ?p2) ${W} ORDER BY ?p2`,
  `SELECT (?popluation * 2 AS ?p2) ${W}`,
  `SELECT (?b * 2 AS ?a) (?population AS ?b) ${W}`,
  `SELECT * WHERE { ?city ex:population ?population BIND(?popluation * 2 AS ?x) }`,
  `SELECT * WHERE { BIND(?population AS ?x) ?city ex:population ?population }`,
  `SELECT * WHERE { ?city ex:population ?population OPTIONAL { ?city ex:q ?r BIND(?population AS ?x) } }`,
  `SELECT * WHERE { ?city ex:population ?population FILTER EXISTS { ?city ex:q ?r BIND(?population AS ?x) } }`,
  `SELECT * ${W.replace("}", "FILTER(?popluation > 1) }")}`,
  `SELECT * ${W.replace("}", "FILTER(!BOUND(?popluation)) }")}`,
  `SELECT ?city (COUNT(?population) AS ?n) ${W} GROUP BY ?city HAVING (!BOUND(?n))`,
  `SELECT ?city (COUNT(?population) AS ?n) ${W} GROUP BY ?city HAVING (COUNT(?popluation) > 1)`,
  `SELECT ?k ${W} GROUP BY (STRLEN(?popluation) AS ?k)`,
  `SELECT ?popluation ${W} GROUP BY ?popluation`,
  `SELECT (SUM(?popluation) AS ?t) ${W}`,
  `SELECT (COUNT(?city) AS ?n) (SUM(?n) AS ?m) ${W}`,
  `SELECT * WHERE { VALUES (?c ?c) { (1 2) } }`,
  `SELECT * WHERE { ?c ex:p ?o } VALUES (?c ?c) { (1 2) }`,
  `SELECT * WHERE { ?s ex:p ?o MINUS { ?s ex:q ?x FILTER(?o) } }`,
  `SELECT ?s WHERE { { SELECT ?s WHERE { ?s ex:p ?hidden } } FILTER(?hidden) } ORDER BY ?hidden`,
  `SELECT * WHERE { ?s ex:p ?o SERVICE <http://e/sparql> { ?s ex:q ?r FILTER(?o) } }`,
  `CONSTRUCT { ?city ex:q ?popluation . _:b ex:r ?city } ${W}`,
  `DESCRIBE ?popluation ${W}`,
  `SELECT (123 AS ?z) WHERE { ?s ex:p ?z } GROUP BY ?s`,
  `SELECT (COUNT(*) AS ?z) WHERE { ?s ex:p ?z }`,
  `SELECT (123 AS ?z) WHERE { ?s ex:p ?z }`,
  `SELECT ?s (COUNT(?o) AS ?n) WHERE { ?s ex:p ?o } GROUP BY ?s ORDER BY ?o`,
  `SELECT ?s (COUNT(?o) AS ?n) WHERE { ?s ex:p ?o } GROUP BY ?s ORDER BY DESC(?n) ?s DESC(MAX(?o))`,
  `SELECT * WHERE { ?s ex:p ?o FILTER NOT EXISTS { ?s ex:q ?r FILTER(?zz) } }`,
];
for (const q of qs) {
  const r = k.check(P + q);
  console.log("==", q, "\n  E", JSON.stringify(r.errors.map((e) => e.message)), "\n  W", JSON.stringify(r.warnings.map((e) => e.message)), "\n  C", r.context.map(c=>c.text).join(", "));
}
