// An op plan's fields cannot smuggle SPARQL: every field of every op type, with every SPARQL
// delimiter appended, is refused with a PlanError naming the op and the field, never compiled
// into a query of another shape (more patterns, a dropped clause, a new modifier).
import { describe, expect, it } from "vitest";
import { compileOps, PlanError, parseSparql, toSparql, type Query, type Pattern } from "../../ts/kernel/index.js";

const PREFIX = { op: "prefix", prefix: "ex", iri: "http://e/" } as const;

/** What a smuggled value would change: the patterns at every level, the clauses, the columns. */
function shape(q: Query): unknown {
  const pattern = (p: Pattern): unknown => {
    switch (p.type) {
      case "bgp":
        return ["bgp", p.triples.length];
      case "group":
        return ["group", p.patterns.map(pattern)];
      case "optional":
      case "minus":
      case "graph":
      case "service":
        return [p.type, p.group.patterns.map(pattern)];
      case "union":
        return ["union", p.branches.map((b) => b.patterns.map(pattern))];
      case "values":
        return ["values", p.variables.length, p.rows.length];
      case "subquery":
        return ["subquery", shape(p.query)];
      default:
        return [p.type];
    }
  };
  // adjacent basic graph patterns are one when printed and read back
  const merged: Pattern[] = [];
  for (const p of q.where.patterns) {
    const last = merged[merged.length - 1];
    if (p.type === "bgp" && last?.type === "bgp") merged[merged.length - 1] = { ...last, triples: [...last.triples, ...p.triples] };
    else merged.push(p);
  }
  return {
    form: q.form,
    where: merged.map(pattern),
    projection: q.projection === "*" ? "*" : q.projection.length,
    groupBy: q.groupBy.length,
    having: q.having.length,
    orderBy: q.orderBy.length,
    limit: q.limit,
    offset: q.offset,
    values: q.values?.rows.length,
    distinct: !!q.distinct,
  };
}

/** One valid op per type, and its string fields: [op, field path, set(value)]. */
type Field = { name: string; field: string; base: unknown; set: (v: string) => unknown };
const f = (name: string, field: string, base: Record<string, unknown>, set: (v: string) => Record<string, unknown>): Field => ({ name, field, base, set });
const nest = (kind: "optional" | "minus", inner: Field): Field => ({
  name: `${kind} > ${inner.name}`,
  field: inner.field,
  base: { op: kind, ops: [inner.base] },
  set: (v) => ({ op: kind, ops: [inner.set(v)] }),
});

const triple = { op: "triple", s: "?s", p: "ex:p", o: "?o" } as const;
const FIELDS: Field[] = [
  f("triple", '"s"', triple, (v) => ({ ...triple, s: v })),
  f("triple", '"p"', triple, (v) => ({ ...triple, p: v })),
  f("triple", '"o"', triple, (v) => ({ ...triple, o: v })),
  f("triple", '"o"', { ...triple, o: '"x"@en' }, (v) => ({ ...triple, o: v.replace(/^\?o/, '"x"@en') })),
  f("filter", '"expr"', { op: "filter", expr: "?o > 1" }, (v) => ({ op: "filter", expr: `?o > ${v.replace(/^\?o/, "1")}` })),
  f("bind", '"expr"', { op: "bind", expr: "?o + 1", as: "?b" }, (v) => ({ op: "bind", expr: `?o + ${v.replace(/^\?o/, "1")}`, as: "?b" })),
  f("bind", '"as"', { op: "bind", expr: "1", as: "?o" }, (v) => ({ op: "bind", expr: "1", as: v })),
  f("values", '"vars"', { op: "values", vars: ["?o"], rows: [["ex:a"]] }, (v) => ({ op: "values", vars: [v], rows: [["ex:a"]] })),
  f("values", '"rows" row 1 cell 1', { op: "values", vars: ["?v"], rows: [["ex:a"]] }, (v) => ({ op: "values", vars: ["?v"], rows: [[v.replace(/^\?o/, "ex:a")]] })),
  f("values", '"rows" row 1 cell 1', { op: "values", vars: ["?v"], rows: [['"x"']] }, (v) => ({ op: "values", vars: ["?v"], rows: [[v.replace(/^\?o/, '"x"')]] })),
  f("group", '"by" item 1', { op: "group", by: ["?o"] }, (v) => ({ op: "group", by: [v] })),
  f("group", '"by" item 1', { op: "group", by: ["(STRLEN(?o) AS ?k)"] }, (v) => ({ op: "group", by: [`(STRLEN(${v}) AS ?k)`] })),
  f("aggregate", '"of"', { op: "aggregate", fn: "count", of: "?o", as: "?n" }, (v) => ({ op: "aggregate", fn: "count", of: v, as: "?n" })),
  f("aggregate", '"as"', { op: "aggregate", fn: "count", of: "?s", as: "?o" }, (v) => ({ op: "aggregate", fn: "count", of: "?s", as: v })),
  f("project", '"vars" item 1', { op: "project", vars: ["?o"] }, (v) => ({ op: "project", vars: [v] })),
  f("project", '"vars" item 1', { op: "project", vars: ["(MAX(?o) AS ?m)"] }, (v) => ({ op: "project", vars: [`(MAX(${v}) AS ?m)`] })),
  f("having", '"expr"', { op: "having", expr: "COUNT(?o) > 1" }, (v) => ({ op: "having", expr: `COUNT(${v}) > 1` })),
  f("order", '"by" item 1', { op: "order", by: ["DESC(?o)"] }, (v) => ({ op: "order", by: [`DESC(${v})`] })),
  f("order", '"by" item 1', { op: "order", by: ["?o"] }, (v) => ({ op: "order", by: [v] })),
];
FIELDS.push(nest("optional", FIELDS[0]), nest("minus", FIELDS[2]));
FIELDS.push({
  name: "union > triple",
  field: '"o"',
  base: { op: "union", branches: [[triple], [triple]] },
  set: (v) => ({ op: "union", branches: [[triple], [{ ...triple, o: v }]] }),
});

/** Every SPARQL delimiter, comment and escape, each appended to a valid value (`?o` stands for it). */
const SMUGGLED = [
  "?o . ?s <http://e/secret> ?x } #",
  "?o FILTER(true) } #",
  '?o } LIMIT 1 #',
  "?o . ?s <http://e/secret> ?x",
  "?o } LIMIT 1",
  "?o ; <http://e/q> ?x",
  "?o , ?x",
  "?o ?x",
  "?o\n?x",
  "?o\t<http://e/x>",
  "?o ) FILTER(true",
  "?o ( ?x",
  "?o )",
  "?o [ <http://e/q> ?x ]",
  "?o ]",
  "?o { ?s ?p ?x }",
  "?o {",
  "?o }",
  "?o # comment",
  "?o\n# comment\n",
  '?o "',
  "?o '",
  '?o "x"',
  "?o <",
  "?o >",
  "?o <http://e/x>",
  "?o \\",
  "?o \\u007D",
  "?o\\u0020?x",
  "?o\u2028?x",
  "?o . ",
  "?o ;",
  "?o ,",
];

describe("an op field holds one value, never SPARQL that changes the query", () => {
  it("compiles every base op", () => {
    for (const fld of FIELDS) expect(() => compileOps([PREFIX, fld.base as never]), fld.name).not.toThrow();
  });

  it("refuses each delimiter in every field of every op type, naming the op and the field", () => {
    let refused = 0;
    for (const fld of FIELDS) {
      const base = shape(compileOps([PREFIX, fld.base as never]).query);
      for (const s of SMUGGLED) {
        const op = fld.set(s);
        let error: unknown;
        let query: Query | undefined;
        try {
          query = compileOps([PREFIX, op as never]).query;
        } catch (e) {
          error = e;
        }
        const label = `${fld.name} ${fld.field} ${JSON.stringify(s)}`;
        if (query) {
          // never accepted with another shape; here in fact never accepted at all
          expect(shape(query), label).toEqual(base);
          expect.fail(`${label} was accepted: ${toSparql(query)}`);
        }
        expect(error, label).toBeInstanceOf(PlanError);
        expect((error as PlanError).op, label).toBe(1);
        expect((error as Error).message, label).toMatch(/^op 2: /);
        expect((error as Error).message, label).toContain(fld.name.split(" > ").pop()!);
        refused++;
      }
    }
    expect(refused).toBe(FIELDS.length * SMUGGLED.length);
  });

  it("names the field and what is wrong for the issue's three values", () => {
    const o = (v: string) => () => compileOps([PREFIX, { ...triple, o: v } as never]);
    expect(o("?o . ?s <http://e/secret> ?x } #")).toThrow('op 2: triple: "o" "?o . ?s <http://e/secret> ?x } #" holds a comment ("#"): write the value alone');
    expect(o("?o . ?s <http://e/secret> ?x")).toThrow('op 2: triple: "o" "?o . ?s <http://e/secret> ?x" is not one term: after ?o comes "."');
    expect(o("?o FILTER(true)")).toThrow('op 2: triple: "o" "?o FILTER(true)" is not one term: after ?o comes "FILTER"');
    expect(o('"x" } LIMIT 1')).toThrow('op 2: triple: "o" "\\"x\\" } LIMIT 1" is not one term: after "x" comes "}"');
    expect(o('"x\\u007D"')).toThrow(/op 2: triple: "o" .* holds text SPARQL cannot read at character 1/);
    expect(() => compileOps([{ op: "triple", s: "?s", p: "<http://e/p> ; <http://e/q>", o: "?o" }])).toThrow('op 1: triple: "p" "<http://e/p> ; <http://e/q>" is not a property or property path (IRIs, prefixed names, a, ^ / | * + ? ! and parentheses): it holds ";"');
    // each token a path may hold, but not a path: the field is named, not the scratch query's text
    expect(() => compileOps([{ op: "triple", s: "?s", p: "<http://e/a> <http://e/b>", o: "?o" }])).toThrow('op 1: triple: "p" "<http://e/a> <http://e/b>" is not a property or property path SPARQL can read');
    expect(() => compileOps([{ op: "triple", s: "?s", p: "(<http://e/a>)|", o: "?o" }])).toThrow('op 1: triple: "p" "(<http://e/a>)|" is not a property or property path SPARQL can read');
    expect(() => compileOps([{ op: "aggregate", fn: "count", of: "?x) + COUNT(?y", as: "?n" }])).toThrow(`op 1: aggregate: "of" "?x) + COUNT(?y" closes a ')' it did not open (at character 3)`);
    expect(() => compileOps([{ op: "order", by: ["?n LIMIT 1"] }])).toThrow(/^op 1: order: "by" item 1 "\?n LIMIT 1": /);
    expect(() => compileOps([{ op: "project", vars: ["(1 AS ?a) FROM <http://e/g>"] }])).toThrow(/^op 1: project: "vars" item 1 /);
  });

  it("still takes every kind of single term, path and expression, and prints what it parsed", () => {
    const { query } = compileOps([
      PREFIX,
      { op: "triple", s: "?s", p: "ex:p/^ex:q|!(a|ex:r)", o: "'''two\nlines'''^^ex:dt" },
      { op: "triple", s: "_:b", p: "a", o: "ex:C" },
      { op: "triple", s: "$s", p: "<http://e/p>", o: '"caf\u00e9 } # \\" ."@en-GB' },
      { op: "triple", s: "?s", p: "?p", o: "-1.5e3" },
      { op: "filter", expr: 'NOT EXISTS { ?s ex:p "}" } && REGEX(?o, "[{(]") && NOW() > ?o' },
      { op: "values", vars: ["?v", "?w"], rows: [["ex:a", 12], [true, null], ['"x"@en', "UNDEF"], [1e21, 0.5]] },
      { op: "group", by: ["?s", "(?o AS ?k)", "STRLEN(?o)", "(?a + ?b) AS ?t"] },
      { op: "aggregate", fn: "count", as: "?n" },
      { op: "project", vars: ["?s", "(MAX(?o) AS ?m)", "COUNT(*) AS ?c"] },
      { op: "order", by: ["DESC(?n)", "?s", "STRLEN(?s)", "(?n + 1)"] },
      { op: "having", expr: "COUNT(?o) > 1" },
    ] as never);
    const text = toSparql(query);
    expect(text).toContain('?s (ex:p/(^ex:q))|!(a|ex:r) "two\\nlines"^^ex:dt .');
    expect(text).toContain('?s ex:p "caf\u00e9 } # \\" ."@en-gb .');
    expect(text).toContain("VALUES (?v ?w) { (ex:a 12) (true UNDEF) (\"x\"@en UNDEF) (1000000000000000000000 0.5) }");
    expect(text).toContain("GROUP BY ?s (?o AS ?k) (STRLEN(?o)) ((?a + ?b) AS ?t)");
    expect(text).toContain("ORDER BY DESC(?n) ASC(?s) ASC(STRLEN(?s)) ASC((?n + 1))");
    // the printed text reads back as the same query
    expect(shape(parseSparql(text))).toEqual(shape(query));
  });

  it("takes a variable exactly as SPARQL's VARNAME does", () => {
    for (const ok of ["?x", "$x", "?_1", "?caf\u00e9", "?x\u00b7y", "?\u{10000}"]) expect(() => compileOps([{ op: "bind", expr: "1", as: ok }]), ok).not.toThrow();
    for (const bad of ["?x ", " ?x", "?x\u2028", "?\u00b7x", "?x-y", "?x.y", "?", "x", "?x}"]) {
      expect(() => compileOps([{ op: "bind", expr: "1", as: bad }]), JSON.stringify(bad)).toThrow(PlanError);
    }
  });
});
