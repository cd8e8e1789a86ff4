/** Traqula, the SPARQL 1.1 parser (static import; see ts/deps/README.md for the Node variant). */
import { Parser } from "@traqula/parser-sparql-1-1";
import { AstFactory, lex } from "@traqula/rules-sparql-1-1";

/** What the kernel uses of Traqula: the parser, its AST factory and the lexer. */
export interface Traqula {
  Parser: typeof Parser;
  AstFactory: typeof AstFactory;
  lex: typeof lex;
}

const loaded: Traqula = { Parser, AstFactory, lex };

/** Traqula's parser, AST factory and lexer. Never throws. */
export function traqula(): Traqula {
  return loaded;
}
