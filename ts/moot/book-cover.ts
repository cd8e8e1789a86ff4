/**
 * Every word of a book's body in a passage, under a label a reader can look
 * up (browser-safe). After a cutter has found the book's units, the text it
 * left between them is given to a passage: text before the first unit becomes
 * front matter under the heading it stands under (`Introduction`, or `Front
 * matter` for a title page) but for the headings of units right above it
 * (`A` over a dictionary's first entry); between units a run of up to three
 * short one-line paragraphs (headings) joins the passage after it, other text
 * the passage before it, but that text after the last unit from a back matter
 * heading on (`INDEX`, `NOTES`, `APPENDIX A`…; inside the last unit too) is back
 * matter under its own headings. Labels
 * are then normalized (no trailing `.`, `,`, `:`, `;` or dash, one space) and
 * made unique: the n-th passage (n ≥ 2, in reading order) of a label that
 * would repeat is `<label> (n)`.
 */
import { pack, paragraphsOf, slug, uniqueNames, type BookPassage, type Paragraph } from "./book-text.js";

/** A heading of front matter: the author's text before the book's first unit, or the file's title page and contents. */
export const FRONT_HEADING =
  /^(?:(?:the\s+)?(?:author['’]s\s+|editor['’]s\s+|translator['’]s\s+)?(?:preface|introduction|introductory note|foreword|prologue|prefatory note|to the reader|dedication|contents|table of contents|dramatis person(?:ae|æ)|persons of the play|characters|illustrations|list of illustrations|(?:a\s+)?note|notes|acknowledg(?:e)?ments|advertisement)(?:\s+(?:to|on)\s+.{1,60})?)\.?$/i;
/**
 * A heading of back matter: text after the book's last unit that is not the unit's own
 * (`INDEX`, `FOOTNOTES`, `APPENDIX B`…). From such a heading on, the tail of the body is
 * back matter, passages under its own headings, never the last unit's text.
 */
export const BACK_HEADING =
  /^(?:(?:general\s+)?index(?:\s+(?:of|to)\s+.{1,60})?|footnotes|notes|endnotes|notes\s+(?:to|on)\s+.{1,60}|appendix(?:\s+[A-Z0-9IVXLC]{1,6})?(?:[.:]\s*.{1,60})?|glossary|bibliography|(?:transcriber['’]s|editor['’]s)\s+notes?|afterword)\.?$/i;
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

/** Front (or back) matter passages: split at its headings, each section packed under its heading (`Introduction, part 2`). */
function frontMatter(key: string, paras: readonly Paragraph[], chunkChars: number, headings = FRONT_HEADING): BookPassage[] {
  const sections: Array<{ heading: string; paras: Paragraph[] }> = [];
  for (const p of paras) {
    if (isHeading(p) && headings.test(p.text)) sections.push({ heading: normalLabel(p.text), paras: [p] });
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
 * End the book's last passage before a back matter heading inside it (an index or notes
 * after the last chapter, which a chapter runs on into), so the rest is left to coverBody's
 * gap after the last unit. Only when the passage's content ends with those paragraphs' text
 * (a cutter that built the content otherwise keeps it whole).
 */
function cutBackMatter(text: string, last: BookPassage | undefined): void {
  if (!last) return;
  const paras = paragraphsOf(text, last.start!, last.end!);
  const b = paras.findIndex((p, j) => j > 0 && isHeading(p) && BACK_HEADING.test(p.text));
  if (b < 0) return;
  const tail = `\n\n${paras.slice(b).map((p) => p.text).join("\n\n")}`;
  if (!last.content.endsWith(tail)) return;
  last.content = last.content.slice(0, -tail.length);
  last.end = paras[b - 1]!.end;
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
  cutBackMatter(text, units.at(-1));
  let front: BookPassage[] = [];
  let back: BookPassage[] = [];
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
      // after the last unit: back matter from its first heading on
      const b = next ? -1 : before.findIndex((p) => isHeading(p) && BACK_HEADING.test(p.text));
      if (i === 0) front = frontMatter(key, before, chunkChars);
      else if (b >= 0) {
        append(units[i - 1]!, before.slice(0, b));
        back = frontMatter(key, before.slice(b), chunkChars, BACK_HEADING);
      } else append(units[i - 1]!, before);
    }
    if (next) at = Math.max(at, next.end!);
  }
  const out = [...front, ...units, ...back];
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
