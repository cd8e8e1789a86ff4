/**
 * A moot's record: the trees, the passages and utterances of its turns, its grounding totals
 * (Transcript.stats), and its plain-data form (toDict, read back by transcriptFromDict).
 */
import type { Grounding, QuoteCheck, Snap } from "./grounding-terms.js";
import type { Intent } from "./intents.js";
import { GroundwireError } from "../errors.js";
import { checkArgs } from "../args.js";

/** One book taking part: key `<genre>/<book>`, title, author ("" when unknown), genre. */
export interface Tree {
  key: string;
  title: string;
  author: string;
  genre: string;
}

/** One passage given to a tree for a turn. */
export interface Passage {
  /** Citation tag `s1`…`sk`. */
  tag: string;
  /** Where a reader finds the passage, as the book prints it (`MAY 1660: 29th`, `Genesis 1:1–10`, `Chapter 3, part 2`). */
  label: string;
  nodeId: string;
  content: string;
}

/** One line of a moot. */
export interface Utterance {
  /** Turn number, from 1; `[oN]` tags name it. */
  turn: number;
  /** The speaking tree's key. */
  speaker: string;
  title: string;
  /** What it said, after snapping. */
  text: string;
  /** Each valid `sN` tag the reply cited → the passage's node id. */
  cited: Record<string, string>;
  /** Each checked quote (3+ words) of the kept raw reply. */
  quotes: QuoteCheck[];
  /** The grounding check of the kept raw reply, without its quote list. */
  grounding: Omit<Grounding, "quotes">;
  grounded: boolean;
  /** 1, or 2 when the first reply failed and the turn was retried. */
  attempts: number;
  /** The retrieval query that produced this turn's passages. */
  query: string;
  retrieved: Array<{ tag: string; label: string; nodeId: string }>;
  /** The model's reply before snapping; grounding was measured on it. */
  rawText: string;
  /** The move asked for; a key of {@link INTENTS}. */
  intent: Intent;
  /** One record per quote snapping corrected. */
  snaps: Snap[];
}

/** Grounding totals of a moot (see {@link Transcript.stats}). */
export interface MootStats {
  turns: number;
  tagsValidTurns: number;
  tagsValidRate: number | null;
  turnsCiting: number;
  quotesFound: number;
  quotesTotal: number;
  quoteFoundRate: number | null;
  groundedTurns: number;
  retriedTurns: number;
  otherQuotesFound: number;
  otherQuotesTotal: number;
  otherQuoteValidRate: number | null;
  selfQuotesFound: number;
  selfQuotesTotal: number;
  quotesPerTurn: number | null;
  quotesSnapped: number;
  quotesUnquoted: number;
  quotesTooShort: number;
  /** Own quotes whose tag names a passage of their turn that holds them (raw replies). */
  quotesCited: number;
  /** Own quotes whose tags name only passages that do not hold them. */
  quotesMisattributed: number;
  /** Own quotes with no `[sN]` tag. */
  quotesUncited: number;
  /** `quotesCited / quotesTotal` (own quotes), 3 places; null with no own quote. */
  quoteCitedRate: number | null;
  /** Quoted spans left unchecked by the caps of checkGrounding (such a turn is not grounded). */
  quotesUnchecked: number;
}

/** Settings recorded on a transcript. */
export interface MootSettings {
  turns: number;
  k: number;
  temperature: number;
  maxTokens: number;
  /** Whether a misattributed quote failed its turn (`MootOptions.strictCitations`); absent when false. */
  strictCitations?: true;
}

const round = (x: number, places: number) => Math.round(x * 10 ** places) / 10 ** places;

/** A moot's record: its trees, utterances and rolling summaries. */
export class Transcript {
  readonly utterances: Utterance[] = [];
  /** `{beforeTurn, text}` for each rolling summary built. */
  readonly summaries: Array<{ beforeTurn: number; text: string }> = [];

  constructor(
    readonly trees: Tree[],
    readonly topic: string | null,
    /** The model that spoke: the one asked for, else the name the endpoint reported (set by the moot once it has). */
    public model: string,
    readonly settings: MootSettings,
  ) {}

  /**
   * Grounding totals, measured on the models' raw replies. `quoteFoundRate`
   * covers own-book quotes; `otherQuote*` the `[oN]` quotes of the other tree
   * and `selfQuotes*` those of the speaker's own turns (neither counts toward
   * grounding). `quotesSnapped`/`quotesUnquoted` count the corrections made to
   * quotes of 3+ words (and quotes unquoted unchecked by the caps),
   * `quotesTooShort` the shorter quotes unquoted unchecked, wordless ones included.
   * `quotesCited`/`quotesMisattributed`/`quotesUncited` count own quotes by
   * attribution (see checkGrounding) and `quoteCitedRate` is the cited share.
   * `quotesPerTurn` counts quotes of every source. A rate is null when there
   * was nothing to count; rates have 3 places, `quotesPerTurn` 2.
   */
  stats(): MootStats {
    const us = this.utterances;
    const n = us.length;
    const sum = (f: (u: Utterance) => number) => us.reduce((a, u) => a + f(u), 0);
    const snaps = us.flatMap((u) => u.snaps);
    const found = sum((u) => u.grounding.quotesFound);
    const total = sum((u) => u.grounding.quotesTotal);
    const oFound = sum((u) => u.grounding.otherQuotesFound);
    const oTotal = sum((u) => u.grounding.otherQuotesTotal);
    const sTotal = sum((u) => u.grounding.selfQuotesTotal);
    const tagsValid = us.filter((u) => u.grounding.tagsValid).length;
    // From the quote lists, so transcripts written before attribution existed count 0, not NaN.
    const attributed = (a: string) => sum((u) => u.quotes.filter((q) => q.attribution === a).length);
    const cited = attributed("cited");
    return {
      turns: n,
      tagsValidTurns: tagsValid,
      tagsValidRate: n ? round(tagsValid / n, 3) : null,
      turnsCiting: us.filter((u) => u.grounding.tagsCited > 0).length,
      quotesFound: found,
      quotesTotal: total,
      quoteFoundRate: total ? round(found / total, 3) : null,
      groundedTurns: us.filter((u) => u.grounded).length,
      retriedTurns: us.filter((u) => u.attempts > 1).length,
      otherQuotesFound: oFound,
      otherQuotesTotal: oTotal,
      otherQuoteValidRate: oTotal ? round(oFound / oTotal, 3) : null,
      selfQuotesFound: sum((u) => u.grounding.selfQuotesFound),
      selfQuotesTotal: sTotal,
      quotesPerTurn: n ? round((total + oTotal + sTotal) / n, 2) : null,
      quotesSnapped: snaps.filter((s) => s.action === "snapped").length,
      quotesUnquoted: snaps.filter((s) => s.action === "unquoted" && s.reason !== "under 3 words" && s.reason !== "no words").length,
      quotesTooShort: snaps.filter((s) => s.reason === "under 3 words" || s.reason === "no words").length,
      quotesCited: cited,
      quotesMisattributed: attributed("misattributed"),
      quotesUncited: attributed("uncited"),
      quoteCitedRate: total ? round(cited / total, 3) : null,
      quotesUnchecked: sum((u) => u.grounding.quotesUnchecked ?? 0),
    };
  }

  /**
   * Read a transcript back from {@link toDict}'s data (see {@link transcriptFromDict}).
   * @throws TranscriptFormatError naming the bad field
   */
  static fromDict(data: unknown): Transcript {
    return transcriptFromDict(data);
  }

  /** The transcript as plain JSON-ready data: trees, topic, model, settings, utterances, summaries and stats. */
  toDict(): {
    trees: Tree[];
    topic: string | null;
    model: string;
    settings: MootSettings;
    utterances: Utterance[];
    summaries: Array<{ beforeTurn: number; text: string }>;
    stats: MootStats;
  } {
    return structuredClone({
      trees: this.trees,
      topic: this.topic,
      model: this.model,
      settings: this.settings,
      utterances: this.utterances,
      summaries: this.summaries,
      stats: this.stats(),
    });
  }
}

/** A transcript as {@link Transcript.toDict} writes it (`stats` is recomputed on reading, never trusted). */
export type TranscriptDict = ReturnType<Transcript["toDict"]>;

/** A saved transcript or moot state that cannot be read back: names the field. */
export class TranscriptFormatError extends GroundwireError {
  constructor(message: string) {
    super(message, { code: "bad_request", status: 400 });
    this.name = "TranscriptFormatError";
  }
}

/**
 * Read a transcript back from {@link Transcript.toDict}'s data (parsed JSON). The
 * utterances and summaries are copied in; `stats` is ignored and recomputed.
 * @throws TranscriptFormatError when a field is missing or of the wrong kind
 */
export function transcriptFromDict(data: unknown): Transcript {
  const d = data as Partial<TranscriptDict> | null;
  const fail = (field: string, want: string) => {
    throw new TranscriptFormatError(`saved transcript: "${field}" must be ${want}`);
  };
  if (d === null || typeof d !== "object" || Array.isArray(d)) return fail("(top)", "an object");
  if (!Array.isArray(d.trees) || d.trees.length !== 2 || !d.trees.every((t) => t && typeof t.key === "string" && typeof t.title === "string")) fail("trees", "two trees with key and title");
  if (d.topic !== null && typeof d.topic !== "string") fail("topic", "a string or null");
  if (typeof d.model !== "string") fail("model", "a string");
  const st = d.settings;
  if (!st || ![st.turns, st.k, st.temperature, st.maxTokens].every((x) => typeof x === "number" && Number.isFinite(x))) fail("settings", "{turns, k, temperature, maxTokens} numbers");
  if (!Array.isArray(d.utterances) || !d.utterances.every((u, i) => u && u.turn === i + 1 && typeof u.text === "string" && typeof u.speaker === "string")) {
    fail("utterances", "a list of utterances numbered 1, 2, …");
  }
  if (!Array.isArray(d.summaries) || !d.summaries.every((x) => x && typeof x.beforeTurn === "number" && typeof x.text === "string")) fail("summaries", "a list of {beforeTurn, text}");
  const copy = structuredClone(d) as TranscriptDict;
  const t = new Transcript(copy.trees, copy.topic, copy.model, copy.settings);
  t.utterances.push(...copy.utterances);
  t.summaries.push(...copy.summaries);
  return t;
}
