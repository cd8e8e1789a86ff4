/**
 * What an op-list field may hold, decided on Traqula's own SPARQL 1.1 tokens before any
 * text reaches the parser: a term field is exactly one variable, IRI, prefixed name or
 * literal; a predicate is one IRI, prefixed name, `a`, variable or a property path of
 * those; an expression is balanced (it never closes a bracket it did not open, and closes
 * every one it opens). No field may hold a comment (`#` would hide the rest of the scratch
 * query the compiler parses it in) or text SPARQL cannot read. So a value can never change
 * the shape of the query it joins: `"?o . ?s <http://e/secret> ?x } #"` is refused, not
 * compiled into a second pattern, and `"\"x\" } LIMIT 1 #"` is refused, not dropped.
 */
import { traqula } from "../deps/traqula.js";
import { QUOTE_LIMIT, quoteValue } from "../quote-value.js";

/** One token of a field: its Traqula token type name, its text and its UTF-16 offsets. */
export interface FieldToken {
  type: string;
  image: string;
  start: number;
  end: number;
}

/** What a field may hold. */
export type FieldShape = "term" | "variable" | "data" | "predicate" | "expression";

const VARIABLES = new Set(["Var1", "Var2"]);
const IRIS = new Set(["IriRef", "PNameLn", "PNameNs"]);
const STRINGS = new Set(["StringLiteral1", "StringLiteral2", "StringLiteralLong1", "StringLiteralLong2"]);
const LITERALS = new Set([
  "Integer", "Decimal", "Double", "IntegerPositive", "DecimalPositive", "DoublePositive",
  "IntegerNegative", "DecimalNegative", "DoubleNegative", "True", "False",
]);
/** Tokens a property path is made of (SPARQL 1.1 §9.1, productions [88]–[96]) besides IRIs. */
const PATH_TOKENS = new Set(["a", "Hat", "Slash", "Pipe", "Star", "OpPlus", "Question", "Exclamation", "LParen", "RParen"]);
const OPEN: Record<string, string> = { LCurly: "RCurly", LParen: "RParen", LSquare: "RSquare" };
const CLOSE = new Set(["RCurly", "RParen", "RSquare"]);
const CHAR: Record<string, string> = { LCurly: "{", RCurly: "}", LParen: "(", RParen: ")", LSquare: "[", RSquare: "]" };

let lexer: ReturnType<ReturnType<typeof traqula>["lex"]["sparql11LexerBuilder"]["build"]> | null = null;

/**
 * The tokens of a field's text, or why it cannot be read alone: a character SPARQL's lexer
 * cannot read (an unpaired quote, `\u` escapes, which Traqula does not decode), or text
 * between tokens that is not white space (a `#` comment).
 */
export function fieldTokens(text: string): { tokens: FieldToken[] } | { problem: string } {
  const lex = traqula().lex;
  const result = (lexer ??= lex.sparql11LexerBuilder.build({ positionTracking: "onlyOffset" })).tokenize(text);
  if (result.errors.length) {
    const at = result.errors[0].offset;
    return { problem: `holds text SPARQL cannot read at character ${at + 1} (${JSON.stringify(text.slice(at, at + 12))})` };
  }
  const tokens = result.tokens.map((t) => ({ type: t.tokenType.name, image: t.image, start: t.startOffset, end: t.startOffset + t.image.length }));
  let pos = 0;
  for (const t of [...tokens, { start: text.length, end: text.length, image: "", type: "" }]) {
    const gap = text.slice(pos, t.start);
    if (/\S/.test(gap)) {
      const i = pos + gap.search(/\S/);
      return { problem: text[i] === "#" ? `holds a comment (${JSON.stringify(text.slice(i, i + 20))}): write the value alone` : `holds text SPARQL cannot read at character ${i + 1}` };
    }
    pos = t.end;
  }
  if (!tokens.length) return { problem: "is empty" };
  return { tokens };
}

/**
 * Check a field's text against its shape; returns why it does not fit, or undefined when it does.
 * - `variable`: one `?x` / `$x`
 * - `data`: one IRI, prefixed name or literal (a VALUES cell)
 * - `term`: a variable, IRI, prefixed name, blank node label or literal (a triple's subject or object)
 * - `predicate`: a variable, or a property path of IRIs, prefixed names and `a`
 * - `expression`: any tokens, brackets balanced
 */
export function fieldProblem(text: string, shape: FieldShape): string | undefined {
  const read = fieldTokens(text);
  if ("problem" in read) return read.problem;
  const { tokens } = read;
  const first = tokens[0];
  // the token before is shown as written (`after ?o comes "."`), quoted and cut only when it is long
  const before = (image: string) => (image.length <= QUOTE_LIMIT ? image : quoteValue(image));
  const after = (i: number) => `after ${before(tokens[i - 1].image)} comes ${quoteValue(tokens[i].image)}`;
  if (shape === "variable") {
    if (!VARIABLES.has(first.type)) return `is not a variable like "?x": it starts with ${quoteValue(first.image)}`;
    return tokens.length > 1 ? `is not one variable: ${after(1)}` : undefined;
  }
  if (shape === "term" || shape === "data") {
    const allowed = (t: FieldToken) =>
      IRIS.has(t.type) || STRINGS.has(t.type) || LITERALS.has(t.type) || (shape === "term" && (VARIABLES.has(t.type) || t.type === "BlankNodeLabel"));
    if (!allowed(first)) return `is not one ${shape === "term" ? "variable, IRI, prefixed name or literal" : "IRI, prefixed name or literal"}: it starts with ${quoteValue(first.image)}`;
    let n = 1;
    if (STRINGS.has(first.type)) {
      if (tokens[1]?.type === "LangTag") n = 2;
      else if (tokens[1]?.type === "Hathat" && tokens[2] && IRIS.has(tokens[2].type)) n = 3;
    }
    return tokens.length > n ? `is not one term: ${after(n)}` : undefined;
  }
  const balance = bracketProblem(tokens);
  if (balance) return balance;
  if (shape === "predicate") {
    if (tokens.length === 1 && VARIABLES.has(first.type)) return undefined;
    const bad = tokens.find((t) => !IRIS.has(t.type) && !PATH_TOKENS.has(t.type));
    if (bad) return `is not a property or property path (IRIs, prefixed names, a, ^ / | * + ? ! and parentheses): it holds ${quoteValue(bad.image)}`;
  }
  return undefined;
}

/** Why the brackets of a field do not balance (a field must not close what it did not open), or undefined. */
function bracketProblem(tokens: FieldToken[]): string | undefined {
  const open: FieldToken[] = [];
  for (const t of tokens) {
    if (OPEN[t.type]) open.push(t);
    else if (CLOSE.has(t.type)) {
      const o = open.pop();
      if (!o) return `closes a '${CHAR[t.type]}' it did not open (at character ${t.start + 1})`;
      if (OPEN[o.type] !== t.type) return `closes '${CHAR[o.type]}' (at character ${o.start + 1}) with '${CHAR[t.type]}'`;
    }
  }
  const left = open.pop();
  return left ? `leaves '${CHAR[left.type]}' (at character ${left.start + 1}) open` : undefined;
}
