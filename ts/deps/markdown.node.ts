/**
 * The markdown parser stack for the Node build: the package's own bundle of it,
 * `dist/vendor/markdown.js` (built from ts/deps/markdown.ts by the first rollup pass, the file the
 * browser-safe entry imports), `require`d on first use (see ts/deps/README.md). One file instead
 * of the ~60 small ES modules of markdown-it, micromark and mdast-util-* (resolving and compiling
 * them was most of a CLI command's start on a small document), and one copy of the stack in an
 * install: the packages are build-time dependencies only.
 */
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import type { Markdown } from "./markdown.js";

export type { Markdown } from "./markdown.js";

const require = createRequire(import.meta.url);
let loaded: Markdown | null = null;

/**
 * Where the bundle is from the file this code was built into: dist/node.js and dist/cli.js sit in
 * dist/, the chunks they share in dist/chunks/ (rollup.config.mjs, the Node build).
 */
function vendorPath(): string {
  const here = new URL(".", import.meta.url);
  return fileURLToPath(new URL(here.pathname.endsWith("/chunks/") ? "../vendor/markdown.js" : "./vendor/markdown.js", here));
}

/** The markdown parser stack, loaded at the first call (an ES module, `require`d: Node >= 20.19). */
export function markdown(): Markdown {
  return (loaded ??= (require(vendorPath()) as { markdown: () => Markdown }).markdown());
}
