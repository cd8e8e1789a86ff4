/** The markdown parser stack (mdast + micromark, GFM, front matter); static import, see ts/deps/README.md. */
import { fromMarkdown } from "mdast-util-from-markdown";
import { gfmFromMarkdown } from "mdast-util-gfm";
import { gfm } from "micromark-extension-gfm";
import { frontmatter } from "micromark-extension-frontmatter";
import { frontmatterFromMarkdown } from "mdast-util-frontmatter";

/** The functions ts/evidence/fragment.ts parses with. */
export interface Markdown {
  fromMarkdown: typeof fromMarkdown;
  gfmFromMarkdown: typeof gfmFromMarkdown;
  gfm: typeof gfm;
  frontmatter: typeof frontmatter;
  frontmatterFromMarkdown: typeof frontmatterFromMarkdown;
}

const loaded: Markdown = { fromMarkdown, gfmFromMarkdown, gfm, frontmatter, frontmatterFromMarkdown };

/** The markdown parser stack. Never throws. */
export function markdown(): Markdown {
  return loaded;
}
