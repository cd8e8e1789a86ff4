/** Traqula, the SPARQL 1.1 parser (static import; see ts/deps/README.md for the Node variant). */
import { Parser } from "@traqula/parser-sparql-1-1";
import { AstFactory, lex } from "@traqula/rules-sparql-1-1";
import { linearPrefixedNames } from "./traqula-lexing.js";

/** What the kernel uses of Traqula: the parser, its AST factory and the lexer. */
export interface Traqula {
  Parser: typeof Parser;
  AstFactory: typeof AstFactory;
  lex: typeof lex;
}

const loaded: Traqula = { Parser, AstFactory, lex };
let patched = false;

/**
 * Traqula's parser, AST factory and lexer, its prefixed-name tokens lexing in linear work
 * (./traqula-lexing.ts) before anything builds a lexer or a parser from them. Never throws.
 */
export function traqula(): Traqula {
  if (!patched) {
    linearPrefixedNames(lex);
    patched = true;
  }
  return loaded;
}
