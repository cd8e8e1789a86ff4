/** Books of verse cut into their poems (browser-safe). */
import { bookBody } from "./gutenberg.js";
import { FRONT_HEADING } from "./book-cover.js";
import { CHUNK_CHARS, pack, paragraphsOf, passageOf, slug, uniqueNames, type BookPassage } from "./book-text.js";

/** A poem's title: one line of at most 60 characters with letters and no lower-case letter (`THE HARBOUR AT DUSK`, `SONNET 4`). */
const POEM_TITLE = /^(?=.*\p{Lu})[^\p{Ll}\n]{2,60}$/u;
/** A Roman numeral (a stanza or section number within a poem), never a title. */
const NUMERAL = /^[IVXLCDM]{1,8}\.?$/;

/**
 * Cut a book of verse into its poems: a poem starts at its title (a line alone
 * in capitals) and runs to the next one, packed into passages of about
 * `chunkChars` characters of whole stanzas, labelled by the title
 * (`THE HARBOUR AT DUSK`, `THE HARBOUR AT DUSK, part 2`). Cantos and books
 * (`CANTO I`) are chapters' headings and are cut as chapters.
 *
 * @returns the passages, or null when fewer than 3 titles with verse under them are found
 */
export function cutPoems(key: string, text: string, chunkChars = CHUNK_CHARS): BookPassage[] | null {
  const { start, end } = bookBody(text);
  const paras = paragraphsOf(text, start, end);
  const titles = paras.flatMap((p, i) => (p.lines === 1 && POEM_TITLE.test(p.text) && !NUMERAL.test(p.text) && !FRONT_HEADING.test(p.text) && paras[i + 1] && paras[i + 1]!.lines > 1 ? [i] : []));
  if (titles.length < 3) return null;
  const out: BookPassage[] = [];
  titles.forEach((i, n) => {
    const title = paras[i]!.text.replace(/\s+/g, " ").replace(/[.:]$/, "");
    const groups = pack(paras.slice(i, titles[n + 1] ?? paras.length), chunkChars);
    groups.forEach((g, k) => {
      out.push(passageOf(key, `${slug(title)}${groups.length > 1 ? `-${k + 1}` : ""}`, groups.length > 1 ? `${title}, part ${k + 1}` : title, g));
    });
  });
  return uniqueNames(out, key);
}
