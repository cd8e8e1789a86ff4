/** The markdown parser stack (markdown-it; mdast + micromark, GFM, front matter); static import, see ts/deps/README.md. */
import { fromMarkdown } from "mdast-util-from-markdown";
import { parse, preprocess } from "micromark";
import { gfmFromMarkdown } from "mdast-util-gfm";
import { gfm } from "micromark-extension-gfm";
import { frontmatter } from "micromark-extension-frontmatter";
import { frontmatterFromMarkdown } from "mdast-util-frontmatter";
import MarkdownIt from "markdown-it";
import { decodeString } from "micromark-util-decode-string";
import { normalizeIdentifier } from "micromark-util-normalize-identifier";

/** The functions ts/evidence/fragment/ parses with. */
export interface Markdown {
  fromMarkdown: typeof fromMarkdown;
  /** micromark's parser and preprocessor: its block (document) pass alone, without inline parsing or mdast. */
  parse: typeof parse;
  preprocess: typeof preprocess;
  gfmFromMarkdown: typeof gfmFromMarkdown;
  gfm: typeof gfm;
  frontmatter: typeof frontmatter;
  frontmatterFromMarkdown: typeof frontmatterFromMarkdown;
  /** micromark's decoding of character escapes and references in a string (what mdast holds as a definition's label). */
  decodeString: typeof decodeString;
  /** micromark's label normalization (CommonMark §4.7: white space collapsed, case folded), how references match definitions. */
  normalizeIdentifier: typeof normalizeIdentifier;
  /** markdown-it, whose block pass gives the fragmenter its structure. */
  MarkdownIt: typeof MarkdownIt;
}

const loaded: Markdown = { fromMarkdown, parse, preprocess, gfmFromMarkdown, gfm, frontmatter, frontmatterFromMarkdown, decodeString, normalizeIdentifier, MarkdownIt };

/** The markdown parser stack. Never throws. */
export function markdown(): Markdown {
  return loaded;
}
