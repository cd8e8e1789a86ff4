/**
 * Text synthesizers for moots: the interface, the OpenAI-compatible chat client
 * (re-exported from chat-endpoint.ts; it runs in Node and browsers), and the embedded extractive
 * synthesizer that answers from its passages with verbatim quotes, so a moot
 * runs offline and deterministically.
 */
import { translateQuoteChars, words } from "../match/index.js";
import { checkArgs } from "../args.js";
import { BODY_LINE_PREFIX, UNTRUSTED_CLOSE, UNTRUSTED_OPEN } from "../memdsl/index.js";

import type { ChatMessage, TextSynthesizer } from "./text-synthesizer.js";

// The interface every synthesizer implements (its own file: the chat client implements it too).
export type { ChatMessage, CompleteOptions, TextSynthesizer } from "./text-synthesizer.js";

// The OpenAI-compatible chat client lives in chat-endpoint.ts (HTTP through ts/net/http.ts).
export {
  createOpenAICompatibleSynthesizer,
  DEFAULT_MODEL_TIMEOUT_MS,
  SynthesizerError,
  type OpenAICompatibleOptions,
  type OpenAICompatibleSynthesizer,
} from "./chat-endpoint.js";

// --- the embedded extractive synthesizer ---------------------------------

/** A passage block as build_messages writes it: `[sN] (label)` then its text. */
interface PromptPassage {
  tag: string;
  content: string;
}

// buildMessages writes each passage as "[sN] (label)" then its text, blocks separated by one blank line.
// (the label stops at any line terminator: `^` starts after each, and a label running past one
// let every start scan the same long line again)
const PASSAGE_BLOCK_RE = /^\[(s\d+)\] \(([^\n\r\u2028\u2029]*)\)\n([\s\S]*?)(?=\n\n|(?![\s\S]))/gm;
/** Passages that list rather than say (a table of contents, an index): never quoted. */
const LIST_LABEL_RE = /^(?:(?:table of )?contents|(?:general )?index(?: (?:of|to) .*)?)(?:, part \d+)?(?: \(\d+\))?$/i;
const STOPWORDS = new Set(
  "a an and are as at be been but by for from had has have he her him his i if in into is it its me my no not of on or our she so that the their them then there they this to was we were what when which who will with you your".split(
    " ",
  ),
);
// no quote marks, brackets, ellipsis or markup runs (`_emphasis_`, `*bold*`, `` `code` ``) inside a quote
const CLEAN_SPAN_RE = /^[^"“”„‟″«»「」『』\[\]…_*`]*$/;
/** Words too common to be what an exchange is about (a reply is never led in by them). */
const COMMON = new Set(
  "about after again all also any before came come could did does done down even ever every from great have here how into just like made make many more most much must never now only other over said same seemed shall should some such than that then these they this those through till time upon very went were what when where which while who whom why would".split(" "),
);
/** Words a clause does not end on (a clause cut before what they join or govern). */
const DANGLING = new Set("a an and as at but by for from in into nor of on or so than that the to which who whom whose with".split(" "));
/** A quote is whole clauses: at least this many words… */
const MIN_QUOTE = 5;
/** …and at most this many (a whole sentence when it fits). */
const MAX_QUOTE = 24;

/**
 * A passage's text as `framePassage` wrote it: the `<untrusted-data> …` banner line, each line
 * of the passage behind `  | `, then `</untrusted-data>`, unwrapped to the passage's lines (so a
 * quote never holds the banner, the frame or a line prefix). Text not in that frame is kept as is.
 */
function unframe(block: string): string {
  const lines = block.split("\n");
  if (!lines[0]?.startsWith(UNTRUSTED_OPEN)) return block;
  const body = lines.slice(1);
  if (body.at(-1)?.trim() === UNTRUSTED_CLOSE) body.pop();
  return body.map((l) => (l.startsWith(BODY_LINE_PREFIX) ? l.slice(BODY_LINE_PREFIX.length).replace(/^ /, "") : l)).join("\n");
}

/** Parse the passage blocks out of a prompt written by `buildMessages`. */
function promptPassages(text: string): PromptPassage[] {
  const out: PromptPassage[] = [];
  for (const m of text.matchAll(PASSAGE_BLOCK_RE)) if (!LIST_LABEL_RE.test(m[2]!)) out.push({ tag: m[1]!, content: unframe(m[3]!.trim()).trim() });
  return out;
}

interface Candidate {
  tag: string;
  text: string;
  score: number;
  /** The quote's word keys. */
  keys: ReadonlySet<string>;
}

/**
 * The best clean quote of one passage: one or more whole clauses of one sentence (within a
 * paragraph; a heading line in capitals is none), 5 to 24 words, never starting or ending inside a clause (a sentence ends at `.`, `!` or `?` or their
 * CJK forms `。！？`, a clause also at `,`, `;`, `:`, a dash, or `，；：、`), holding no quote marks, brackets, ellipsis or markup.
 * Scored by the weight of the distinct query words it holds, with a bonus for being the whole
 * sentence and a small one for length (ties: earliest). Quotes already in the moot (`avoid`)
 * are skipped.
 */
function bestWindow(p: PromptPassage, weights: ReadonlyMap<string, number>, avoid: ReadonlySet<string>): Candidate | null {
  const content = p.content;
  let best: Candidate | null = null;
  // A sentence ends at a line end: framePassage writes each paragraph of a passage as one line
  // (wrapped lines joined), so a heading above a text is not its sentence. "Mr." and its like do
  // not end one. A heading alone (capitals and no lower case; a script without case, such as
  // Chinese, is text) is no quote.
  for (const sentence of content.matchAll(/(?:(?:Mrs?|Dr|St)\.|[^.!?。！？\n])+[.!?。！？]?/g)) {
    if (/\p{Lu}/u.test(sentence[0]) && !/\p{Ll}/u.test(sentence[0])) continue;
    const base = sentence.index!;
    const text = sentence[0];
    const ws = words(text);
    if (ws.length < MIN_QUOTE) continue;
    // clause ends: the last word, and every word followed by clause punctuation before the next word
    const ends: number[] = [];
    for (let i = 0; i < ws.length - 1; i++) if (/[,;:—–，；：、]|\s-\s|--/.test(text.slice(ws[i]!.end, ws[i + 1]!.start))) ends.push(i);
    ends.push(ws.length - 1);
    const starts = [0, ...ends.slice(0, -1).map((e) => e + 1)];
    for (const i of starts) {
      for (const e of ends) {
        const size = e - i + 1;
        if (size < MIN_QUOTE) continue;
        if (size > MAX_QUOTE) break;
        const span = content.slice(base + ws[i]!.start, base + ws[e]!.end).replace(/\s+/g, " ");
        if (!CLEAN_SPAN_RE.test(span) || span.includes("...") || avoid.has(span) || DANGLING.has(ws[e]!.key)) continue;
        const keys = new Set(ws.slice(i, e + 1).map((w) => w.key));
        let score = 0;
        for (const k of keys) score += weights.get(k) ?? 0;
        if (i === 0 && e === ws.length - 1) score += 0.5;
        score += size * 0.01;
        if (!best || score > best.score) best = { tag: p.tag, text: span, score, keys };
      }
    }
  }
  return best;
}

/** Content words of a text, as keys. */
function contentKeys(text: string): Set<string> {
  return new Set(words(text).map((w) => w.key).filter((k) => k.length > 2 && !STOPWORDS.has(k)));
}

/** The double-quoted spans of a text that quote its book (followed by an `[sN]` tag), as the text writes them. */
function quotedParts(text: string): string[] {
  // The translation is one code unit for one, so offsets into it are offsets into `text`.
  return [...translateQuoteChars(text).matchAll(/"([^"]+)"\s*\[s\d+/gi)].map((m) => text.slice(m.index! + 1, m.index! + 1 + m[1]!.length));
}

const OPENERS = [
  "I hold that",
  "My pages answer plainly:",
  "Hear how I tell it:",
  "I set this beside your words:",
  "Consider what I record:",
];
const JOINERS = ["And further,", "Mark this too:", "Elsewhere I say", "I would add"];
/** Leads taking up a word of the turn answered (`%`: that word as it was written). */
const ANSWERS = ["You say %; my pages answer:", "Of % I can tell you this:", "On %, hear how I tell it:"];
const ANSWER_JOINERS = ["And of % I also say", "Of % again:", "As for %,"];

/**
 * What to quote back from the other tree's last line with `[oN]`: the first clause of 4 to 12
 * words of the first phrase it quoted from its own book (the heart of what it said), else of
 * its first sentence that has one. Null when no clean clause exists.
 */
function echoSpan(said: string): string | null {
  const sources = [...quotedParts(said), ...said.replace(/\[[^[\]]*\]|["“”„‟″«»「」『』]/g, "|").split(/[|.!?]/)];
  for (const part of sources) {
    for (const clause of part.split(/[,;:—–]/)) {
      const ws = words(clause);
      if (ws.length < 4 || ws.length > 12) continue;
      const span = clause.slice(ws[0]!.start, ws.at(-1)!.end);
      if (CLEAN_SPAN_RE.test(span) && span.includes(" ")) return span;
    }
  }
  return null;
}

/** The word of `incoming` (as it writes it) that a quote shares with it, among those the topic names or the other book quoted, weighing most; null when none. */
function sharedWord(incoming: string, quote: Candidate, weights: ReadonlyMap<string, number>): string | null {
  let best: { text: string; weight: number } | null = null;
  for (const w of words(incoming)) {
    if (w.key.length <= 3 || STOPWORDS.has(w.key) || COMMON.has(w.key) || !quote.keys.has(w.key)) continue;
    const weight = weights.get(w.key) ?? 0;
    // a word the topic names or the other book quoted: what the exchange is about
    if (weight > 1 && (!best || weight > best.weight)) best = { text: incoming.slice(w.start, w.end), weight };
  }
  return best && best.text.toUpperCase() !== best.text ? best.text.toLowerCase() : (best?.text ?? null);
}

/**
 * The embedded, deterministic extractive synthesizer. It needs no model: it
 * reads the passages `buildMessages` put in the last user message (`[sN]
 * (label)` blocks), picks the clean whole clause or sentence (5–24 words) of each passage
 * that shares most content words with the topic and the line it answers, and answers with
 * two or three of them as verbatim quotes, each tagged `[sN]`, each led in by a word it shares
 * with the line it answers when there is one. When answering, it quotes a clause of the other
 * book's words back with `[oN]`. With no passage to quote it answers one plain sentence without
 * tags or quotes (so the turn fails the check and is kept ungrounded). Asked
 * to summarize (a `Conversation:` prompt), it carries the previous summary
 * forward and adds the first phrase each new turn quoted (see summarizeLines). Same messages, same reply; `options` are ignored.
 */
export function createExtractiveSynthesizer(): TextSynthesizer {
  return {
    name: "extractive",
    async complete(messages) {
      checkArgs("TextSynthesizer.complete", arguments, "messages:array options?:object");
      const last = [...messages].reverse().find((m) => m.role === "user")?.content ?? "";
      const firstUser = messages.find((m) => m.role === "user")?.content ?? "";
      if (/^Conversation:$/m.test(last)) return summarizeLines(last);
      const passages = promptPassages(firstUser);
      const incoming = /^Turn (\d+), ([^\n\r\u2028\u2029]*?) has just said: ([\s\S]*?)(?:\n\nThis turn:|$)/m.exec(firstUser);
      const system = messages.find((m) => m.role === "system")?.content ?? "";
      const topic = topicOf(system);
      // Topic words weigh most; then the words the other book quoted; then the rest of what it
      // said, so a reply answers the words of the turn before it, not only the topic.
      const incomingText = (incoming?.[3] ?? "").replace(/\[[^[\]]*\]/g, " ");
      const weights = new Map<string, number>();
      for (const k of contentKeys(incomingText)) weights.set(k, 1);
      for (const k of contentKeys(quotedParts(incoming?.[3] ?? "").join(" "))) weights.set(k, 1.5);
      for (const k of contentKeys(topic)) weights.set(k, 2);
      const said = new Set<string>();
      for (const m of firstUser.matchAll(/"([^"]+)"/g)) said.add(m[1]!);
      const picks = passages
        .map((p) => bestWindow(p, weights, said))
        .filter((c): c is Candidate => c !== null)
        .map((c, i) => ({ ...c, rank: i }))
        .sort((a, b) => b.score - a.score || a.rank - b.rank)
        .slice(0, 3)
        .sort((a, b) => a.rank - b.rank);
      if (picks.length === 0) {
        // Nothing to quote: say so plainly, without quotes or tags (the turn will not pass the check).
        const other = incoming?.[2] ?? addressee(firstUser) ?? "friend";
        return `${other}, on this my pages are silent for now; let the moot turn to what they do hold.`;
      }
      const seed = [...firstUser].reduce((h, c) => (h * 31 + c.charCodeAt(0)) >>> 0, 7);
      const sentences: string[] = [];
      if (incoming) {
        const echo = echoSpan(incoming[3]!);
        const other = incoming[2]!;
        sentences.push(echo ? `${other}, you speak of "${echo}" [o${incoming[1]}].` : `${other}, I have heard you.`);
      }
      picks.forEach((c, i) => {
        // a quote that shares a word with the turn it answers says so: the reply takes up that word
        const shared = incoming ? sharedWord(incomingText, c, weights) : null;
        const lead = shared
          ? (i === 0 ? ANSWERS : ANSWER_JOINERS)[(seed + i) % (i === 0 ? ANSWERS : ANSWER_JOINERS).length]!.replace("%", shared)
          : i === 0 ? OPENERS[seed % OPENERS.length]! : JOINERS[(seed + i) % JOINERS.length]!;
        sentences.push(`${lead} "${c.text}" [${c.tag}].`);
      });
      return sentences.join(" ");
    },
  };
}

// The prompt readers below find their marker with indexOf and read once from there: the regexes
// they replace (`/The topic before the moot: ([^\n]*?)\.(?: |$)/` and the like) restarted at
// every repeat of the marker and scanned the rest of the line each time, quadratic in a prompt
// that repeats it (the prompt carries the client's topic and the other side's words).

/** The topic in the system prompt: after "The topic before the moot: " up to the first "." that ends the text or comes before a space, on that line. */
function topicOf(system: string): string {
  const marker = "The topic before the moot: ";
  const at = system.indexOf(marker);
  if (at < 0) return "";
  const from = at + marker.length;
  const lineEnd = system.indexOf("\n", from);
  const end = lineEnd < 0 ? system.length : lineEnd;
  for (let i = from; i < end; i++) {
    if (system[i] === "." && (i + 1 === system.length || system[i + 1] === " ")) return system.slice(from, i);
  }
  return "";
}

/** Whom the first prompt addresses: the first line ending in "." that holds "addressing X." (X not empty). */
function addressee(prompt: string): string | undefined {
  for (const line of prompt.split(/\r\n?|[\n\u2028\u2029]/)) {
    if (!line.endsWith(".")) continue;
    const at = line.indexOf("addressing ");
    if (at >= 0 && at + "addressing ".length < line.length - 1) return line.slice(at + "addressing ".length, -1);
  }
  return undefined;
}

/** The summary a summarizing prompt carries: after "Previous summary: " or "Earlier summary: ", up to "\n\nConversation:". */
function previousSummary(prompt: string): string {
  const starts = ["Previous summary: ", "Earlier summary: "].map((m) => [prompt.indexOf(m), m.length] as const).filter(([i]) => i >= 0);
  if (!starts.length) return "";
  const [at, length] = starts.reduce((a, b) => (b[0] < a[0] ? b : a));
  const end = prompt.indexOf("\n\nConversation:", at + length);
  return end < 0 ? "" : prompt.slice(at + length, end).trim();
}

/**
 * The extractive rolling summary: it carries the previous summary forward and
 * adds the turns it has not covered yet, so it moves through the moot. Each
 * conversation line (`Title: text`) becomes one sentence, `Title spoke of
 * <the first phrase it quoted, else its first twelve words>.` (quote marks and
 * tags removed). The lines after the last one whose sentence the previous
 * summary (`Previous summary: …`) already holds are the new ones; the summary
 * is the latest sentences of the previous summary followed by the new lines'
 * sentences, at most 80 words, the newest kept first when they do not all fit.
 */
function summarizeLines(prompt: string): string {
  const previous = previousSummary(prompt);
  const body = prompt.split(/Conversation:\n/)[1] ?? prompt;
  const lineSentences: string[] = [];
  const speakers = new Set<string>();
  for (const line of body.split("\n")) {
    const colon = line.indexOf(": ");
    if (colon < 0) continue;
    const who = line.slice(0, colon);
    speakers.add(who);
    const said = line.slice(colon + 2);
    const phrase = quotedParts(said)[0] ?? said;
    const clean = translateQuoteChars(phrase).replace(/\[[^[\]]*\]|"/g, "");
    const ws = words(clean).slice(0, 12);
    if (!ws.length) continue;
    lineSentences.push(`${who} spoke of ${clean.slice(ws[0]!.start, ws.at(-1)!.end)}.`);
  }
  // A sentence of the previous summary starts where a speaker "spoke of" (abbreviations like "Mr." do not end one).
  const starts = [...speakers].map((w) => ` ${w} spoke of `);
  const oldSentences: string[] = [];
  let from = 0;
  for (let i = 1; i < previous.length; i++) {
    if (previous[i - 1] === "." && starts.some((st) => previous.startsWith(st, i))) {
      oldSentences.push(previous.slice(from, i));
      from = i + 1;
    }
  }
  if (previous) oldSentences.push(previous.slice(from));
  let covered = -1;
  lineSentences.forEach((s, i) => {
    if (oldSentences.includes(s)) covered = i;
  });
  const fresh = lineSentences.slice(covered + 1);
  const cost = (s: string) => words(s).length;
  let budget = 80;
  const kept: string[] = [];
  for (let i = fresh.length - 1; i >= 0 && cost(fresh[i]!) <= budget; i--) {
    kept.unshift(fresh[i]!);
    budget -= cost(fresh[i]!);
  }
  const carried: string[] = [];
  for (let i = oldSentences.length - 1; i >= 0 && cost(oldSentences[i]!) <= budget; i--) {
    if (kept.includes(oldSentences[i]!)) continue;
    carried.unshift(oldSentences[i]!);
    budget -= cost(oldSentences[i]!);
  }
  return [...carried, ...kept].join(" ");
}
