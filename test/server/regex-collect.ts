// Every regular expression of ts/, collected with the TypeScript compiler's parser (not by
// matching source text with a regex): each `/…/flags` literal, and each `new RegExp(…)` /
// `RegExp(…)` whose pattern folds to a constant (string literals, templates, String.raw,
// `+`, module-level `const` strings and `X.source` of a constant regex). A call whose
// pattern depends on a value known only at run time is reported as `dynamic`, with its
// source text, so the audit can name it and test it by hand.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import ts from "typescript";

export interface FoundRegex {
  /** file:line, relative to the repository root. */
  where: string;
  source: string;
  flags: string;
}
export interface DynamicRegex {
  where: string;
  text: string;
}

const UNFOLDABLE = Symbol("unfoldable");
type Folded = string | typeof UNFOLDABLE;

function listFiles(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) listFiles(path, out);
    else if (path.endsWith(".ts") && !path.endsWith(".d.ts")) out.push(path);
  }
  return out.sort();
}

/** The regexes of every .ts file under `dir` (the repository root is `root`). */
export function collectRegexes(root: string, dir: string): { found: FoundRegex[]; dynamic: DynamicRegex[] } {
  const found: FoundRegex[] = [];
  const dynamic: DynamicRegex[] = [];
  for (const file of listFiles(join(root, dir))) {
    const sf = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.ES2022, true);
    const rel = relative(root, file).split("\\").join("/");
    const where = (n: ts.Node) => `${rel}:${sf.getLineAndCharacterOfPosition(n.getStart(sf)).line + 1}`;
    // module-level consts (and consts of any scope: names are unique enough per file for folding)
    const consts = new Map<string, ts.Expression>();
    const gather = (n: ts.Node): void => {
      if (ts.isVariableDeclarationList(n) && n.flags & ts.NodeFlags.Const) {
        for (const d of n.declarations) if (ts.isIdentifier(d.name) && d.initializer) consts.set(d.name.text, d.initializer);
      }
      ts.forEachChild(n, gather);
    };
    gather(sf);
    const literalParts = (n: ts.RegularExpressionLiteral) => {
      const text = n.text;
      const cut = text.lastIndexOf("/");
      return { source: text.slice(1, cut), flags: text.slice(cut + 1) };
    };
    const fold = (n: ts.Expression, depth = 0): Folded => {
      if (depth > 20) return UNFOLDABLE;
      if (ts.isParenthesizedExpression(n)) return fold(n.expression, depth + 1);
      if (ts.isStringLiteral(n) || ts.isNoSubstitutionTemplateLiteral(n)) return n.text;
      if (ts.isTemplateExpression(n)) {
        let s = n.head.text;
        for (const span of n.templateSpans) {
          const v = fold(span.expression, depth + 1);
          if (v === UNFOLDABLE) return v;
          s += v + span.literal.text;
        }
        return s;
      }
      if (ts.isTaggedTemplateExpression(n) && n.tag.getText(sf) === "String.raw") {
        const t = n.template;
        if (ts.isNoSubstitutionTemplateLiteral(t)) return t.rawText ?? t.text;
        let s = t.head.rawText ?? t.head.text;
        for (const span of t.templateSpans) {
          const v = fold(span.expression, depth + 1);
          if (v === UNFOLDABLE) return v;
          s += v + (span.literal.rawText ?? span.literal.text);
        }
        return s;
      }
      if (ts.isBinaryExpression(n) && n.operatorToken.kind === ts.SyntaxKind.PlusToken) {
        const a = fold(n.left, depth + 1);
        const b = a === UNFOLDABLE ? a : fold(n.right, depth + 1);
        return a === UNFOLDABLE || b === UNFOLDABLE ? UNFOLDABLE : a + b;
      }
      if (ts.isIdentifier(n)) {
        const init = consts.get(n.text);
        return init ? fold(init, depth + 1) : UNFOLDABLE;
      }
      if (ts.isPropertyAccessExpression(n) && n.name.text === "source" && ts.isIdentifier(n.expression)) {
        const init = consts.get(n.expression.text);
        if (init && ts.isRegularExpressionLiteral(init)) return literalParts(init).source;
        if (init && (ts.isNewExpression(init) || ts.isCallExpression(init)) && init.arguments?.[0]) return fold(init.arguments[0], depth + 1);
      }
      return UNFOLDABLE;
    };
    const visit = (n: ts.Node): void => {
      if (ts.isRegularExpressionLiteral(n)) found.push({ where: where(n), ...literalParts(n) });
      if ((ts.isNewExpression(n) || ts.isCallExpression(n)) && ts.isIdentifier(n.expression) && n.expression.text === "RegExp") {
        const args = n.arguments ?? [];
        const source = args[0] ? fold(args[0]) : UNFOLDABLE;
        const flags = args[1] ? fold(args[1]) : "";
        if (source === UNFOLDABLE || flags === UNFOLDABLE) dynamic.push({ where: where(n), text: n.getText(sf) });
        else found.push({ where: where(n), source, flags });
      }
      ts.forEachChild(n, visit);
    };
    visit(sf);
  }
  return { found, dynamic };
}
