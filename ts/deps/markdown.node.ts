/** The markdown parser stack for the Node build: `require`d on first use (see ts/deps/README.md). */
import { createRequire } from "node:module";
import type { Markdown } from "./markdown.js";

export type { Markdown } from "./markdown.js";

const require = createRequire(import.meta.url);
let loaded: Markdown | null = null;

/** The markdown parser stack, loaded at the first call (ES modules, `require`d: Node >= 20.19). */
export function markdown(): Markdown {
  if (loaded) return loaded;
  return (loaded = {
    fromMarkdown: (require("mdast-util-from-markdown") as typeof import("mdast-util-from-markdown")).fromMarkdown,
    parse: (require("micromark") as typeof import("micromark")).parse,
    preprocess: (require("micromark") as typeof import("micromark")).preprocess,
    gfmFromMarkdown: (require("mdast-util-gfm") as typeof import("mdast-util-gfm")).gfmFromMarkdown,
    gfm: (require("micromark-extension-gfm") as typeof import("micromark-extension-gfm")).gfm,
    frontmatter: (require("micromark-extension-frontmatter") as typeof import("micromark-extension-frontmatter")).frontmatter,
    frontmatterFromMarkdown: (require("mdast-util-frontmatter") as typeof import("mdast-util-frontmatter")).frontmatterFromMarkdown,
    normalizeIdentifier: (require("micromark-util-normalize-identifier") as typeof import("micromark-util-normalize-identifier")).normalizeIdentifier,
    decodeString: (require("micromark-util-decode-string") as typeof import("micromark-util-decode-string")).decodeString,
    MarkdownIt: require("markdown-it") as typeof import("markdown-it").default,
  });
}
