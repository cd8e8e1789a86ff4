/** Traqula for the Node build: `require`d on first use (see ts/deps/README.md). */
import { createRequire } from "node:module";
import type { Traqula } from "./traqula.js";
import { linearPrefixedNames } from "./traqula-lexing.js";

export type { Traqula } from "./traqula.js";

const require = createRequire(import.meta.url);
let loaded: Traqula | null = null;

/**
 * Traqula's parser, AST factory and lexer, loaded at the first call, its prefixed-name tokens
 * lexing in linear work (./traqula-lexing.ts) before anything builds a lexer or a parser from
 * them. Throws when the packages are not installed.
 */
export function traqula(): Traqula {
  if (loaded) return loaded;
  const parser = require("@traqula/parser-sparql-1-1") as typeof import("@traqula/parser-sparql-1-1");
  const rules = require("@traqula/rules-sparql-1-1") as typeof import("@traqula/rules-sparql-1-1");
  linearPrefixedNames(rules.lex);
  return (loaded = { Parser: parser.Parser, AstFactory: rules.AstFactory, lex: rules.lex });
}
