/**
 * SPARQL 1.1 text → the kernel algebra, parsed by Traqula
 * (`@traqula/parser-sparql-1-1`) with full position tracking, so every node
 * keeps its source span. Traqula's own semantic validation is switched off
 * (`skipValidation`): the kernel reports those faults itself, with the
 * messages of DESIGN §2 and a span. Prefixed names are expanded with the
 * query's PREFIX declarations (falling back to `fallbackPrefixes`, e.g. the
 * schema's), relative IRIs resolved against BASE.
 */
import type { Parser } from "@traqula/parser-sparql-1-1";
import type { lex as Lex } from "@traqula/rules-sparql-1-1";
import { traqula } from "../deps/traqula.js";
import type { Expr, Group, Iri, Origin, Path, Pattern, Projection, Query, Span, Term, TriplePattern, Values, Variable } from "./algebra.js";
import { RDF, XSD } from "./schema.js";

/** The SPARQL text does not parse: carries the 1-based line and column (UTF-16 code units) and the parser's message. */
export class SparqlSyntaxError extends Error {
  constructor(
    readonly line: number,
    readonly column: number,
    readonly detail: string,
  ) {
    super(`SPARQL syntax error at line ${line}, column ${column}: ${detail}`);
    this.name = "SparqlSyntaxError";
  }
}

let parser: Parser | null = null;
function getParser(): Parser {
  // building a Traqula parser computes the grammar: do it once
  const { Parser, AstFactory } = traqula();
  return (parser ??= new Parser({
    defaultContext: { astFactory: new AstFactory(), skipValidation: true },
    lexerConfig: { positionTracking: "full" },
  }));
}

/** Offsets → 1-based line and column, for one text. */
export function createLineIndex(text: string): (offset: number) => { line: number; column: number } {
  const starts = [0];
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) starts.push(i + 1);
  return (offset) => {
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, column: offset - starts[lo] + 1 };
  };
}

/* eslint-disable @typescript-eslint/no-explicit-any */
type AnyNode = any;

class Converter {
  prefixes: Record<string, string> = {};
  base: string | undefined;
  private bnodes = 0;
  constructor(
    private readonly lineOf: (offset: number) => { line: number; column: number },
    fallbackPrefixes: Record<string, string>,
  ) {
    this.fallback = fallbackPrefixes;
  }
  private readonly fallback: Record<string, string>;

  at(node: AnyNode): Origin | undefined {
    const loc = node?.loc;
    if (!loc || loc.sourceLocationType !== "source" || typeof loc.start !== "number") return undefined;
    const span: Span = { start: loc.start, end: loc.end, ...this.lineOf(loc.start) };
    return { span };
  }

  iri(node: AnyNode): Iri {
    let value: string = node.value;
    if (node.prefix !== undefined) {
      const ns = this.prefixes[node.prefix] ?? this.fallback[node.prefix];
      if (ns === undefined) {
        const where = this.at(node)?.span;
        throw new SparqlSyntaxError(where?.line ?? 1, where?.column ?? 1, `undeclared prefix "${node.prefix}:"`);
      }
      value = ns + value;
    } else if (this.base && !/^[A-Za-z][A-Za-z0-9+.-]*:/.test(value)) {
      try {
        value = new URL(value, this.base).href;
      } catch {
        /* keep as written */
      }
    }
    return { kind: "iri", value, at: this.at(node) };
  }

  term(node: AnyNode): Term {
    switch (node.subType) {
      case "variable":
        return { kind: "var", name: node.value, at: this.at(node) };
      case "namedNode":
        return this.iri(node);
      case "blankNode":
        return { kind: "bnode", label: node.label ?? `b${this.bnodes++}`, at: this.at(node) };
      case "literal": {
        const li = node.langOrIri;
        if (typeof li === "string") return { kind: "literal", value: node.value, language: li.toLowerCase(), datatype: `${RDF}langString`, at: this.at(node) };
        const datatype = li ? this.iri(li).value : `${XSD}string`;
        return { kind: "literal", value: node.value, datatype, at: this.at(node) };
      }
    }
    throw new Error(`kernel: unexpected term node ${node.type}/${node.subType}`);
  }

  path(node: AnyNode): Path | Iri | Variable {
    if (node.type === "term") return this.term(node) as Iri | Variable;
    const items = (node.items as AnyNode[]).map((i) => this.pathItem(i));
    switch (node.subType) {
      case "/":
        return { kind: "seq", items };
      case "|":
        return { kind: "alt", items };
      case "^":
        return { kind: "inv", path: items[0] };
      case "*":
      case "+":
      case "?":
        return { kind: "mod", mod: node.subType, path: items[0] };
      case "!": {
        const inner = items[0];
        return { kind: "nps", items: inner.kind === "alt" ? inner.items : [inner] };
      }
    }
    throw new Error(`kernel: unexpected path ${node.subType}`);
  }

  private pathItem(node: AnyNode): Path {
    const p = this.path(node);
    if (p.kind === "iri") return { kind: "link", iri: p };
    if (p.kind === "var") throw new Error("kernel: a variable inside a property path");
    return p;
  }

  /** Flatten Traqula's nested triples (blank-node property lists, collections) into plain triple patterns. */
  triples(nodes: AnyNode[], out: TriplePattern[] = []): TriplePattern[] {
    for (const n of nodes) {
      if (n.type === "tripleCollection") {
        this.triples(n.triples, out);
        continue;
      }
      const s = this.graphNode(n.subject, out);
      const o = this.graphNode(n.object, out);
      out.push({ s, p: this.path(n.predicate), o, at: this.at(n) });
    }
    return out;
  }

  private graphNode(node: AnyNode, out: TriplePattern[]): Term {
    if (node.type === "tripleCollection") {
      this.triples(node.triples, out);
      return this.term(node.identifier);
    }
    return this.term(node);
  }

  expr(node: AnyNode): Expr {
    if (node.type === "term") return { kind: "term", term: this.term(node), at: this.at(node) };
    switch (node.subType) {
      case "operation":
        return { kind: "call", name: String(node.operator).toLowerCase(), args: node.args.map((a: AnyNode) => this.expr(a)), at: this.at(node) };
      case "functionCall":
        return { kind: "call", name: this.iri(node.function).value, iri: true, distinct: node.distinct || undefined, args: node.args.map((a: AnyNode) => this.expr(a)), at: this.at(node) };
      case "aggregate": {
        const arg = node.expression[0];
        return {
          kind: "aggregate",
          name: String(node.aggregation).toLowerCase(),
          distinct: !!node.distinct,
          arg: arg.type === "wildcard" ? "*" : this.expr(arg),
          separator: node.separator,
          at: this.at(node),
        };
      }
      case "patternOperation":
        return { kind: "exists", negated: String(node.operator).toLowerCase() === "notexists", group: this.group(node.args), at: this.at(node) };
    }
    throw new Error(`kernel: unexpected expression ${node.type}/${node.subType}`);
  }

  group(node: AnyNode): Group {
    return { type: "group", patterns: (node.patterns as AnyNode[]).map((p) => this.pattern(p)), at: this.at(node) };
  }

  private wrap(node: AnyNode): Group {
    return { type: "group", patterns: (node.patterns as AnyNode[]).map((p) => this.pattern(p)), at: this.at(node) };
  }

  values(node: AnyNode): Values {
    const variables = (node.variables as AnyNode[]).map((v) => this.term(v) as Variable);
    const rows = (node.values as Record<string, AnyNode>[]).map((row) => variables.map((v) => (row[v.name] ? this.term(row[v.name]) : undefined)));
    return { type: "values", variables, rows, at: this.at(node) };
  }

  pattern(node: AnyNode): Pattern {
    if (node.type === "query") return { type: "subquery", query: this.query(node, true), at: this.at(node) };
    const at = this.at(node);
    switch (node.subType) {
      case "bgp":
        return { type: "bgp", triples: this.triples(node.triples), at };
      case "group":
        return this.group(node);
      case "optional":
        return { type: "optional", group: this.wrap(node), at };
      case "minus":
        return { type: "minus", group: this.wrap(node), at };
      case "union":
        return { type: "union", branches: (node.patterns as AnyNode[]).map((b) => (b.subType === "group" ? this.group(b) : { type: "group", patterns: [this.pattern(b)] })), at };
      case "filter":
        return { type: "filter", expr: this.expr(node.expression), at };
      case "bind":
        return { type: "bind", expr: this.expr(node.expression), variable: this.term(node.variable) as Variable, at };
      case "values":
        return this.values(node);
      case "graph":
        return { type: "graph", name: this.term(node.name) as Variable | Iri, group: this.wrap(node), at };
      case "service":
        return { type: "service", name: this.term(node.name) as Variable | Iri, silent: !!node.silent, group: this.wrap(node), at };
    }
    throw new Error(`kernel: unexpected pattern ${node.type}/${node.subType}`);
  }

  query(node: AnyNode, sub = false): Query {
    if (!sub) {
      for (const def of node.context ?? []) {
        if (def.subType === "prefix") this.prefixes[def.key] = def.value.value;
        else if (def.subType === "base") this.base = def.value.value;
      }
    }
    const form = node.subType as Query["form"];
    let projection: Query["projection"] = [];
    const describe: (Variable | Iri)[] = [];
    if (form === "select" || form === "describe") {
      const vars = node.variables as AnyNode[];
      if (vars.length === 1 && vars[0].type === "wildcard") projection = "*";
      else {
        const cols: Projection[] = [];
        for (const v of vars) {
          if (v.type === "pattern") cols.push({ variable: this.term(v.variable) as Variable, expr: this.expr(v.expression), at: this.at(v) });
          else if (v.subType === "variable") cols.push({ variable: this.term(v) as Variable, at: this.at(v) });
          else describe.push(this.iri(v));
        }
        projection = cols;
      }
    }
    const mods = node.solutionModifiers ?? {};
    const q: Query = {
      form,
      prefixes: sub ? this.prefixes : { ...this.prefixes },
      base: this.base,
      distinct: node.distinct || undefined,
      reduced: node.reduced || undefined,
      projection,
      where: node.where ? this.group(node.where) : { type: "group", patterns: [] },
      groupBy: (mods.group?.groupings ?? []).map((g: AnyNode) =>
        g.variable && g.value ? { expr: this.expr(g.value), variable: this.term(g.variable) as Variable, at: this.at(g) } : { expr: this.expr(g), at: this.at(g) },
      ),
      having: (mods.having?.having ?? []).map((h: AnyNode) => this.expr(h)),
      orderBy: (mods.order?.orderDefs ?? []).map((o: AnyNode) => ({ expr: this.expr(o.expression), descending: !!o.descending, at: this.at(o) })),
      limit: mods.limitOffset?.limit,
      offset: mods.limitOffset?.offset,
      at: this.at(node),
    };
    if (node.values) q.values = this.values(node.values);
    if (form === "construct") q.template = this.triples(node.template?.triples ?? []);
    if (describe.length) q.describe = describe;
    return q;
  }
}

/**
 * Parse a SPARQL 1.1 query into the kernel algebra.
 * @param text the query
 * @param options.prefixes prefixes assumed when the query uses one it does not declare (e.g. the schema's); the query's own PREFIX lines win
 * @throws SparqlSyntaxError with 1-based line and column on a lexer or parser error, an undeclared prefix, a VALUES row with too few or too many values, or an update request
 */
export function parseSparql(text: string, options: { prefixes?: Record<string, string> } = {}): Query {
  const lineOf = createLineIndex(text);
  let ast: AnyNode;
  try {
    ast = getParser().parse(text);
  } catch (error) {
    const syntax = toSyntaxError(error as Error, lineOf);
    // without its validation Traqula crashes (a TypeError) on a VALUES row with too many values
    const fault = valuesRowFault(text, lineOf);
    if (fault && (error instanceof TypeError || fault.line < syntax.line || (fault.line === syntax.line && fault.column <= syntax.column))) throw fault;
    throw syntax;
  }
  const fault = valuesRowFault(text, lineOf);
  if (fault) throw fault;
  if (ast.type !== "query") throw new SparqlSyntaxError(1, 1, "a SPARQL Update request is not a query plan");
  return new Converter(lineOf, options.prefixes ?? {}).query(ast);
}

let lexer: ReturnType<typeof Lex.sparql11LexerBuilder.build> | null = null;

/**
 * The first VALUES row whose number of values differs from the number of variables, as a
 * SparqlSyntaxError at the row's `(` (SPARQL 1.1 §10.2.2: every row of a data block has
 * one value or UNDEF per variable). Traqula's AST cannot show it: a row is stored as a
 * map from variable to value, so a short row looks like one with UNDEFs (W3C negative test
 * `syn-bad-values-too-few`). So the rows are counted on Traqula's own tokens (its SPARQL
 * 1.1 lexer): one value per token, except a language tag, and `^^` with the datatype IRI
 * after it, which belong to the literal before them. Only the many-variable form
 * `VALUES (?a ?b) { (…) … }` has rows; anything not shaped like a data block is left to the parser.
 */
function valuesRowFault(text: string, lineOf: (offset: number) => { line: number; column: number }): SparqlSyntaxError | undefined {
  if (!/values/i.test(text)) return undefined;
  const { lex } = traqula();
  const { symbols: sym, terminals: term } = lex;
  const tokens = (lexer ??= lex.sparql11LexerBuilder.build({ positionTracking: "onlyOffset" })).tokenize(text).tokens;
  const type = (j: number) => tokens[j]?.tokenType;
  for (let i = 0; i < tokens.length; i++) {
    if (type(i) !== lex.values || type(i + 1) !== sym.LParen) continue;
    let j = i + 2;
    const variables: string[] = [];
    while (type(j) === term.var1 || type(j) === term.var2) variables.push(tokens[j++].image);
    if (type(j) !== sym.RParen || type(j + 1) !== sym.LCurly) continue;
    j += 2;
    for (let row = 1; j < tokens.length && type(j) !== sym.RCurly; row++) {
      const open = tokens[j];
      let count = 0;
      if (type(j) === term.nil) j++; // "()" is one token: a row of no values
      else if (type(j) === sym.LParen) {
        j++;
        while (j < tokens.length && type(j) !== sym.RParen && type(j) !== sym.LParen && type(j) !== sym.RCurly) {
          if (type(j) === sym.hathat) j++; // skip the datatype IRI too
          else if (type(j) !== term.langTag) count++;
          j++;
        }
        if (type(j) !== sym.RParen) break;
        j++;
      } else break;
      if (count !== variables.length) {
        const { line, column } = lineOf(open.startOffset);
        const hint = count < variables.length ? ": write UNDEF for a missing value" : "";
        return new SparqlSyntaxError(line, column, `VALUES row ${row} has ${count} value${count === 1 ? "" : "s"} for ${variables.length} variable${variables.length === 1 ? "" : "s"} (${variables.join(" ")})${hint}`);
      }
    }
    i = j;
  }
  return undefined;
}

function toSyntaxError(error: Error, lineOf: (offset: number) => { line: number; column: number }): SparqlSyntaxError {
  const message = error.message ?? String(error);
  // Traqula parse errors: "Parse error on line N\n<the line>\n----^\n<expectation>"
  const parse = /Parse error on line (\d+)\n[^\n]*\n(-*)\^\n?([\s\S]*)/.exec(message);
  if (parse) {
    const detail = parse[3].replace(/\s+/g, " ").trim();
    return new SparqlSyntaxError(Number(parse[1]), parse[2].length + 1, shorten(detail) || "unexpected input");
  }
  const lexer = /at offset: (\d+)/.exec(message);
  if (lexer) {
    const { line, column } = lineOf(Number(lexer[1]));
    return new SparqlSyntaxError(line, column, message.replace(/,? ?skipped \d+ characters\.?/, "").trim());
  }
  return new SparqlSyntaxError(1, 1, message.split("\n")[0]);
}

function shorten(detail: string): string {
  // Chevrotain lists every expected token sequence; keep what was found and a short expectation
  const found = /but found: '([^']*)'/.exec(detail);
  const expecting = /Expecting:? (?:one of these possible Token sequences:|expecting at least one iteration which starts with one of these possible Token sequences::)?\s*(.*?)\s*but found/.exec(detail);
  if (found) {
    const exp = expecting?.[1] ?? "";
    const short = exp.length > 160 ? `${exp.slice(0, 157)}...` : exp;
    return `unexpected '${found[1]}'${short ? `, expecting ${short}` : ""}`;
  }
  return detail.length > 240 ? `${detail.slice(0, 237)}...` : detail;
}
