/**
 * `groundwire moot <keyA> <keyB>`: two books of the corpus converse; each
 * utterance is printed as it lands (speaker, text, citations, grounding,
 * corrections), then the moot's stats. `--json FILE` writes the transcript.
 *
 * The model: an OpenAI-compatible endpoint when a base URL is configured
 * (`--base-url` or GROUNDWIRE_BASE_URL; model from `--model` or
 * GROUNDWIRE_MODEL; key from GROUNDWIRE_API_KEY or OPENAI_API_KEY), else the
 * embedded extractive synthesizer (offline, deterministic), which it says.
 */
import { loadCorpus } from "../moot/corpus-node.js";
import { EmptyReplyError, MootError, runMoot, type MootStats, type Utterance } from "../moot/moot.js";
import { UnknownBookError, WorkerError } from "../moot/retrieval.js";
import {
  createExtractiveSynthesizer,
  createOpenAICompatibleSynthesizer,
  SynthesizerError,
  type TextSynthesizer,
} from "../moot/synth.js";
import { CliError, parseCommandArgs, type Command } from "./common.js";
import { corpusDir } from "./corpus-dir.js";
import { checkOutputPath, escapeTerminal, jsonFlagArgs, writeOutput } from "./io.js";

/** Upper bounds: a moot of more turns, or more passages a turn, is a typo, not a plan. */
const MAX_TURNS = 1000;
const MAX_K = 100;

const HELP = `usage: groundwire moot <keyA> <keyB> [options]

Two books converse; every quote is checked against its own book and
snapped to the exact words or unquoted, so every quote left is verbatim.
Keys are <genre>/<book> (see: groundwire books).

  --topic T       what the moot discusses (default: none; each book introduces itself)
  --turns N       utterances in all, at least 1 (default 8)
  --k K           passages retrieved per turn (default 6)
  --model M       model id for the endpoint (env GROUNDWIRE_MODEL)
  --base-url URL  OpenAI-compatible endpoint incl. /v1 (env GROUNDWIRE_BASE_URL);
                  key from GROUNDWIRE_API_KEY or OPENAI_API_KEY
  --temperature X sampling temperature (default 0.6)
  --corpus DIR    folder of <genre>__<book>.txt files (default: the bundled data/books)
  --json [FILE]   write the transcript (with stats) as JSON to FILE, or to stdout
                  (bare --json or --json -: JSON only on stdout, the moot's text on stderr)

With no base URL the embedded extractive synthesizer speaks (offline).`;

function positiveInt(name: string, raw: string | undefined, fallback: number, max: number): number {
  if (raw === undefined) return fallback;
  if (!/^\s*\d+\s*$/.test(raw) || Number(raw) < 1) {
    throw new CliError(`moot: --${name} must be a whole number of at least 1, got ${JSON.stringify(raw.slice(0, 80))}`, 2);
  }
  if (Number(raw) > max) throw new CliError(`moot: --${name} must be at most ${max}, got ${raw.trim().slice(0, 80)}`, 2);
  return Number(raw);
}

function formatUtterance(u: Utterance): string {
  const lines = [`[${u.turn}] ${u.title} (${u.speaker}) · ${u.intent}`, u.text];
  const cites = Object.entries(u.cited).map(([tag, nodeId]) => {
    const label = u.retrieved.find((r) => r.tag === tag)?.label ?? nodeId;
    return `${tag} ${label}`;
  });
  lines.push(`    cites: ${cites.length ? cites.join(" · ") : "none"}`);
  const g = u.grounding;
  const other = g.otherQuotesTotal ? ` · other-book quotes ${g.otherQuotesFound}/${g.otherQuotesTotal}` : "";
  const self = g.selfQuotesTotal ? ` · own-turn quotes ${g.selfQuotesFound}/${g.selfQuotesTotal}` : "";
  lines.push(
    `    ${u.grounded ? "grounded" : "NOT grounded"} · quotes found ${g.quotesFound}/${g.quotesTotal}${other}${self}` +
      `${g.tagsValid ? "" : " · invalid tags"}${u.attempts > 1 ? " · retried" : ""}`,
  );
  for (const s of u.snaps) {
    lines.push(
      s.action === "snapped"
        ? `    snapped "${s.text}" → "${s.to}" (ratio ${s.ratio})`
        : `    unquoted "${s.text}" (${s.reason})`,
    );
  }
  return lines.join("\n");
}

function formatStats(s: MootStats): string {
  const rate = (x: number | null) => (x === null ? "n/a" : String(x));
  return [
    "stats:",
    `  turns ${s.turns} · grounded ${s.groundedTurns} · retried ${s.retriedTurns} · tags valid ${s.tagsValidTurns} (${rate(s.tagsValidRate)}) · citing ${s.turnsCiting}`,
    `  own-book quotes found ${s.quotesFound}/${s.quotesTotal} (${rate(s.quoteFoundRate)}) · quotes per turn ${rate(s.quotesPerTurn)}`,
    `  other-book quotes valid ${s.otherQuotesFound}/${s.otherQuotesTotal} (${rate(s.otherQuoteValidRate)}) · own-turn quotes ${s.selfQuotesFound}/${s.selfQuotesTotal}`,
    `  corrections: snapped ${s.quotesSnapped} · unquoted ${s.quotesUnquoted} · too short ${s.quotesTooShort}`,
  ].join("\n");
}

const command: Command = {
  async run(args) {
    const { values, positionals } = parseCommandArgs("moot", jsonFlagArgs(args), {
      topic: { type: "string" },
      turns: { type: "string" },
      k: { type: "string" },
      model: { type: "string" },
      "base-url": { type: "string" },
      temperature: { type: "string" },
      corpus: { type: "string" },
      json: { type: "string" },
    }, HELP);
    if (positionals.length !== 2) {
      throw new CliError(`moot: needs two book keys, got ${positionals.length} (see: groundwire books)`, 2);
    }
    const [keyA, keyB] = positionals as [string, string];
    const turns = positiveInt("turns", values.turns, 8, MAX_TURNS);
    const k = positiveInt("k", values.k, 6, MAX_K);
    const temperature = values.temperature === undefined ? 0.6 : Number(values.temperature);
    if (!Number.isFinite(temperature) || temperature < 0) {
      throw new CliError(`moot: --temperature must be a number of at least 0, got ${JSON.stringify(values.temperature)}`, 2);
    }
    if (keyA === keyB) throw new CliError(`moot: a moot needs two different books, got ${JSON.stringify(keyA)} twice`, 2);
    const jsonPath = values.json !== undefined ? checkOutputPath(values.json, "moot: --json") : undefined;
    // With the JSON on stdout, the human text goes to stderr so stdout stays one JSON document.
    const say = (text: string) => (jsonPath === "-" ? process.stderr : process.stdout).write(`${escapeTerminal(text)}\n`);
    const baseUrl = values["base-url"] ?? process.env.GROUNDWIRE_BASE_URL;
    const model = values.model ?? process.env.GROUNDWIRE_MODEL;
    if (values.model && !baseUrl) {
      throw new CliError("moot: --model needs a model endpoint: give --base-url URL (or set GROUNDWIRE_BASE_URL)", 2);
    }

    let corpus;
    try {
      corpus = loadCorpus(corpusDir(values.corpus));
      corpus.resolve(keyA);
      corpus.resolve(keyB);
    } catch (error) {
      throw new CliError(`moot: ${(error as Error).message}`, error instanceof UnknownBookError ? 2 : 1);
    }

    let synth: TextSynthesizer;
    let header: string | null;
    if (baseUrl) {
      synth = createOpenAICompatibleSynthesizer({
        baseUrl,
        model,
        apiKey: process.env.GROUNDWIRE_API_KEY ?? process.env.OPENAI_API_KEY,
      });
      header = `moot: model ${model ?? "(endpoint default)"} at ${baseUrl}`;
    } else {
      synth = createExtractiveSynthesizer();
      // A notice, not part of the transcript: stderr.
      header = null;
      process.stderr.write("groundwire moot: no model configured (--base-url / GROUNDWIRE_BASE_URL); the embedded extractive synthesizer speaks, offline\n");
    }
    // The header heads the transcript: printed with the first utterance, so a moot that
    // fails before anyone speaks (an unreachable endpoint) leaves stdout empty.
    const showHeader = () => {
      if (header !== null) say(header);
      header = null;
    };

    try {
      const transcript = await runMoot(corpus, synth, [keyA, keyB], values.topic ?? null, turns, {
        k,
        model,
        modelName: baseUrl ? (model ?? "") : "extractive",
        temperature,
        onUtterance: (u) => {
          showHeader();
          say(`\n${formatUtterance(u)}`);
        },
      });
      showHeader();
      say(`\n${formatStats(transcript.stats())}`);
      if (jsonPath) {
        writeOutput(jsonPath, `${JSON.stringify(transcript.toDict(), null, 2)}\n`);
        if (jsonPath !== "-") say(`transcript written to ${jsonPath}`);
      }
    } catch (error) {
      if (error instanceof SynthesizerError || error instanceof MootError || error instanceof WorkerError) {
        const where = error instanceof EmptyReplyError && baseUrl ? ` (endpoint ${baseUrl})` : "";
        throw new CliError(`moot: ${error.message}${where}`);
      }
      throw error;
    }
    return 0;
  },
};
export default command;
