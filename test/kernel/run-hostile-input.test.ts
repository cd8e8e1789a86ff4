// A hostile user's inputs to runCheckedPlan and the Virtuoso dialect, on the real embedded
// Oxigraph store over the olympics graph: a 1 MB query, 10,000 nested groups or parentheses, a
// deep op plan, thousands of PREFIX lines; the LIMIT rewrite on the parsed query for
// subqueries, ASK, CONSTRUCT, DESCRIBE, OFFSET and a plan's own LIMIT above or below the cap;
// odd spellings of Virtuoso's extensions (lower case, comments between tokens, COUNT DISTINCT
// forms, CRLF line ends, two bare COUNTs) and the extensions the dialect does not know
// (`define` pragmas, OPTION(...), bif:, sql:), which stay errors, in both dialects.
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { createKernel, MAX_DIALECT_REWRITES, parseSparqlDialect, runCheckedPlan, Schema, SparqlSyntaxError, toSparql } from "../../ts/kernel/index.js";
import { createOxigraphStore } from "../../ts/kernel/node.js";
import { GroundwireError } from "../../ts/errors.js";
import { loadGraphFile } from "../../ts/rdf/load.js";

const graph = loadGraphFile(fileURLToPath(new URL("../../data/kernel/olympics.ttl", import.meta.url)));
const kernel = createKernel(Schema.fromGraph(graph));
const store = createOxigraphStore(graph);
const P = "PREFIX ex: <http://example.org/olympics/>\n";
const run = (query: string, maxRows = 5) => runCheckedPlan(kernel, query, undefined, store, { maxRows });
const failure = async (p: Promise<unknown> | (() => unknown)) => {
  try {
    await (typeof p === "function" ? p() : p);
  } catch (error) {
    expect(error).toBeInstanceOf(GroundwireError);
    return error as GroundwireError;
  }
  throw new Error("expected a failure");
};

describe("runCheckedPlan: huge and nested input", () => {
  it("10,000 nested groups or parentheses: a 422 limit naming the nesting bound, at once", async () => {
    for (const q of [`${P}SELECT ?c WHERE ${"{".repeat(10_000)}?c ex:hosted ?g${"}".repeat(10_000)}`, `${P}SELECT ?c WHERE { ?c ex:hosted ?g FILTER(${"(".repeat(10_000)}true${")".repeat(10_000)}) }`]) {
      const e = await failure(run(q));
      expect([e.code, e.status]).toEqual(["limit", 422]);
      expect(e.message).toMatch(/nesting deeper than 48 at line 2$/);
    }
  });

  it("an op plan with a filter 5,000 parentheses deep: a named error, no stack overflow", async () => {
    const e = await failure(run([{ op: "filter", expr: `${"(".repeat(5_000)}true${")".repeat(5_000)}` }] as never));
    expect(e.code).toBe("bad_request");
    expect(e.message).toMatch(/nesting deeper than 48/);
  });

  it("a 1 MB query of 20,000 FILTERs on an unknown term: refused, every error counted", async () => {
    const q = `${P}SELECT ?c WHERE { ?c ex:hosted ?g ${"FILTER(?g != ex:Nowhere) ".repeat(20_000)}}`;
    expect(q.length).toBeGreaterThan(500_000);
    const e = await failure(run(q));
    expect(e.code).toBe("refused");
    expect(e.message.split("\n")[0]).toBe("the plan has 20000 errors and 0 open goals; nothing was run");
    // the message shows the first 50 and says how many more: a size a model can read
    expect(e.message.match(/^  unknown term ex:Nowhere/gm)).toHaveLength(50);
    expect(e.message).toMatch(/\n… 19950 errors more not shown\n$/);
    expect(e.message.length).toBeLessThan(10_000);
  });

  it("2,000 PREFIX lines: the query runs, and the query sent declares only the prefixes it uses", async () => {
    const q = `${Array.from({ length: 2_000 }, (_, i) => `PREFIX p${i}: <http://example.org/p/${i}#>`).join("\n")}\n${P}SELECT ?c WHERE { ?c ex:hosted ?g } ORDER BY ?c`;
    const r = await run(q);
    expect([r.count, r.truncated]).toEqual([5, true]);
    expect(r.sent).toMatch(/^PREFIX ex: <http:\/\/example\.org\/olympics\/>\n/);
    expect(r.sent).not.toContain("p1999");
  });
});

describe("runCheckedPlan: the LIMIT is rewritten on the parsed query, for every form", () => {
  it.each([
    ["a plan's LIMIT above the cap is lowered to cap + 1", `${P}SELECT ?g WHERE { ?g ex:year ?y } ORDER BY ?y LIMIT 1000000`, /\nLIMIT 6\n$/, 5, true],
    ["a LIMIT past 2^64 is lowered too", `${P}SELECT ?g WHERE { ?g ex:year ?y } LIMIT 99999999999999999999999`, /\nLIMIT 6\n$/, 5, true],
    ["a plan's LIMIT below the cap is kept", `${P}SELECT ?g WHERE { ?g ex:year ?y } LIMIT 2`, /\nLIMIT 2\n$/, 2, false],
    ["LIMIT 0 is kept", `${P}SELECT ?g WHERE { ?g ex:year ?y } LIMIT 0`, /\nLIMIT 0\n$/, 0, false],
    ["OFFSET is kept with the new LIMIT", `${P}SELECT ?g WHERE { ?g ex:year ?y } ORDER BY ?y OFFSET 3`, /\nLIMIT 6\nOFFSET 3\n$/, 5, true],
    ["a subquery keeps its own LIMIT; the outer query gets the cap", `${P}SELECT ?c WHERE { { SELECT ?c WHERE { ?c ex:hosted ?g } LIMIT 100000 } } OFFSET 2 LIMIT 1000000`, /LIMIT 100000 }\n  }\n}\nLIMIT 6\nOFFSET 2\n$/, 5, true],
    ["a LIMIT written in a comment or a string is not a LIMIT", `${P}SELECT ?g WHERE { ?g ex:year ?y FILTER(STR(?y) != "LIMIT 1") } # LIMIT 1\n`, /\nLIMIT 6\n$/, 5, true],
  ] as const)("%s", async (_what, query, sent, count, truncated) => {
    const r = await run(query);
    expect(r.sent).toMatch(sent);
    expect([r.count, r.truncated]).toEqual([count, truncated]);
  });

  it("ASK is sent without a LIMIT (its own is kept) and answers one boolean", async () => {
    expect((await run(`${P}ASK { ?c ex:hosted ?g }`)).sent).not.toContain("LIMIT");
    const own = await run(`${P}ASK { ?c ex:hosted ?g } LIMIT 5`);
    expect([own.results.boolean, own.count]).toEqual([true, 1]);
  });

  it("CONSTRUCT and DESCRIBE are refused before anything is sent (run_sparql answers solutions)", async () => {
    for (const q of [`${P}CONSTRUCT { ?c ex:hosted ?g } WHERE { ?c ex:hosted ?g }`, `${P}DESCRIBE ex:Oslo`]) {
      const e = await failure(run(q));
      expect([e.code, e.status]).toEqual(["bad_request", 400]);
      expect(e.message).toMatch(/^a (CONSTRUCT|DESCRIBE) query is not run here: write a SELECT or an ASK$/);
    }
  });
});

describe("the Virtuoso dialect, odd spellings", () => {
  const D = "PREFIX dbo: <http://dbpedia.org/ontology/>\n";
  const virtuoso = (q: string) => parseSparqlDialect(D + q, { dialect: "virtuoso" });
  const strict = (q: string) => {
    try {
      parseSparqlDialect(D + q);
    } catch (error) {
      expect(error).toBeInstanceOf(SparqlSyntaxError);
      return error as SparqlSyntaxError;
    }
    throw new Error(`strict SPARQL 1.1 accepted ${q}`);
  };

  it.each([
    ["lower case", "select distinct count(?uri) where { ?uri a dbo:City }", "(COUNT(?uri) AS ?n)", 2, 17],
    ["a comment between the tokens", "SELECT DISTINCT COUNT # the count\n ( ?uri ) WHERE { ?uri a dbo:City }", "(COUNT(?uri) AS ?n)", 2, 17],
    ["COUNT DISTINCT without parentheses", "SELECT COUNT DISTINCT ?x WHERE { ?x a dbo:City }", "(COUNT(DISTINCT ?x) AS ?n)", 2, 8],
    ["count distinct in lower case", "select count distinct ?x where { ?x a dbo:City }", "(COUNT(DISTINCT ?x) AS ?n)", 2, 8],
    ["COUNT(DISTINCT ?x)", "SELECT COUNT(DISTINCT ?x) WHERE { ?x a dbo:City }", "(COUNT(DISTINCT ?x) AS ?n)", 2, 8],
    ["COUNT(*)", "SELECT COUNT(*) WHERE { ?x a dbo:City }", "(COUNT(*) AS ?n)", 2, 8],
    ["AS after the bare aggregate", "SELECT COUNT(?s) AS ?total WHERE { ?s a dbo:City }", "(COUNT(?s) AS ?total)", 2, 8],
    ["CRLF line ends", "SELECT DISTINCT\r\nCOUNT(?uri)\r\nWHERE { ?uri a dbo:City }", "(COUNT(?uri) AS ?n)", 3, 1],
    // the outer ?n is the query's own (Virtuoso leaves it unbound: it names the column callret-0), so the count gets another name
    ["in a subquery", "SELECT ?n WHERE { { SELECT COUNT(?s) WHERE { ?s a dbo:City } } }", "(COUNT(?s) AS ?n2)", 2, 28],
    ["a bare function call", "SELECT xsd:date(?d) WHERE { ?s dbo:birthDate ?d }", "(xsd:date(?d) AS ?value)", 2, 8],
  ])("%s: a warning where it was written, naming the standard form with the fix; strict SPARQL fails with the same fix", (_what, q, standard, line, column) => {
    const { query, notes } = virtuoso(q);
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatchObject({ code: "dialect-extension", severity: "warning", fix: `write ${standard}`, span: { line, column } });
    expect(notes[0]!.message).toMatch(new RegExp(`^Virtuoso syntax: .*; standard SPARQL 1\\.1 writes ${standard.replace(/[()*?.]/g, "\\$&")} \\(read as that\\)$`));
    if (standard.startsWith("(COUNT")) expect(toSparql(query)).toContain(standard);
    expect(strict(q).fix).toBe(`write ${standard}`);
  });

  it("two bare COUNTs get two names (?n, ?n2), never one name bound twice", () => {
    const { query, notes } = virtuoso("SELECT COUNT(?a) COUNT(?b) WHERE { ?a a ?b }");
    expect(notes.map((n) => n.fix)).toEqual(["write (COUNT(?a) AS ?n)", "write (COUNT(?b) AS ?n2)"]);
    expect(toSparql(query)).toContain("SELECT (COUNT(?a) AS ?n) (COUNT(?b) AS ?n2)");
  });

  it(`more bare aggregates than the ${MAX_DIALECT_REWRITES} rewrites a query may need: a syntax error at the first one left, no hang`, () => {
    const q = `SELECT ${Array.from({ length: 40 }, (_, i) => `COUNT(?s${i})`).join(" ")} WHERE { ?s0 a dbo:City }`;
    expect(() => virtuoso(q)).toThrow(SparqlSyntaxError);
    try {
      virtuoso(q);
    } catch (error) {
      // ?n, ?n2 … ?n16 name the ones read; the one left would be the 17th
      expect((error as SparqlSyntaxError).fix).toBe(`write (COUNT(?s${MAX_DIALECT_REWRITES}) AS ?n${MAX_DIALECT_REWRITES + 1})`);
    }
  });

  it.each([
    ["a define pragma", "define input:inference 'x' SELECT ?s WHERE { ?s a dbo:City }", /unexpected character: ->d<-/],
    ["a DEFINE pragma", 'DEFINE sql:select-option "order" SELECT ?s WHERE { ?s a dbo:City }', /unexpected character: ->D<-/],
    ["OPTION(...)", "SELECT ?s WHERE { ?s a dbo:City } OPTION (QUIETCAST)", /unexpected character: ->O<-/],
    ["a bif: function", "SELECT ?s WHERE { ?s dbo:name ?l FILTER(bif:contains(?l, 'x')) }", /undeclared prefix "bif:"/],
    ["bif:contains as a property", "SELECT ?s WHERE { ?s dbo:name ?l . ?l bif:contains '\"x\"' }", /undeclared prefix "bif:"/],
    ["a sql: function", "SELECT ?s WHERE { ?s dbo:name ?l FILTER(sql:foo(?l)) }", /undeclared prefix "sql:"/],
    ["an aggregate in an aggregate", "SELECT COUNT(COUNT(?s)) WHERE { ?s a dbo:City }", /aggregate/i],
    ["a non-breaking space", "SELECT DISTINCT\u00a0COUNT(?a) WHERE { ?a a ?b }", /unexpected character/],
  ])("an extension the dialect does not know stays an error under virtuoso and strict: %s", (_what, q, said) => {
    expect(() => virtuoso(q)).toThrow(SparqlSyntaxError);
    expect(() => virtuoso(q)).toThrow(said);
    strict(q);
  });

  it("a syntax error after CRLF line ends is placed on its line, in both dialects", () => {
    const q = "SELECT\r\n?uri\r\nWHERE\r\n{ ?uri a dbo:City . FILTER( }";
    for (const dialect of ["sparql11", "virtuoso"] as const) {
      try {
        parseSparqlDialect(D + q, { dialect });
        throw new Error("parsed");
      } catch (error) {
        expect(error).toBeInstanceOf(SparqlSyntaxError);
        expect([(error as SparqlSyntaxError).line, (error as SparqlSyntaxError).column]).toEqual([5, 29]);
      }
    }
  });
});
