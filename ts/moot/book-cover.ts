/**
 * Every word of a book's body in a passage, under a label a reader can look
 * up (browser-safe). After a cutter has found the book's units, the text it
 * left between them is given to a passage: text before the first unit becomes
 * front matter under the heading it stands under (`Introduction`, or `Front
 * matter` for a title page) but for the headings of units right above it
 * (`A` over a dictionary's first entry); between units a run of up to three
 * short one-line paragraphs (headings) joins the passage after it, other text
 * the passage before it. Labels
 * are then normalized (no trailing `.`, `,`, `:`, `;` or dash, one space) and
 * made unique: the n-th passage (n ≥ 2, in reading order) of a label that
 * would repeat is `<label> (n)`.
 */
import { pack, paragraphsOf, slug, uniqueNames, type BookPassage, type Paragraph } from "./book-text.js";

/** A heading of front matter: the author's text before the book's first unit, or the file's title page and contents. */
export const FRONT_HEADING =
  /^(?:(?:the\s+)?(?:author['’]s\s+|editor['’]s\s+|translator['’]s\s+)?(?:preface|introduction|introductory note|foreword|prologue|prefatory note|to the reader|dedication|contents|table of contents|dramatis person(?:ae|æ)|persons of the play|characters|illustrations|list of illustrations)(?:\s+to\s+.{1,60})?)\.?$/i;
/** The label of text before the first unit that stands under no heading of its own. */
export const FRONT_MATTER = "Front matter";
/** Longest paragraph taken as a heading (one line, UTF-16 code units). */
const HEADING_CHARS = 80;
/** At most this many heading paragraphs in a row join the passage after them; a longer run (a table of contents) joins the one before. */
const MAX_PREFIX_HEADINGS = 3;

const isHeading = (p: Paragraph) => p.lines === 1 && p.text.length <= HEADING_CHARS;

/** A label as the house writes it: one space between words, no trailing punctuation but a closing bracket or quote. */
export function normalLabel(label: string): string {
  return label.replace(/\s+/g, " ").replace(/[\s.,;:—–-]+$/u, "").trim();
}

/** Front matter passages: split at front headings, each section packed under its heading (`Introduction, part 2`). */
function frontMatter(key: string, paras: readonly Paragraph[], chunkChars: number): BookPassage[] {
  const sections: Array<{ heading: string; paras: Paragraph[] }> = [];
  for (const p of paras) {
    if (isHeading(p) && FRONT_HEADING.test(p.text)) sections.push({ heading: normalLabel(p.text), paras: [p] });
    else if (sections.length) sections.at(-1)!.paras.push(p);
    else sections.push({ heading: FRONT_MATTER, paras: [p] });
  }
  return sections.flatMap(({ heading, paras: section }) => {
    const groups = pack(section, chunkChars);
    return groups.map((g, j) => {
      const name = `${slug(heading)}${groups.length > 1 ? `-${j + 1}` : ""}`;
      return {
        node_id: `${key}#${name}`,
        name,
        label: groups.length > 1 ? `${heading}, part ${j + 1}` : heading,
        content: g.map((p) => p.text).join("\n\n"),
        start: g[0]!.start,
        end: g.at(-1)!.end,
      };
    });
  });
}

/** Put `paras` at the start of `p` (its span and content). */
function prepend(p: BookPassage, paras: readonly Paragraph[]): void {
  if (!paras.length) return;
  p.start = paras[0]!.start;
  p.content = `${paras.map((q) => q.text).join("\n\n")}\n\n${p.content}`;
}

/** Put `paras` at the end of `p`. */
function append(p: BookPassage, paras: readonly Paragraph[]): void {
  if (!paras.length) return;
  p.end = paras.at(-1)!.end;
  p.content = `${p.content}\n\n${paras.map((q) => q.text).join("\n\n")}`;
}

/**
 * Give every paragraph of `body` that no passage spans to a passage (see the
 * file's comment), then normalize and disambiguate the labels and names.
 *
 * @param passages the cutter's passages, in reading order, each with its span
 * @returns the passages in reading order, front matter first
 */
export function coverBody(
  key: string,
  text: string,
  body: { start: number; end: number },
  passages: BookPassage[],
  chunkChars: number,
  unitHeading: (line: string) => boolean = () => false,
): BookPassage[] {
  const units = passages.filter((p) => p.start !== undefined && p.end !== undefined).sort((a, b) => a.start! - b.start!);
  let front: BookPassage[] = [];
  let at = body.start;
  for (let i = 0; i <= units.length; i++) {
    const next = units[i];
    const gapEnd = next ? Math.max(at, next.start!) : body.end;
    const paras = gapEnd > at ? paragraphsOf(text, at, gapEnd) : [];
    if (paras.length) {
      // a run of headings just before a unit heads it
      let k = paras.length;
      // (before the first unit only a heading of the book's units: a title page stays front matter)
      while (next && k > 0 && isHeading(paras[k - 1]!) && (i > 0 || unitHeading(paras[k - 1]!.text))) k--;
      // a longer run of headings is a table of contents, not a unit's heading
      if (paras.length - k > MAX_PREFIX_HEADINGS) k = paras.length;
      const before = paras.slice(0, k);
      if (next) prepend(next, paras.slice(k));
      if (i === 0) front = frontMatter(key, before, chunkChars);
      else append(units[i - 1]!, before);
    }
    if (next) at = Math.max(at, next.end!);
  }
  const out = [...front, ...units];
  if (!units.length && !front.length) return passages;
  const seen = new Map<string, number>();
  const labels = new Set<string>();
  for (const p of out) p.label = normalLabel(p.label) || p.name;
  const all = new Set(out.map((p) => p.label));
  for (const p of out) {
    const n = (seen.get(p.label) ?? 0) + 1;
    seen.set(p.label, n);
    if (n > 1) {
      let m = n;
      while (all.has(`${p.label} (${m})`) || labels.has(`${p.label} (${m})`)) m++;
      p.label = `${p.label} (${m})`;
    }
    labels.add(p.label);
  }
  return uniqueNames(out, key);
}
