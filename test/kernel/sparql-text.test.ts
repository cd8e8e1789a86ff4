// SPARQL text printed from a plan never carries an IRI that could end its IRIREF: SPARQL decodes \u escapes
// before parsing (§19.2), so such IRIs are refused, never escaped.
import { describe, expect, it } from "vitest";
import { compileOps, iriRef, PlanError, SparqlIriError, SparqlTermError, toSparql, emptyQuery, type Query } from "../../ts/kernel/index.js";
import { parseSparql } from "../../ts/kernel/sparql.js";

const INJECTED = "http://e/> . } ; DROP ALL ; SELECT * WHERE { <http://e/";

describe("IRIs in printed SPARQL", () => {
  it("a prefix op whose namespace holds '>' is refused at its op, naming it", () => {
    expect(() => compileOps([{ op: "prefix", prefix: "ex", iri: INJECTED }])).toThrow(PlanError);
    expect(() => compileOps([{ op: "prefix", prefix: "ex", iri: INJECTED }])).toThrow(/^op 1: prefix "ex": the IRI "http:\/\/e\/> \. } ; DROP ALL/);
  });

  it("iriRef writes an ordinary IRI and refuses space, controls and <>\"{}|^`\\", () => {
    expect(iriRef("http://example.org/a#b")).toBe("<http://example.org/a#b>");
    for (const c of [" ", "\n", "\u0000", "<", ">", '"', "{", "}", "|", "^", "`", "\\"]) {
      expect(() => iriRef(`http://e/${c}x`)).toThrow(SparqlIriError);
    }
  });

  it("a query built or changed in code cannot print an injected PREFIX, BASE or IRI", () => {
    const ok = compileOps([{ op: "prefix", prefix: "ex", iri: "http://example.org/" }, { op: "triple", s: "?s", p: "ex:p", o: "?o" }]);
    const text = toSparql(ok.query);
    expect(text.startsWith("PREFIX ex: <http://example.org/>\n")).toBe(true);
    expect(() => parseSparql(text)).not.toThrow();
    expect(() => toSparql({ ...ok.query, base: INJECTED })).toThrow(SparqlIriError);
    const changed = JSON.parse(JSON.stringify(ok.query).replace("http://example.org/p", "http://e/> . } DROP ALL"));
    expect(JSON.stringify(changed)).toContain("DROP ALL");
    expect(() => toSparql(changed)).toThrow(SparqlIriError);
    expect(() => toSparql(emptyQuery({ ex: INJECTED }))).not.toThrow(); // an unused prefix is not printed
  });
});

describe("names in printed SPARQL", () => {
  it("a query built or changed in code cannot print an injected variable, blank node label, language tag or function name", () => {
    const base = compileOps([
      { op: "triple", s: "?s", p: "<http://e/p>", o: '"x"@en' },
      { op: "triple", s: "_:b", p: "<http://e/p>", o: "?o" },
      { op: "bind", expr: "STR(?o)", as: "?k" },
      { op: "project", vars: ["?s", "(COUNT(?o) AS ?n)"] },
    ]).query;
    expect(() => parseSparql(toSparql(base))).not.toThrow();
    const json = JSON.stringify(base);
    const change = (from: string, to: string): Query => JSON.parse(json.split(from).join(to)) as Query;
    const injected = "x } . ?s <http://e/secret> ?y #";
    expect(() => toSparql(change('"name":"s"', `"name":${JSON.stringify(injected)}`))).toThrow(SparqlTermError);
    expect(() => toSparql(change('"name":"k"', `"name":${JSON.stringify(injected)}`))).toThrow('the variable name "x } . ?s <http://e/secret> ?y #" cannot be written in SPARQL');
    expect(() => toSparql(change('"label":"e_b"', `"label":${JSON.stringify(injected)}`))).toThrow(/^the blank node label /);
    expect(() => toSparql(change('"language":"en"', `"language":${JSON.stringify(injected)}`))).toThrow(/^the language tag /);
    expect(() => toSparql(change('"name":"str"', `"name":${JSON.stringify("str(?o)) } #")}`))).toThrow(/^the function name /);
    expect(() => toSparql(change('"name":"count"', `"name":${JSON.stringify("count(*)) } #")}`))).toThrow(/^the aggregate name /);
    // a long one is quoted bounded (ts/quote-value.ts): its first 80 characters, an ellipsis, its length
    const huge = `x } ${"a".repeat(20_000)}`;
    expect(() => toSparql(change('"name":"k"', `"name":${JSON.stringify(huge)}`))).toThrow(`the variable name ${JSON.stringify(huge.slice(0, 80))}… (20004 characters) cannot be written in SPARQL`);
  });
});

describe("a text with no query form", () => {
  // Traqula reads "" and a prologue alone as an update with no operation; the message said
  // "a SPARQL Update request" for an empty file.
  it("empty, comments only or PREFIX lines only: the query is empty, at the end of the text", () => {
    const cases: Array<[string, number, number]> = [
      ["", 1, 1],
      ["  # only a comment\n", 2, 1],
      ["PREFIX ex: <http://e/>\n\n", 3, 1],
    ];
    for (const [text, line, column] of cases) {
      expect(() => parseSparql(text)).toThrow(`SPARQL syntax error at line ${line}, column ${column}: the query is empty: no SELECT, ASK, CONSTRUCT or DESCRIBE`);
    }
  });

  it("an update with an operation is still named an update", () => {
    expect(() => parseSparql("INSERT DATA { <http://a/s> <http://a/p> <http://a/o> }")).toThrow("a SPARQL Update request is not a query plan");
  });
});

describe("LIMIT and OFFSET print as SPARQL integers", () => {
  // JS prints 1e21 and up in exponent form, which SPARQL's INTEGER does not accept.
  it("a large count from a parsed query prints as digits and re-parses; a plan's op refuses one past 2^53", () => {
    // The op list's schema takes safe integers only (an agent's 1e23 is a mistake, not a count).
    expect(() => compileOps([{ op: "triple", s: "?s", p: "<http://e/p>", o: "?o" }, { op: "limit", n: 1e23 }])).toThrow(/^op 2: limit needs "n" as a non-negative integer, got 1e\+23/);
    const big = parseSparql("SELECT * WHERE { ?s ?p ?o } LIMIT 100000000000000000000000 OFFSET 1000000000000000000000");
    const text = toSparql(big);
    expect(text).toMatch(/\nLIMIT 99999999999999991611392\nOFFSET 1000000000000000000000\n$/); // 1e23 as a double, in digits
    expect(parseSparql(text).limit).toBe(1e23);
    const parsed = parseSparql("SELECT * WHERE { ?s ?p ?o } LIMIT 99999999999999999999999");
    expect(toSparql(parsed)).toMatch(/\nLIMIT \d+\n?$/);
    expect(toSparql(parseSparql("SELECT * WHERE { ?s ?p ?o } LIMIT 10 OFFSET 5"))).toMatch(/\nLIMIT 10\nOFFSET 5\n?$/);
  });
});

describe("an op's expression that ends too early", () => {
  // The expression is parsed inside a scratch query; its own `AS` must not show up in the message.
  it("is named as incomplete, not as \"unexpected 'AS'\"", () => {
    for (const expr of ["?y >", "(?y > 1", "REGEX(?name,"]) {
      expect(() => compileOps([{ op: "filter", expr }])).toThrow(`op 1: filter: the expression ${JSON.stringify(expr)} is incomplete: it ends where an operand or ')' is still expected`);
    }
    expect(() => compileOps([{ op: "filter", expr: "?y > > 1" }])).toThrow(/^op 1: filter: unexpected '>'/);
    expect(compileOps([{ op: "triple", s: "?s", p: "<http://e/p>", o: "?y" }, { op: "filter", expr: "?y > 1" }]).query.where.patterns.length).toBeGreaterThan(0);
  });
});

describe("long runs of name characters lex in linear work", () => {
  // Traqula's prefixed-name patterns read to the end of such a run at each of its positions;
  // 8,000 characters took 5 s and 50,000 (the server's query cap) minutes before the fix
  it("a run of `a`, of run-together keywords or of `a1` is a syntax error at its place, and prefixed names lex as before", () => {
    expect(() => parseSparql("a".repeat(50_000))).toThrow(/^SPARQL syntax error at line 1, column 1: /);
    expect(() => parseSparql(`SELECT * WHERE { ?s ${"a".repeat(50_000)} ?o }`)).toThrow(/^SPARQL syntax error at line 1, column 22: /);
    expect(() => parseSparql("ASK".repeat(20_000))).toThrow(/^SPARQL syntax error at line 1, column 4: /);
    expect(() => parseSparql("a1".repeat(25_000))).toThrow(/^SPARQL syntax error at line 1, column 1: /);
    // a run ending in "." before a ":" starts no prefixed name either (a prefix never ends in ".")
    expect(() => parseSparql(`${"a.".repeat(25_000)}:`)).toThrow(/^SPARQL syntax error at line 1, column 1: /);
    expect(() => parseSparql(`SELECT * WHERE { ?s ${"a".repeat(50_000)}.:b ?o }`)).toThrow(/^SPARQL syntax error at line 1, column 22: /);
    // a long prefix, a long local name, and a prefix of non-ASCII letters still lex as one name
    const long = "p".repeat(20_000);
    const q = parseSparql(`PREFIX ${long}: <http://example.org/> SELECT ?s WHERE { ?s a ${long}:${"x".repeat(20_000)} . ?s é·ü:b ?o }`, { prefixes: { "é·ü": "http://example.org/u#" } });
    expect(JSON.stringify(q)).toContain(`http://example.org/${"x".repeat(20_000)}`);
    expect(JSON.stringify(q)).toContain("http://example.org/u#b");
  });
});
