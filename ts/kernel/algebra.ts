/**
 * The one internal algebra both plan forms compile to: a SPARQL 1.1 query
 * (parsed by Traqula, ts/kernel/sparql.ts) and an agent's JSON op list
 * (ts/kernel/ops.ts). It stays close to the SPARQL grammar (groups, not
 * joins) because diagnostics must point back at what the author wrote.
 * `toSparql` prints it back as SPARQL 1.1 text.
 */
import { RDF_TYPE, XSD } from "./schema.js";
import { toPrefixMap } from "../rdf/format-term.js";
import { GroundwireError } from "../errors.js";
import { checkArgs } from "../arg-kinds.js";
import { quoteValue } from "../quote-value.js";

/** A source position. `start`/`end` are UTF-16 code-unit offsets into the query text; line and column are 1-based (column in UTF-16 code units). */
export interface Span {
  start: number;
  end: number;
  line: number;
  column: number;
}

/** Where a node came from: a span of the query text, or the index (0-based) of an op in an op list. */
export interface Origin {
  span?: Span;
  op?: number;
}

export interface Variable { kind: "var"; name: string; at?: Origin }
export interface Iri { kind: "iri"; value: string; at?: Origin }
export interface Literal { kind: "literal"; value: string; language?: string; datatype: string; at?: Origin }
export interface BlankNode { kind: "bnode"; label: string; at?: Origin }
/** An RDF term or a variable. */
export type Term = Variable | Iri | Literal | BlankNode;

/** A property path. A single IRI predicate is a plain `Iri` term in the triple, not a path. */
export type Path =
  | { kind: "link"; iri: Iri }
  | { kind: "inv"; path: Path }
  | { kind: "seq" | "alt"; items: Path[] }
  | { kind: "mod"; mod: "*" | "+" | "?"; path: Path }
  | { kind: "nps"; items: Path[] };

export interface TriplePattern {
  s: Term;
  p: Variable | Iri | Path;
  o: Term;
  at?: Origin;
}

/** Expressions. Operators and built-in calls are `call` with the lower-case SPARQL name (`+`, `=`, `str`, `regex`, `in`…); IRI functions carry the IRI as name and `iri: true`. */
export type Expr =
  | { kind: "term"; term: Term; at?: Origin }
  | { kind: "call"; name: string; iri?: boolean; distinct?: boolean; args: Expr[]; at?: Origin }
  | { kind: "aggregate"; name: string; distinct: boolean; arg: Expr | "*"; separator?: string; at?: Origin }
  | { kind: "exists"; negated: boolean; group: Group; at?: Origin };

export interface Group { type: "group"; patterns: Pattern[]; at?: Origin }
export interface Values { type: "values"; variables: Variable[]; rows: (Term | undefined)[][]; at?: Origin }

export type Pattern =
  | { type: "bgp"; triples: TriplePattern[]; at?: Origin }
  | Group
  | { type: "optional"; group: Group; at?: Origin }
  | { type: "minus"; group: Group; at?: Origin }
  | { type: "union"; branches: Group[]; at?: Origin }
  | { type: "filter"; expr: Expr; at?: Origin }
  | { type: "bind"; expr: Expr; variable: Variable; at?: Origin }
  | Values
  | { type: "graph"; name: Variable | Iri; group: Group; at?: Origin }
  | { type: "service"; name: Variable | Iri; silent: boolean; group: Group; at?: Origin }
  | { type: "subquery"; query: Query; at?: Origin };

/** One projected column: a variable, or `(expr AS ?variable)`. */
export interface Projection { variable: Variable; expr?: Expr; at?: Origin }

export interface Query {
  form: "select" | "ask" | "construct" | "describe";
  prefixes: Record<string, string>;
  base?: string;
  distinct?: boolean;
  reduced?: boolean;
  /** "*" for SELECT * / DESCRIBE *; the projected columns otherwise (empty for ASK and CONSTRUCT). */
  projection: "*" | Projection[];
  where: Group;
  groupBy: { expr: Expr; variable?: Variable; at?: Origin }[];
  having: Expr[];
  orderBy: { expr: Expr; descending: boolean; at?: Origin }[];
  limit?: number;
  offset?: number;
  /** A trailing VALUES block. */
  values?: Values;
  /** CONSTRUCT template. */
  template?: TriplePattern[];
  /** DESCRIBE resources besides the projected variables. */
  describe?: (Variable | Iri)[];
  /** Where the `*` of SELECT * / DESCRIBE * was written. */
  starAt?: Origin;
  /** Where the HAVING clause was written. */
  havingAt?: Origin;
  at?: Origin;
}

/** A new empty SELECT query. */
export function emptyQuery(prefixes: Record<string, string> = {}): Query {
  checkArgs("emptyQuery", arguments, "prefixes?:prefixes");
  return { form: "select", prefixes, projection: [], where: { type: "group", patterns: [] }, groupBy: [], having: [], orderBy: [] };
}

// ---------------------------------------------------------------- printing

const PN_CHARS_U = "A-Za-z_\\u00C0-\\u00D6\\u00D8-\\u00F6\\u00F8-\\u02FF\\u0370-\\u037D\\u037F-\\u1FFF\\u200C\\u200D\\u2070-\\u218F\\u2C00-\\u2FEF\\u3001-\\uD7FF\\uF900-\\uFDCF\\uFDF0-\\uFFFD";
/** U+10000–U+EFFFF as a surrogate pair (no `u` flag: the pattern also goes out as JSON Schema). */
const ASTRAL = "[\\uD800-\\uDB7F][\\uDC00-\\uDFFF]";
/** SPARQL 1.1's VARNAME (production [166]) as regular-expression source, unanchored. */
export const VARNAME_SOURCE = `(?:[${PN_CHARS_U}0-9]|${ASTRAL})(?:[${PN_CHARS_U}0-9\\u00B7\\u0300-\\u036F\\u203F\\u2040]|${ASTRAL})*`;
const VARNAME = new RegExp(`^${VARNAME_SOURCE}$`);
/** BLANK_NODE_LABEL after `_:` (production [142]); the parser's own labels (`e_a`, `g_0`) fit it. */
const BNODE_LABEL = new RegExp(`^(?:[${PN_CHARS_U}0-9]|${ASTRAL})(?:(?:[${PN_CHARS_U}0-9.\\-\\u00B7\\u0300-\\u036F\\u203F\\u2040]|${ASTRAL})*(?:[${PN_CHARS_U}0-9\\-\\u00B7\\u0300-\\u036F\\u203F\\u2040]|${ASTRAL}))?$`);
/** LANGTAG after `@` (production [145]). */
const LANGTAG = /^[a-zA-Z]+(-[a-zA-Z0-9]+)*$/;
/** A built-in call, operator or aggregate name as the algebra holds it (lower case: `str`, `group_concat`, `+`, `notin`). */
const CALL_NAME = /^(?:[a-z][a-z0-9_]*|\|\||&&|!=|<=|>=|[=<>+\-*/!])$/;

/**
 * A name in a query built or changed in code cannot be written as SPARQL: a variable, blank
 * node label, language tag or function name that its production does not allow (it would be
 * read as more query text). Parsed queries and op lists never hold one.
 */
export class SparqlTermError extends GroundwireError {
  constructor(readonly what: string, readonly value: string) {
    super(`the ${what} ${quoteValue(value)} cannot be written in SPARQL: it is not a ${what} SPARQL's grammar allows`, { code: "bad_request", status: 400 });
    this.name = "SparqlTermError";
  }
}

function checked(what: string, value: string, pattern: RegExp): string {
  if (!pattern.test(value)) throw new SparqlTermError(what, value);
  return value;
}

/** `?name`, refusing a name SPARQL's VARNAME does not allow. */
function varText(name: string): string {
  return `?${checked("variable name", name, VARNAME)}`;
}

/** Characters SPARQL's IRIREF cannot hold (SPARQL 1.1 §19.8, production [139]). */
const NOT_IN_IRIREF = /[\u0000-\u0020<>"{}|^`\\]/;

/**
 * An IRI cannot be written in SPARQL text. SPARQL processes `\u` escapes
 * before parsing (§19.2), so an IRI holding `>` cannot be escaped into an
 * IRIREF: it would end the IRI and let the rest be read as query text.
 */
export class SparqlIriError extends GroundwireError {
  constructor(readonly iri: string) {
    super(`the IRI ${quoteValue(iri)} cannot be written in SPARQL: it holds a character an IRI may not contain (space, control, <>"{}|^\`\\)`, { code: "bad_request", status: 400 });
    this.name = "SparqlIriError";
  }
}

/**
 * `<iri>` for SPARQL text, refusing what IRIREF cannot hold instead of escaping it.
 * @throws SparqlIriError when the IRI holds a space, a control or one of `<>"{}|^\`\`
 */
export function iriRef(iri: string): string {
  checkArgs("iriRef", arguments, "iri:string");
  if (NOT_IN_IRIREF.test(iri)) throw new SparqlIriError(iri);
  return `<${iri}>`;
}

/**
 * Print an IRI as a prefixed name by ts/rdf's PrefixMap rules (longest namespace, valid PN_LOCAL), else `<iri>`. The map is cached per prefixes object while its content is unchanged (toPrefixMap).
 * @throws SparqlIriError when the IRI must be written whole and holds what IRIREF cannot (see {@link iriRef})
 */
export function compactIri(iri: string, prefixes: Record<string, string>): string {
  checkArgs("compactIri", arguments, "iri:string prefixes:prefixes");
  const out = toPrefixMap(prefixes).formatIri(iri);
  return out.startsWith("<") ? iriRef(iri) : out;
}

function escapeString(value: string): string {
  return value.replace(/[\\"\n\r\t]/g, (c) => ({ "\\": "\\\\", '"': '\\"', "\n": "\\n", "\r": "\\r", "\t": "\\t" })[c]!);
}

/** Print a term in SPARQL syntax (literals on one line, xsd:string plain). */
export function termToSparql(term: Term, prefixes: Record<string, string>): string {
  switch (term.kind) {
    case "var":
      return varText(term.name);
    case "iri":
      return compactIri(term.value, prefixes);
    case "bnode":
      return `_:${checked("blank node label", term.label, BNODE_LABEL)}`;
    case "literal": {
      const body = `"${escapeString(term.value)}"`;
      if (term.language) return `${body}@${checked("language tag", term.language, LANGTAG)}`;
      if (term.datatype === `${XSD}string`) return body;
      // SPARQL's own numeric and boolean literals, when the lexical form is the grammar's (the value shown is the value held)
      if (term.datatype === `${XSD}integer` && /^[+-]?[0-9]+$/.test(term.value)) return term.value;
      if (term.datatype === `${XSD}decimal` && /^[+-]?[0-9]*\.[0-9]+$/.test(term.value)) return term.value;
      if (term.datatype === `${XSD}boolean` && /^(true|false)$/.test(term.value)) return term.value;
      return `${body}^^${compactIri(term.datatype, prefixes)}`;
    }
  }
}

/** Print a property path in SPARQL syntax, fully parenthesized where precedence could bite. */
export function pathToSparql(path: Path | Iri | Variable, prefixes: Record<string, string>): string {
  if (path.kind === "iri" || path.kind === "var") return path.kind === "iri" && path.value === RDF_TYPE ? "a" : termToSparql(path, prefixes);
  switch (path.kind) {
    case "link":
      return path.iri.value === RDF_TYPE ? "a" : termToSparql(path.iri, prefixes);
    case "inv":
      return `^${wrap(path.path, prefixes)}`;
    case "seq":
      return path.items.map((p) => wrap(p, prefixes)).join("/");
    case "alt":
      return path.items.map((p) => wrap(p, prefixes)).join("|");
    case "mod":
      return `${wrap(path.path, prefixes)}${path.mod}`;
    case "nps":
      return `!(${path.items.map((p) => pathToSparql(p, prefixes)).join("|")})`;
  }
}

function wrap(path: Path, prefixes: Record<string, string>): string {
  const text = pathToSparql(path, prefixes);
  return path.kind === "link" || path.kind === "nps" ? text : `(${text})`;
}

const INFIX = new Set(["||", "&&", "=", "!=", "<", ">", "<=", ">=", "+", "-", "*", "/"]);

/** Print an expression in SPARQL syntax. */
export function exprToSparql(expr: Expr, prefixes: Record<string, string>): string {
  switch (expr.kind) {
    case "term":
      return termToSparql(expr.term, prefixes);
    case "aggregate": {
      const arg = expr.arg === "*" ? "*" : exprToSparql(expr.arg, prefixes);
      const sep = expr.separator !== undefined ? ` ; SEPARATOR="${escapeString(expr.separator)}"` : "";
      return `${checked("aggregate name", expr.name, CALL_NAME).toUpperCase()}(${expr.distinct ? "DISTINCT " : ""}${arg}${sep})`;
    }
    case "exists":
      return `${expr.negated ? "NOT EXISTS" : "EXISTS"} ${groupToSparql(expr.group, prefixes, "")}`;
    case "call": {
      const args = expr.args.map((a) => exprToSparql(a, prefixes));
      if (!expr.iri) checked("function name", expr.name, CALL_NAME);
      if (expr.iri) return `${compactIri(expr.name, prefixes)}(${expr.distinct ? "DISTINCT " : ""}${args.join(", ")})`;
      if (INFIX.has(expr.name) && args.length === 2) return `(${args[0]} ${expr.name} ${args[1]})`;
      if (expr.name === "!" && args.length === 1) return `(!${args[0]})`;
      if ((expr.name === "-" || expr.name === "+") && args.length === 1) return `(${expr.name}${args[0]})`;
      if (expr.name === "in" || expr.name === "notin") return `(${args[0]} ${expr.name === "in" ? "IN" : "NOT IN"} (${args.slice(1).join(", ")}))`;
      return `${expr.name.toUpperCase()}(${args.join(", ")})`;
    }
  }
}

function triplesToSparql(triples: TriplePattern[], prefixes: Record<string, string>, indent: string): string[] {
  return triples.map(
    (t) => `${indent}${termToSparql(t.s, prefixes)} ${pathToSparql(t.p, prefixes)} ${termToSparql(t.o, prefixes)} .`,
  );
}

function valuesToSparql(v: Values, prefixes: Record<string, string>): string {
  const rows = v.rows.map((r) => `(${r.map((t) => (t ? termToSparql(t, prefixes) : "UNDEF")).join(" ")})`);
  return `VALUES (${v.variables.map((x) => varText(x.name)).join(" ")}) { ${rows.join(" ")} }`;
}

function patternToSparql(p: Pattern, prefixes: Record<string, string>, indent: string): string[] {
  switch (p.type) {
    case "bgp":
      return triplesToSparql(p.triples, prefixes, indent);
    case "group":
      return [`${indent}${groupToSparql(p, prefixes, indent)}`];
    case "optional":
      return [`${indent}OPTIONAL ${groupToSparql(p.group, prefixes, indent)}`];
    case "minus":
      return [`${indent}MINUS ${groupToSparql(p.group, prefixes, indent)}`];
    case "union":
      return [`${indent}${p.branches.map((b) => groupToSparql(b, prefixes, indent)).join(" UNION ")}`];
    case "filter":
      return [`${indent}FILTER(${exprToSparql(p.expr, prefixes)})`];
    case "bind":
      return [`${indent}BIND(${exprToSparql(p.expr, prefixes)} AS ${varText(p.variable.name)})`];
    case "values":
      return [`${indent}${valuesToSparql(p, prefixes)}`];
    case "graph":
      return [`${indent}GRAPH ${termToSparql(p.name, prefixes)} ${groupToSparql(p.group, prefixes, indent)}`];
    case "service":
      return [`${indent}SERVICE ${p.silent ? "SILENT " : ""}${termToSparql(p.name, prefixes)} ${groupToSparql(p.group, prefixes, indent)}`];
    case "subquery":
      return [`${indent}{ ${queryBody(p.query, prefixes, indent + "  ").trimStart()} }`];
  }
}

function groupToSparql(g: Group, prefixes: Record<string, string>, indent: string): string {
  const inner = g.patterns.flatMap((p) => patternToSparql(p, prefixes, indent + "  "));
  return inner.length ? `{\n${inner.join("\n")}\n${indent}}` : "{ }";
}

function queryBody(q: Query, prefixes: Record<string, string>, indent: string): string {
  const parts: string[] = [];
  const modifier = q.distinct ? "DISTINCT " : q.reduced ? "REDUCED " : "";
  const projection =
    q.projection === "*"
      ? "*"
      : q.projection.map((c) => (c.expr ? `(${exprToSparql(c.expr, prefixes)} AS ${varText(c.variable.name)})` : varText(c.variable.name))).join(" ");
  if (q.form === "select") parts.push(`SELECT ${modifier}${projection || "*"}`);
  else if (q.form === "ask") parts.push("ASK");
  else if (q.form === "construct") parts.push(`CONSTRUCT {\n${triplesToSparql(q.template ?? [], prefixes, indent + "  ").join("\n")}\n${indent}}`);
  else parts.push(`DESCRIBE ${[projection === "*" ? "*" : projection, ...(q.describe ?? []).map((t) => termToSparql(t, prefixes))].filter(Boolean).join(" ")}`);
  parts.push(`WHERE ${groupToSparql(q.where, prefixes, indent)}`);
  if (q.groupBy.length)
    parts.push(`GROUP BY ${q.groupBy.map((g) => (g.variable ? `(${exprToSparql(g.expr, prefixes)} AS ${varText(g.variable.name)})` : g.expr.kind === "term" ? exprToSparql(g.expr, prefixes) : `(${exprToSparql(g.expr, prefixes)})`)).join(" ")}`);
  if (q.having.length) parts.push(`HAVING ${q.having.map((h) => `(${exprToSparql(h, prefixes)})`).join(" ")}`);
  if (q.orderBy.length) parts.push(`ORDER BY ${q.orderBy.map((o) => `${o.descending ? "DESC" : "ASC"}(${exprToSparql(o.expr, prefixes)})`).join(" ")}`);
  // Digits always: a large count prints as `1e+23` in JS, which is not a SPARQL INTEGER.
  if (q.limit !== undefined) parts.push(`LIMIT ${integerLiteral(q.limit)}`);
  if (q.offset !== undefined) parts.push(`OFFSET ${integerLiteral(q.offset)}`);
  if (q.values) parts.push(valuesToSparql(q.values, prefixes));
  return parts.map((p) => indent + p).join("\n");
}

/**
 * Print a query as SPARQL 1.1 text: PREFIX lines for the prefixes it uses, then the query.
 * @throws SparqlIriError when an IRI holds what SPARQL's IRIREF cannot (never escaped: see {@link iriRef})
 */
export function toSparql(query: Query): string {
  checkArgs("toSparql", arguments, "query:query");
  const body = queryBody(query, query.prefixes, "");
  const used = Object.entries(query.prefixes).filter(([p]) => new RegExp(`(^|[\\s(/|^!{,])${p.replace(/[-.]/g, "\\$&")}:`).test(body));
  const head = used.map(([p, ns]) => `PREFIX ${p}: ${iriRef(ns)}`);
  if (query.base) head.unshift(`BASE ${iriRef(query.base)}`);
  return [...head, body].join("\n") + "\n";
}

/** A non-negative integer count as SPARQL INTEGER digits (`1e+23` → `99999999999999991611392`, the double's exact value). */
function integerLiteral(n: number): string {
  return Number.isInteger(n) ? BigInt(n).toString() : String(n);
}
