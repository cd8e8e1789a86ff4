/**
 * Front matter: whether micromark-extension-frontmatter reads a document's first fence pair as
 * front matter (`frontmatterProbe`, one short parse per distinct pair). `parseBlocks` asks it at the top.
 */
import { markdown } from "../../deps/markdown.js";
import { offsets } from "./mdast.js";
import { checkMicromarkSize } from "./micromark.js";

let frontmatterOptions: { extensions: unknown[]; mdastExtensions: unknown[] } | null = null;

/** micromark → mdast with GFM and front matter, for `frontmatterProbe` only. */
function fromMarkdownWithFrontmatter(text: string): ReturnType<ReturnType<typeof markdown>["fromMarkdown"]> {
  checkMicromarkSize(text.length, 1);
  const m = markdown();
  frontmatterOptions ??= {
    extensions: [m.frontmatter(["yaml", "toml"]), m.gfm()],
    mdastExtensions: [m.frontmatterFromMarkdown(["yaml", "toml"]), m.gfmFromMarkdown()],
  };
  return m.fromMarkdown(text, frontmatterOptions as never);
}

/** micromark's verdicts on front matter fence pairs (a few distinct pairs in any corpus: `---`/`---` nearly always). */
const frontmatterVerdicts = new Map<string, number | null>();

/**
 * Whether micromark-extension-frontmatter reads the fence lines `opening` and `closing` (as
 * written, at the top of a document) as front matter, and if so where its node ends,
 * relative to the closing line's start; null when it does not. The content between the
 * fences is never parsed, so micromark reads the two lines alone, and its answer depends on
 * them only: it is kept (a micromark call costs about a millisecond, even on three lines).
 */
export function frontmatterProbe(opening: string, closing: string): number | null {
  const key = `${opening}\n${closing}`;
  const known = frontmatterVerdicts.get(key);
  if (known !== undefined) return known;
  const probe = fromMarkdownWithFrontmatter(`${opening}\nx\n${closing}`).children[0];
  const verdict = probe && (probe.type === "yaml" || (probe as { type: string }).type === "toml") ? offsets(probe, "frontmatter").end - (opening.length + 3) : null;
  if (key.length <= 200) {
    if (frontmatterVerdicts.size >= 256) frontmatterVerdicts.clear(); // bounded, as are the keys (trailing whitespace has no limit)
    frontmatterVerdicts.set(key, verdict);
  }
  return verdict;
}
