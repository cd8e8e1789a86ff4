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
import { MAX_SPARQL_NESTING, lexSparql, nestingTooDeep, syntaxHint, type LexToken, type SyntaxEdit } from "./syntax-hints.js";
import { GroundwireError, type GroundwireErrorOptions } from "../errors.js";
import { checkArgs } from "../args.js";
import { quoteValue } from "../quote-value.js";

/**
 * The SPARQL text does not parse: carries the 1-based line and column (UTF-16 code units),
 * the parser's message (reworded for the known slips, see syntax-hints.ts) and, when the
 * slip is a known one, `fix`: the edit that repairs it (`write (COUNT(*) AS ?n)`).
 */
export class SparqlSyntaxError extends GroundwireError {
  /** The fix as a text edit of the query, when the slip is a known one (a dialect applies it; see dialect.ts). */
  edit?: SyntaxEdit;
  /** The prefix, when the error is a prefixed name whose prefix no PREFIX declares. */
  undeclaredPrefix?: string;
  constructor(
    readonly line: number,
    readonly column: number,
    readonly detail: string,
    readonly fix?: string,
    options?: GroundwireErrorOptions,
  ) {
    super(`SPARQL syntax error at line ${line}, column ${column}: ${detail}${fix ? ` (fix: ${fix})` : ""}`, options ?? { code: "bad_request", status: 400 });
    this.name = "SparqlSyntaxError";
  }
}

/**
 * The query nests `{`, `(` and `[` deeper than the parser can follow (MAX_SPARQL_NESTING,
 * 48): refused before parsing, at the first bracket past the limit, instead of a stack
 * overflow. `limit` is the limit.
 */
export class SparqlNestingError extends SparqlSyntaxError {
  constructor(
    line: number,
    column: number,
    readonly limit: number,
  ) {
    super(line, column, `nesting deeper than ${limit} at line ${line}`, undefined, { code: "limit", status: 422 });
    this.name = "SparqlNestingError";
  }
}

let parser: Parser | null = null;
function getParser(): Parser {
  // building a Traqula parser computes the grammar: do it once
  if (parser) return parser;
  // traqula() gives the tokens their linear prefixed-name matchers (ts/deps/traqula-lexing.ts)
  const { Parser, AstFactory } = traqula();
  return (parser = new Parser({
    defaultContext: { astFactory: new AstFactory(), skipValidation: true },
    lexerConfig: { positionTracking: "full" },
    // the error's place as an offset, read back with this module's line index: Traqula's own
    // message counts lines by "\n" while its lexer counts "\r\n" as one, so with CRLF line
    // ends its line number was one past the real one per line break before the error
    errorHandler: (errors: { message: string; token: { startOffset: number } }[]) => {
      const first = errors[0]!;
      const offset = first.token.startOffset;
      throw new Error(Number.isFinite(offset) ? `Parse error at offset ${offset}\n${first.message}` : `Parse error\n${first.message}`);
    },
  } as ConstructorParameters<typeof Parser>[0]));
}

/** Offsets → 1-based line and column, for one text. */
export function createLineIndex(text: string): (offset: number) => { line: number; column: number } {
  checkArgs("createLineIndex", arguments, "text:string");
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
        const error = new SparqlSyntaxError(where?.line ?? 1, where?.column ?? 1, `undeclared prefix ${quoteValue(`${node.prefix}:`)}`);
        error.undeclaredPrefix = node.prefix;
        throw error;
      }
      // PN_LOCAL_ESC (SPARQL 1.1 §19.5, production [173]): `ex:c\~z\.` names <…c~z.>; the parser keeps the backslashes.
      value = ns + value.replace(/\\([_~.\-!$&'()*+,;=/?#@%])/g, "$1");
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
    let starAt: Origin | undefined;
    const describe: (Variable | Iri)[] = [];
    if (form === "select" || form === "describe") {
      const vars = node.variables as AnyNode[];
      if (vars.length === 1 && vars[0].type === "wildcard") {
        projection = "*";
        starAt = this.at(vars[0]);
      }
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
    if (starAt) q.starAt = starAt;
    if (mods.having?.loc) q.havingAt = this.at(mods.having);
    return q;
  }
}

/**
 * Parse a SPARQL 1.1 query into the kernel algebra.
 * @param text the query
 * @param options.prefixes prefixes assumed when the query uses one it does not declare (e.g. the schema's); the query's own PREFIX lines win
 * @throws SparqlSyntaxError with 1-based line and column on a lexer or parser error, an undeclared prefix, a VALUES row with too few or too many values, an update request, or a text with no query form (empty, only comments or PREFIX lines)
 */
export function parseSparql(text: string, options: { prefixes?: Record<string, string> } = {}): Query {
  checkArgs("parseSparql", arguments, "text:string options?:object");
  const lineOf = createLineIndex(text);
  // Traqula's parser is recursive: refuse nesting it cannot follow before it runs (a cheap
  // character count first; the tokens, which skip brackets in strings and comments, decide)
  if (rawNesting(text) > MAX_SPARQL_NESTING) {
    const deep = nestingTooDeep(lexSparql(text));
    if (deep) {
      const { line, column } = lineOf(deep.start);
      throw new SparqlNestingError(line, column, MAX_SPARQL_NESTING);
    }
  }
  let ast: AnyNode;
  try {
    ast = getParser().parse(text);
  } catch (error) {
    if (error instanceof RangeError) throw tooComplex(text, lineOf);
    const { error: syntax, offset } = toSyntaxError(error as Error, text, lineOf);
    // without its validation Traqula crashes (a TypeError) on a VALUES row with too many values
    const fault = valuesRowFault(text, lineOf);
    if (fault && (error instanceof TypeError || fault.line < syntax.line || (fault.line === syntax.line && fault.column <= syntax.column))) throw fault;
    throw withHint(syntax, offset, text, lineOf);
  }
  const fault = valuesRowFault(text, lineOf);
  if (fault) throw fault;
  if (ast.type !== "query") {
    // The grammar reads a text with no query form (empty, only comments or PREFIX lines) as an
    // update with no operation: say what is missing, not that it is an update.
    const updates = (ast as { updates?: Array<{ operation?: unknown }> }).updates ?? [];
    if (updates.every((u) => u.operation === undefined)) {
      const { line, column } = lineOf(text.length);
      throw new SparqlSyntaxError(line, column, "the query is empty: no SELECT, ASK, CONSTRUCT or DESCRIBE");
    }
    throw new SparqlSyntaxError(1, 1, "a SPARQL Update request is not a query plan");
  }
  try {
    return new Converter(lineOf, options.prefixes ?? {}).query(ast);
  } catch (error) {
    if (error instanceof RangeError) throw tooComplex(text, lineOf);
    throw error;
  }
}

/** The deepest run of `{([` counted on raw characters: an upper bound of the token nesting. */
function rawNesting(text: string): number {
  let depth = 0;
  let max = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 123 || c === 40 || c === 91) max = Math.max(max, ++depth);
    else if (c === 125 || c === 41 || c === 93) depth--;
  }
  return max;
}

/** A stack overflow inside the parser or converter on input within the bracket limit (a very long operator chain): a typed error, never a crash. */
function tooComplex(text: string, lineOf: (offset: number) => { line: number; column: number }): SparqlSyntaxError {
  const { line } = lineOf(text.length);
  return new SparqlSyntaxError(1, 1, `the query is too deeply nested to parse (${line} line${line === 1 ? "" : "s"}): split long expressions or groups`, undefined, { code: "limit", status: 422 });
}

/** Reword a parser failure when syntax-hints.ts knows the slip behind it (with a `fix`), else return it as is. */
function withHint(syntax: SparqlSyntaxError, offset: number, text: string, lineOf: (offset: number) => { line: number; column: number }): SparqlSyntaxError {
  if (Number.isNaN(offset)) return syntax;
  let tokens: LexToken[];
  try {
    tokens = lexSparql(text);
  } catch {
    return syntax;
  }
  const placement = aggregatePlacement(syntax.detail, tokens);
  if (placement) {
    const { line, column } = lineOf(placement.start);
    return new SparqlSyntaxError(line, column, syntax.detail);
  }
  const hint = syntaxHint(text, tokens, offset);
  if (!hint) return syntax;
  const { line, column } = lineOf(hint.offset);
  const reworded = new SparqlSyntaxError(line, column, hint.detail, hint.fix);
  if (hint.edit) reworded.edit = hint.edit;
  return reworded;
}

const AGGREGATE_WORDS = new Set(["COUNT", "SUM", "MIN", "MAX", "AVG", "SAMPLE", "GROUP_CONCAT"]);

/**
 * Traqula reports a misplaced or nested aggregate without a position: find the aggregate on
 * the tokens. Misplaced: in a WHERE group (FILTER, BIND) or GROUP BY, i.e. outside SELECT,
 * HAVING and ORDER BY (SPARQL 1.1 §18.2.4.1); nested: inside another aggregate's parentheses.
 */
function aggregatePlacement(detail: string, tokens: LexToken[]): LexToken | undefined {
  const nested = /not allowed within an aggregate/.test(detail);
  if (!nested && !/Aggregates are only allowed/.test(detail)) return undefined;
  const isAggregate = (i: number) => AGGREGATE_WORDS.has(tokens[i].image.toUpperCase()) && tokens[i + 1]?.type === "LParen" && tokens[i].type.startsWith("BuiltIn");
  const contexts: string[] = ["select"];
  let clause = "select";
  const aggregateClose: number[] = [];
  let parens = 0;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    if (t.type === "LParen") parens++;
    else if (t.type === "RParen") {
      parens--;
      if (aggregateClose[aggregateClose.length - 1] === parens) aggregateClose.pop();
    } else if (t.type === "Select") clause = "select";
    else if (t.type === "Where" || t.type === "LCurly") {
      if (t.type === "LCurly") contexts.push(clause);
      clause = "where";
    } else if (t.type === "RCurly") clause = contexts.pop() ?? "where";
    else if (t.type === "GroupByGroup") clause = "group";
    else if (t.type === "Having") clause = "having";
    else if (t.type === "Order") clause = "order";
    if (!isAggregate(i)) continue;
    if (nested ? aggregateClose.length > 0 : clause === "where" || clause === "group") return t;
    aggregateClose.push(parens);
  }
  return undefined;
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

/** The parser's failure as a SparqlSyntaxError, and the UTF-16 offset it points at (-1 when it gives none, as at an unexpected end of input; NaN for a lexer error). */
function toSyntaxError(error: Error, text: string, lineOf: (offset: number) => { line: number; column: number }): { error: SparqlSyntaxError; offset: number } {
  const message = error.message ?? String(error);
  // Traqula parse errors: "Parse error on line N\n<the line>\n----^\n<expectation>"
  const at = /^Parse error at offset (\d+)\n([\s\S]*)/.exec(message);
  if (at) {
    const offset = Number(at[1]);
    const { line, column } = lineOf(offset);
    return { error: new SparqlSyntaxError(line, column, shorten(at[2].replace(/\s+/g, " ").trim()) || "unexpected input"), offset };
  }
  const parse = /Parse error on line (\d+)\n[^\n]*\n(-*)\^\n?([\s\S]*)/.exec(message);
  if (parse) {
    const detail = parse[3].replace(/\s+/g, " ").trim();
    const line = Number(parse[1]);
    const column = parse[2].length + 1;
    return { error: new SparqlSyntaxError(line, column, shorten(detail) || "unexpected input"), offset: offsetOf(text, line, column) };
  }
  const lexer = /at offset: (\d+)/.exec(message);
  if (lexer) {
    const { line, column } = lineOf(Number(lexer[1]));
    // a character the lexer cannot read: its own message says it all (no fix-it applies)
    return { error: new SparqlSyntaxError(line, column, message.replace(/,? ?skipped \d+ characters\.?/, "").trim()), offset: Number.NaN };
  }
  return { error: new SparqlSyntaxError(1, 1, message.split("\n")[0]), offset: -1 };
}

/** The UTF-16 offset of a 1-based line and column of `text` (-1 past its last line). */
export function offsetOf(text: string, line: number, column: number): number {
  let start = 0;
  for (let l = 1; l < line; l++) {
    const nl = text.indexOf("\n", start);
    if (nl < 0) return -1;
    start = nl + 1;
  }
  return start + column - 1;
}

/**
 * What Chevrotain says it expected: the text between "Expecting…" and "but found", trimmed, when
 * it holds no line break; read with indexOf, once (a lazy `(.*?)` between two `\s*` retried every
 * split of the text, quadratic in a long message).
 */
function expectation(detail: string): [string, string] | null {
  const head = /Expecting:? (?:one of these possible Token sequences:|expecting at least one iteration which starts with one of these possible Token sequences::)?/.exec(detail);
  if (!head) return null;
  const from = head.index + head[0].length;
  const end = detail.indexOf("but found", from);
  if (end < 0) return null;
  const middle = detail.slice(from, end).trim();
  return /[\n\r\u2028\u2029]/.test(middle) ? null : [detail.slice(head.index, end + "but found".length), middle];
}

function shorten(detail: string): string {
  // Chevrotain lists every expected token sequence; keep what was found and a short expectation
  const found = /but found: '([^']*)'/.exec(detail);
  const expecting = expectation(detail);
  if (found) {
    const exp = expecting?.[1] ?? "";
    const short = exp.length > 160 ? `${exp.slice(0, 157)}...` : exp;
    return `unexpected '${found[1]}'${short ? `, expecting ${short}` : ""}`;
  }
  return detail.length > 240 ? `${detail.slice(0, 237)}...` : detail;
}
