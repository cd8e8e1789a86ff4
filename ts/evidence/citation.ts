/**
 * Citations and their status against a later version of a document: address
 * first, content second (DESIGN §4, the seed's resolve_fragment / citation_status).
 *
 *   current  the address resolves and its content hash is the cited one
 *   moved    exactly one fragment carries the cited content hash, at another address
 *            (checked before stale: a displaced quote is not a rewritten quote)
 *   stale    the address resolves, its content changed, the cited content is nowhere
 *   lost     neither resolves, or the cited content is carried by several fragments
 *            (ambiguous: reported with the candidates, never guessed)
 *
 * Lookups go through a FragmentIndex (two hash maps), so resolving one citation is
 * O(1) expected, whatever the document's size.
 */
import type { Fragment, FragmentKind } from "./fragment/index.js";
import { createSuggestIndex, suggestFrom, type SuggestIndex } from "./suggest.js";
import { GroundwireError } from "../errors.js";
import { checkArgs } from "../arg-kinds.js";

/** The four outcomes of resolving a citation. */
export type CitationStatus = "current" | "moved" | "stale" | "lost";

/** A stored citation: the pinned address and content, optionally the text that was cited. */
export interface Citation {
  /** 64 lowercase hex. */
  fragmentId: string;
  /** `sha256:<64 hex>`. */
  contentHash: string;
  /** The cited fragment's text (verbatim or normalized); enables similarity suggestions. */
  text?: string;
  /** The cited fragment's kind; narrows suggestions to fragments of that kind. */
  kind?: FragmentKind;
}

/** A fragment offered with a score: 1 for a carrier of the cited content, else the similarity ratio. */
export interface Candidate {
  fragment: Fragment;
  score: number;
}

/** The answer for one citation. */
export interface CitationReport {
  status: CitationStatus;
  citation: Citation;
  /**
   * current: the cited fragment; moved: the one fragment now carrying the content
   * (re-point the citation to its versionId); stale: the fragment now at the address
   * (with its changed text); lost: null.
   */
  fragment: Fragment | null;
  /**
   * lost because ambiguous: every fragment carrying the cited content (score 1).
   * stale, or lost with nothing found: suggestions by similarity to `citation.text`
   * (empty when the citation carries no text). Never applied automatically.
   */
  candidates: Candidate[];
  /** One sentence saying why. */
  reason: string;
}

/** A malformed version id or citation: names the value and what was expected. */
export class CitationFormatError extends GroundwireError {
  constructor(readonly value: string, detail: string) {
    super(`not a citation: ${JSON.stringify(value)} (${detail})`, { code: "bad_request", status: 400 });
    this.name = "CitationFormatError";
  }
}

const FRAGMENT_ID = /^[0-9a-f]{64}$/;
const CONTENT_HASH = /^sha256:[0-9a-f]{64}$/;

/**
 * Parse a version id `<fragmentId>#sha256:<hex>` into a Citation.
 * @throws CitationFormatError naming the value and the part that is wrong
 */
export function parseCitation(versionId: string): Citation {
  if (typeof versionId !== "string") throw new CitationFormatError(String(versionId), "expected a string");
  const hash = versionId.indexOf("#");
  if (hash < 0) throw new CitationFormatError(versionId, "expected <fragmentId>#sha256:<hex>");
  const fragmentId = versionId.slice(0, hash);
  const contentHash = versionId.slice(hash + 1);
  if (!FRAGMENT_ID.test(fragmentId)) throw new CitationFormatError(versionId, "the fragment id must be 64 lowercase hex characters");
  if (!CONTENT_HASH.test(contentHash)) throw new CitationFormatError(versionId, "the content hash must be sha256: and 64 lowercase hex characters");
  return { fragmentId, contentHash };
}

/** The citation of a fragment as it is now: its address, its content, its text and kind. */
export function citeFragment(fragment: Fragment): Citation {
  checkArgs("citeFragment", arguments, "fragment:fragment");
  return { fragmentId: fragment.fragmentId, contentHash: fragment.contentHash, text: fragment.text, kind: fragment.kind };
}

/** Fragments indexed for resolution: by address and by content hash. */
export interface FragmentIndex {
  readonly fragments: readonly Fragment[];
  readonly byId: ReadonlyMap<string, Fragment>;
  /** Content hash → the fragments carrying it, in document order. */
  readonly byContent: ReadonlyMap<string, readonly Fragment[]>;
  /** @internal the suggestion candidates (ts/evidence/suggest.ts), built on first use */
  readonly suggest: SuggestIndex;
}

/**
 * Index fragments (one version of one or several documents) for `citationStatus`
 * and `resolveFragment`. O(n) time and memory.
 * @throws Error when two fragments share a fragmentId (not one document's output)
 */
export function indexFragments(fragments: readonly Fragment[]): FragmentIndex {
  checkArgs("indexFragments", arguments, "fragments:array");
  const byId = new Map<string, Fragment>();
  const byContent = new Map<string, Fragment[]>();
  for (const f of fragments) {
    if (byId.has(f.fragmentId)) throw new Error(`indexFragments: fragment id ${f.fragmentId} occurs twice (path ${f.path})`);
    byId.set(f.fragmentId, f);
    const carriers = byContent.get(f.contentHash);
    if (carriers) carriers.push(f);
    else byContent.set(f.contentHash, [f]);
  }
  return { fragments, byId, byContent, suggest: createSuggestIndex() };
}

const frozenIndexes = new WeakMap<readonly Fragment[], FragmentIndex>();

function indexOf(fragments: readonly Fragment[] | FragmentIndex): FragmentIndex {
  if (!Array.isArray(fragments)) return fragments as FragmentIndex;
  const list = fragments as readonly Fragment[];
  // A frozen array (what fragmentMarkdown returns) cannot change, so its index is kept.
  if (!Object.isFrozen(list)) return indexFragments(list);
  let index = frozenIndexes.get(list);
  if (!index) frozenIndexes.set(list, (index = indexFragments(list)));
  return index;
}

/**
 * The fragment at an address, or null. O(1) expected.
 * @param address a fragmentId, or a versionId (its fragment part is used)
 * @param fragments the fragments, or their FragmentIndex (pass the index when
 *   resolving many citations against a non-frozen array)
 */
export function resolveFragment(address: string, fragments: readonly Fragment[] | FragmentIndex): Fragment | null {
  checkArgs("resolveFragment", arguments, "address:string fragments:fragments");
  const hash = address.indexOf("#");
  return indexOf(fragments).byId.get(hash < 0 ? address : address.slice(0, hash)) ?? null;
}

/** Options for suggestions on stale / lost citations. */
export interface CitationOptions {
  /** How many similarity suggestions at most (default 3; 0 turns them off). */
  suggestions?: number;
  /** Lowest similarity ratio offered (default 0.6). */
  minRatio?: number;
}

/**
 * Resolve a stored citation against the fragments of the current version.
 *
 * @param citation a Citation, or a versionId string (`<fragmentId>#sha256:<hex>`)
 * @param fragments the current version's fragments, or their FragmentIndex
 * @param options suggestions (count, minimum ratio); computed only when the
 *   citation carries `text`, against fragments of its kind (or of the addressed
 *   fragment's kind), skipping those whose length bound is below `minRatio`. The
 *   score is the quote matcher's ratio (`sequenceRatio` from ts/moot: difflib's
 *   `SequenceMatcher(None, a, b, autojunk=False).ratio()` over code points) of the
 *   whitespace-normalized texts. Suggestions go through a candidate index built once per
 *   version and kind (ts/evidence/suggest.ts: fragments by length, character-count and LCS
 *   bounds, best first, an exact count that stops early), exact; the resolution itself is two map
 *   lookups, and suggestions cost far more (docs/evidence.md#figures): `{suggestions: 0}` when
 *   only the status is wanted.
 * @returns a CitationReport; `moved` always points at a fragment with the cited
 *   content hash, i.e. identical kind and whitespace-normalized text
 * @throws CitationFormatError for a malformed versionId; TypeError naming the argument when
 *   `citation` or `fragments` has the wrong type (null …)
 */
export function citationStatus(
  citation: Citation | string,
  fragments: readonly Fragment[] | FragmentIndex,
  options: CitationOptions = {},
): CitationReport {
  checkArgs("citationStatus", arguments, "citation:citation fragments:fragments options?:object");
  const cited = typeof citation === "string" ? parseCitation(citation) : checkCitation(citation);
  const index = indexOf(fragments);
  const atAddress = index.byId.get(cited.fragmentId) ?? null;
  if (atAddress && atAddress.contentHash === cited.contentHash) {
    return { status: "current", citation: cited, fragment: atAddress, candidates: [], reason: "the address resolves and its content is unchanged" };
  }
  const carriers = index.byContent.get(cited.contentHash) ?? [];
  if (carriers.length === 1) {
    const moved = carriers[0];
    return { status: "moved", citation: cited, fragment: moved, candidates: [], reason: `exactly one fragment carries the cited content, now at ${moved.path}` };
  }
  if (carriers.length > 1) {
    return {
      status: "lost",
      citation: cited,
      fragment: null,
      candidates: carriers.map((fragment) => ({ fragment, score: 1 })),
      reason: `${carriers.length} fragments carry the cited content${atAddress ? " and the address holds other text" : " and the address is gone"}: ambiguous, not guessed`,
    };
  }
  const candidates = suggest(index, cited, atAddress, options);
  if (atAddress) {
    return { status: "stale", citation: cited, fragment: atAddress, candidates, reason: "the address resolves but its content changed, and the cited content is nowhere else" };
  }
  return { status: "lost", citation: cited, fragment: null, candidates, reason: "neither the address nor the cited content exists in this version" };
}

function suggest(index: FragmentIndex, cited: Citation, atAddress: Fragment | null, options: CitationOptions): Candidate[] {
  const max = options.suggestions ?? 3;
  const minRatio = options.minRatio ?? 0.6;
  if (max <= 0 || cited.text === undefined) return [];
  return suggestFrom(index.suggest, index.fragments, cited.kind ?? atAddress?.kind, cited.text, max, minRatio);
}


/**
 * A Citation object is held to what parseCitation accepts: a 64-hex fragment id and a
 * `sha256:` content hash; and a citation that carries a quote carries a non-blank one (an
 * empty quote cites nothing, as an empty address addresses nothing: `BLANK_QUOTE`).
 */
/**
 * A quote that is empty or blank as CommonMark counts a blank line (spaces, tabs, line endings):
 * no fragment holds such a text. Other white space (a paragraph of U+000B, U+000C, U+00A0 or
 * U+3000) is a fragment's text like any other, so `citeFragment` of it resolves.
 */
const BLANK_QUOTE = /^[ \t\r\n]*$/;

function checkCitation(c: Citation): Citation {
  const shown = `${String(c.fragmentId)}#${String(c.contentHash)}`;
  if (typeof c.fragmentId !== "string" || !FRAGMENT_ID.test(c.fragmentId)) throw new CitationFormatError(shown, "the fragment id must be 64 lowercase hex characters");
  if (typeof c.contentHash !== "string" || !CONTENT_HASH.test(c.contentHash)) throw new CitationFormatError(shown, "the content hash must be sha256: and 64 lowercase hex characters");
  if (c.text !== undefined && (typeof c.text !== "string" || BLANK_QUOTE.test(c.text))) throw new CitationFormatError(shown, "the cited text (quote) must be a non-empty string when given");
  return c;
}
