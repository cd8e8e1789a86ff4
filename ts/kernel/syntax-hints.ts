/**
 * What the parser's own messages cannot say: a nesting limit checked before the
 * (recursive) Traqula parser runs, and fix-its for the slips people make most
 * (found in the QALD-9 and LC-QuAD gold queries and the W3C negative syntax
 * tests). Everything here works on Traqula's own SPARQL 1.1 lexer tokens, never
 * on a second grammar: the parser decides what is valid, these functions only
 * explain a failure it already reported.
 */
import type { lex } from "@traqula/rules-sparql-1-1";
import { traqula } from "../deps/traqula.js";

/** One lexer token: its text, its UTF-16 start offset and its token type name (`LCurly`, `BuiltInCount`…). */
export interface LexToken {
  image: string;
  start: number;
  end: number;
  type: string;
}

/**
 * The deepest nesting of `{`, `(` and `[` (together) a query may have. Traqula's parser is
 * recursive descent: past roughly 90 nested parentheses (each one walks the whole
 * expression grammar) Node's default stack overflows. 48 leaves room for the caller's own
 * stack and is far beyond any real query (QALD-9 and LC-QuAD nest at most 5 deep).
 */
export const MAX_SPARQL_NESTING = 48;

let lexer: ReturnType<typeof lex.sparql11LexerBuilder.build> | null = null;

/** Tokens of `text` by Traqula's SPARQL 1.1 lexer (characters it cannot read are skipped: the parser reports them). */
export function lexSparql(text: string): LexToken[] {
  const tokens = (lexer ??= traqula().lex.sparql11LexerBuilder.build({ positionTracking: "onlyOffset" })).tokenize(text).tokens;
  return tokens.map((t) => ({ image: t.image, start: t.startOffset, end: t.startOffset + t.image.length, type: t.tokenType.name }));
}

const OPEN: Record<string, string> = { LCurly: "}", LParen: ")", LSquare: "]" };
const CLOSE: Record<string, string> = { RCurly: "{", RParen: "(", RSquare: "[" };
const AGGREGATES = new Set(["COUNT", "SUM", "MIN", "MAX", "AVG", "SAMPLE", "GROUP_CONCAT"]);

/** The first bracket that nests deeper than `limit`, or undefined. */
export function nestingTooDeep(tokens: LexToken[], limit = MAX_SPARQL_NESTING): LexToken | undefined {
  let depth = 0;
  for (const t of tokens) {
    if (OPEN[t.type]) {
      if (++depth > limit) return t;
    } else if (CLOSE[t.type]) depth = Math.max(0, depth - 1);
  }
  return undefined;
}

/**
 * The repair of a known slip as a text edit: replace `[start, end)` (UTF-16 offsets) with `text`.
 * `extension` names the slip when it is a form an engine accepts as its own extension (Virtuoso
 * reads a bare aggregate or expression in SELECT as an unnamed column): a dialect that knows it
 * (ts/kernel/dialect.ts) applies the edit and parses on.
 */
export interface SyntaxEdit {
  start: number;
  end: number;
  text: string;
  extension?: "bare-aggregate" | "unnamed-expression" | "bare-call";
}

/** A reworded parser failure: where, what, and the edit that repairs it. */
export interface SyntaxHint {
  offset: number;
  detail: string;
  fix: string;
  edit?: SyntaxEdit;
}

/**
 * A fix-it for a parse failure at `errorOffset` (the offset the parser reported; -1 when it
 * gave none, as for an unexpected end of input), or undefined when no known slip explains it.
 * Known slips, in order:
 * - an aggregate written bare in SELECT (`SELECT COUNT(*) WHERE`, `SELECT DISTINCT COUNT(?uri)`,
 *   `SELECT Count(?s) as ?c`, `SELECT COUNT DISTINCT ?x`, `COUNT(DISTINCT ?u AS ?u)`): SPARQL 1.1
 *   §11.1 wants `(COUNT(*) AS ?n)`;
 * - a SELECT expression without a name, `SELECT (?o + 1) WHERE`: `(?o + 1 AS ?name)` (§18.2.4.1);
 * - a function call written bare in SELECT, `SELECT DISTINCT xsd:date(?d) WHERE`, `SELECT STR(?d)`:
 *   `(xsd:date(?d) AS ?value)` (§18.2.4.1);
 * - input that ends with a bracket still open: reported at the end of input, naming the bracket
 *   and where it opened;
 * - a closing bracket that does not match the open one (`FILTER(?x > 1 }`).
 */
export function syntaxHint(text: string, tokens: LexToken[], errorOffset: number): SyntaxHint | undefined {
  return bareAggregate(text, tokens, errorOffset) ?? unnamedExpression(text, tokens, errorOffset) ?? bareCall(text, tokens, errorOffset) ?? unclosed(text, tokens, errorOffset);
}

function matching(tokens: LexToken[], open: number): number {
  let depth = 0;
  for (let j = open; j < tokens.length; j++) {
    if (OPEN[tokens[j].type]) depth++;
    else if (CLOSE[tokens[j].type] && --depth === 0) return j;
  }
  return -1;
}

const isVar = (t: LexToken | undefined) => t?.type === "Var1" || t?.type === "Var2";
const word = (t: LexToken | undefined) => t?.image.toUpperCase();

function bareAggregate(text: string, tokens: LexToken[], errorOffset: number): SyntaxHint | undefined {
  const i = tokens.findIndex((t) => t.start === errorOffset);
  const agg = tokens[i];
  if (!agg || !AGGREGATES.has(word(agg)!)) return undefined;
  // only in a SELECT clause: walk back over projection items to SELECT
  let k = i - 1;
  while (k >= 0 && !["Select", "Where", "LCurly", "RCurly"].includes(tokens[k].type)) k--;
  if (tokens[k]?.type !== "Select") return undefined;
  const name = word(agg)!;
  let inner: string;
  let next: number;
  if (tokens[i + 1]?.type === "LParen") {
    const close = matching(tokens, i + 1);
    if (close < 0) return undefined;
    // drop an alias written inside the aggregate: COUNT(DISTINCT ?u AS ?u)
    const as = tokens.slice(i + 2, close).findIndex((t) => t.type === "As");
    const end = as >= 0 ? tokens[i + 2 + as - 1].end : tokens[close - 1]?.end ?? tokens[close].start;
    inner = text.slice(tokens[i + 2].start, end).trim();
    next = close + 1;
  } else {
    // COUNT DISTINCT ?x, COUNT ?x, COUNT *
    let j = i + 1;
    const parts: string[] = [];
    if (word(tokens[j]) === "DISTINCT") parts.push(tokens[j++].image.toUpperCase());
    if (!isVar(tokens[j]) && tokens[j]?.type !== "Star") return undefined;
    parts.push(tokens[j++].image);
    inner = parts.join(" ");
    next = j;
  }
  // a name no variable of the query has: two bare COUNTs become ?n and ?n2, never ?n twice (§18.2.4.1)
  const fresh = freshName(tokens, name === "COUNT" ? "?n" : `?${name.toLowerCase()}`);
  let alias = fresh;
  let last = next - 1;
  if (tokens[next]?.type === "As" && isVar(tokens[next + 1])) {
    alias = tokens[next + 1].image;
    last = next + 1;
  }
  // an alias that is the aggregated variable itself would be bound twice
  if (new RegExp(`(^|\\s)\\${alias}$`).test(inner)) alias = fresh;
  const written = `(${name}(${inner}) AS ${alias})`;
  return {
    offset: agg.start,
    detail: `an aggregate in SELECT is written in parentheses with a name: ${written} (SPARQL 1.1 §11.1)`,
    fix: `write ${written}`,
    edit: { start: agg.start, end: tokens[last].end, text: written, extension: "bare-aggregate" },
  };
}

function unnamedExpression(text: string, tokens: LexToken[], errorOffset: number): SyntaxHint | undefined {
  const i = tokens.findIndex((t) => t.start === errorOffset);
  if (tokens[i]?.type !== "RParen") return undefined;
  // find the "(" this ")" closes, and check it is a SELECT item
  let depth = 0;
  let open = -1;
  for (let j = i; j >= 0; j--) {
    if (CLOSE[tokens[j].type]) depth++;
    else if (OPEN[tokens[j].type] && --depth === 0) {
      open = j;
      break;
    }
  }
  if (open < 0) return undefined;
  let k = open - 1;
  while (k >= 0 && !["Select", "Where", "LCurly", "RCurly", "LParen"].includes(tokens[k].type)) k--;
  if (tokens[k]?.type !== "Select") return undefined;
  const expr = text.slice(tokens[open + 1].start, tokens[i - 1].end).trim();
  const alias = freshName(tokens, "?value");
  return {
    offset: tokens[i].start,
    detail: `an expression in SELECT needs a name: (${expr} AS ${alias}) (SPARQL 1.1 §18.2.4.1)`,
    fix: `write (${expr} AS ${alias})`,
    edit: { start: tokens[open].start, end: tokens[i].end, text: `(${expr} AS ${alias})`, extension: "unnamed-expression" },
  };
}

/** `base`, or `base2`, `base3`… : the first that no variable of the query is named. */
function freshName(tokens: LexToken[], base: string): string {
  const used = new Set(tokens.filter(isVar).map((t) => t.image.slice(1)));
  let name = base.slice(1);
  for (let n = 2; used.has(name); n++) name = `${base.slice(1)}${n}`;
  return `?${name}`;
}

/**
 * A function call written bare as a SELECT column (`SELECT DISTINCT xsd:date(?d) WHERE`,
 * `SELECT STR(?s)`): the parser stops at the function's name or IRI, inside the SELECT clause,
 * and a `(` follows it. Aggregates are bareAggregate's.
 */
function bareCall(text: string, tokens: LexToken[], errorOffset: number): SyntaxHint | undefined {
  const i = tokens.findIndex((t) => t.start === errorOffset);
  const fn = tokens[i];
  if (!fn || tokens[i + 1]?.type !== "LParen" || AGGREGATES.has(word(fn)!)) return undefined;
  if (!(fn.type === "PNameLn" || fn.type === "IriRef" || fn.type.startsWith("BuiltIn"))) return undefined;
  let k = i - 1;
  while (k >= 0 && !["Select", "Where", "LCurly", "RCurly", "LParen"].includes(tokens[k].type)) k--;
  if (tokens[k]?.type !== "Select") return undefined;
  const close = matching(tokens, i + 1);
  if (close < 0) return undefined;
  const call = text.slice(fn.start, tokens[close].end);
  let alias = freshName(tokens, "?value");
  let last = close;
  if (tokens[close + 1]?.type === "As" && isVar(tokens[close + 2])) {
    alias = tokens[close + 2].image;
    last = close + 2;
  }
  const written = `(${call} AS ${alias})`;
  return {
    offset: fn.start,
    detail: `an expression in SELECT is written in parentheses with a name: ${written} (SPARQL 1.1 §18.2.4.1)`,
    fix: `write ${written}`,
    edit: { start: fn.start, end: tokens[last].end, text: written, extension: "bare-call" },
  };
}

function unclosed(text: string, tokens: LexToken[], errorOffset: number): SyntaxHint | undefined {
  const stack: LexToken[] = [];
  for (const t of tokens) {
    if (OPEN[t.type]) stack.push(t);
    else if (CLOSE[t.type]) {
      const top = stack[stack.length - 1];
      if (top && OPEN[top.type] === t.image) {
        stack.pop();
        continue;
      }
      if (top && t.start === errorOffset) {
        return {
          offset: t.start,
          detail: `'${t.image}' does not close the '${top.image}' opened at ${where(text, top.start)}`,
          fix: `write '${OPEN[top.type]}' before this '${t.image}'`,
        };
      }
      if (!top) return undefined;
      stack.pop();
    }
  }
  const last = tokens[tokens.length - 1];
  const atEnd = errorOffset < 0 || !last || errorOffset >= last.end;
  if (!stack.length || !atEnd) return undefined;
  const open = stack[stack.length - 1];
  const closing = stack.map((t) => OPEN[t.type]).reverse().join(" ");
  const what = stack.length === 1 ? `'${open.image}' opened at ${where(text, open.start)} is not closed` : `${stack.length} brackets are not closed, the innermost '${open.image}' opened at ${where(text, open.start)}`;
  return { offset: text.length, detail: `unexpected end of input: ${what}`, fix: `add '${closing}' at the end` };
}

function where(text: string, offset: number): string {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset; i++) if (text.charCodeAt(i) === 10) (line++, (lineStart = i + 1));
  return `line ${line}, column ${offset - lineStart + 1}`;
}
