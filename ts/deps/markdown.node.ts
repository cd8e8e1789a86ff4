/**
 * The markdown parser stack for the Node build: the package's own bundle of it,
 * `dist/vendor/markdown.js` (built from ts/deps/markdown.ts by the first rollup pass, the file the
 * browser-safe entry imports), `require`d on first use (see ts/deps/README.md). One file instead
 * of the ~60 small ES modules of markdown-it, micromark and mdast-util-* (resolving and compiling
 * them was most of a CLI command's start on a small document), and one copy of the stack in an
 * install: the packages are build-time dependencies only.
 */
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Markdown } from "./markdown.js";

export type { Markdown } from "./markdown.js";

const require = createRequire(import.meta.url);
let loaded: Markdown | null = null;

/**
 * Where the bundle is: beside the file this code was built into (dist/node.js and dist/cli.js sit
 * in dist/, the chunks they share in dist/chunks/: rollup.config.mjs, the Node build); else, when
 * an app bundled dist/node.js into a file of its own, the installed package's copy.
 * @throws Error naming both places when neither has it
 */
function vendorPath(): string {
  const here = new URL(".", import.meta.url);
  const beside = fileURLToPath(new URL(here.pathname.endsWith("/chunks/") ? "../vendor/markdown.js" : "./vendor/markdown.js", here));
  if (existsSync(beside)) return beside;
  let installed: string | null = null;
  try {
    installed = join(dirname(require.resolve("groundwire/package.json")), "dist", "vendor", "markdown.js");
  } catch {
    // no groundwire package reachable from here
  }
  if (installed !== null && existsSync(installed)) return installed;
  throw new Error(`groundwire: the markdown parser's bundle is neither at ${beside} nor in an installed groundwire package (dist/vendor/markdown.js): keep dist/vendor/ beside a bundled dist/node.js, or groundwire installed where it can be resolved`);
}

/** The markdown parser stack, loaded at the first call (an ES module, `require`d: Node >= 20.19). */
export function markdown(): Markdown {
  return (loaded ??= (require(vendorPath()) as { markdown: () => Markdown }).markdown());
}
