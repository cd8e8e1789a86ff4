/**
 * Text synthesizers for moots: the interface, the OpenAI-compatible chat client
 * (re-exported from chat-endpoint.ts; it runs in Node and browsers), and the embedded extractive
 * synthesizer that answers from its passages with verbatim quotes, so a moot
 * runs offline and deterministically.
 */
import { translateQuoteChars, words } from "../match/index.js";

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
const PASSAGE_BLOCK_RE = /^\[(s\d+)\] \([^\n\r\u2028\u2029]*\)\n([\s\S]*?)(?=\n\n|(?![\s\S]))/gm;
const STOPWORDS = new Set(
  "a an and are as at be been but by for from had has have he her him his i if in into is it its me my no not of on or our she so that the their them then there they this to was we were what when which who will with you your".split(
    " ",
  ),
);
const CLEAN_SPAN_RE = /^[^"“”„‟″«»「」『』\[\]…]*$/;
const MIN_QUOTE = 5;
const MAX_QUOTE = 12;

/** Parse the passage blocks out of a prompt written by `buildMessages`. */
function promptPassages(text: string): PromptPassage[] {
  const out: PromptPassage[] = [];
  for (const m of text.matchAll(PASSAGE_BLOCK_RE)) out.push({ tag: m[1]!, content: m[2]!.trim() });
  return out;
}

interface Candidate {
  tag: string;
  text: string;
  score: number;
}

/**
 * The best clean span of 5–12 words in one passage: a window inside one
 * sentence holding no quote marks, brackets or ellipsis, scored by the weight
 * of the distinct query words it holds, with a small bonus for starting or
 * ending where its sentence does and a small cost for ending on a stopword
 * (ties: earliest). Windows already quoted in the moot (`avoid`) are skipped.
 */
function bestWindow(p: PromptPassage, weights: ReadonlyMap<string, number>, avoid: ReadonlySet<string>): Candidate | null {
  const content = p.content;
  let best: Candidate | null = null;
  // Sentences: "Mr." and its like do not end one.
  for (const sentence of content.matchAll(/(?:(?:Mrs?|Dr|St)\.|[^.!?;:\n])+[.!?;:]?/g)) {
    const base = sentence.index!;
    const ws = words(sentence[0]);
    if (ws.length < MIN_QUOTE) continue;
    for (let size = Math.min(MAX_QUOTE, ws.length); size >= MIN_QUOTE; size--) {
      for (let i = 0; i + size <= ws.length; i++) {
        const span = content.slice(base + ws[i]!.start, base + ws[i + size - 1]!.end);
        if (!CLEAN_SPAN_RE.test(span) || span.includes("...") || avoid.has(span)) continue;
        const keys = new Set(ws.slice(i, i + size).map((w) => w.key));
        let score = 0;
        for (const k of keys) score += weights.get(k) ?? 0;
        if (i === 0) score += 0.3;
        if (i + size === ws.length) score += 0.5;
        if (STOPWORDS.has(ws[i + size - 1]!.key)) score -= 0.4;
        score += size * 0.01;
        if (!best || score > best.score) best = { tag: p.tag, text: span, score };
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

/**
 * Four to six words of the other tree's last line to quote back with `[oN]`:
 * taken from the first phrase it quoted from its own book (the heart of what
 * it said), else from its first sentence of six words or more. Null when no
 * clean span exists.
 */
function echoSpan(said: string): string | null {
  const sources = [...quotedParts(said), ...said.replace(/\[[^[\]]*\]|["“”„‟″«»「」『』]/g, "|").split(/[|.!?;:]/)];
  for (const part of sources) {
    const ws = words(part);
    if (ws.length < 4) continue;
    const from = ws.length >= 7 ? 1 : 0;
    const span = part.slice(ws[from]!.start, ws[Math.min(ws.length - 1, from + 5)]!.end);
    if (CLEAN_SPAN_RE.test(span) && span.includes(" ")) return span;
  }
  return null;
}

/**
 * The embedded, deterministic extractive synthesizer. It needs no model: it
 * reads the passages `buildMessages` put in the last user message (`[sN]
 * (label)` blocks), picks the clean 5–12-word window of each passage that
 * shares most content words with the line it answers (or the topic), and
 * answers with two or three of them as verbatim quotes, each tagged `[sN]`.
 * When answering, it quotes four or five of the other book's words back with
 * `[oN]`. With no passage to quote it answers one plain sentence without
 * tags or quotes (so the turn fails the check and is kept ungrounded). Asked
 * to summarize (a `Conversation:` prompt), it carries the previous summary
 * forward and adds the first phrase each new turn quoted (see summarizeLines). Same messages, same reply; `options` are ignored.
 */
export function createExtractiveSynthesizer(): TextSynthesizer {
  return {
    name: "extractive",
    async complete(messages) {
      const last = [...messages].reverse().find((m) => m.role === "user")?.content ?? "";
      const firstUser = messages.find((m) => m.role === "user")?.content ?? "";
      if (/^Conversation:$/m.test(last)) return summarizeLines(last);
      const passages = promptPassages(firstUser);
      const incoming = /^Turn (\d+), ([^\n\r\u2028\u2029]*?) has just said: ([\s\S]*?)(?:\n\nThis turn:|$)/m.exec(firstUser);
      const system = messages.find((m) => m.role === "system")?.content ?? "";
      const topic = topicOf(system);
      // Topic words weigh most; then the words the other book quoted; its own phrasing least.
      const weights = new Map<string, number>();
      for (const k of contentKeys(incoming?.[3] ?? "")) weights.set(k, 0.25);
      for (const k of contentKeys(quotedParts(incoming?.[3] ?? "").join(" "))) weights.set(k, 1);
      for (const k of contentKeys(topic)) weights.set(k, 3);
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
        const lead = i === 0 ? OPENERS[seed % OPENERS.length]! : JOINERS[(seed + i) % JOINERS.length]!;
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
