/**
 * `groundwire moot <keyA> <keyB>`: two books of the corpus converse; each
 * utterance is printed as it lands (speaker, text, citations, grounding,
 * corrections), each rolling summary before the turn it was made for, then
 * the moot's stats. `--json FILE` writes the transcript (atomically; `-` =
 * stdout, the human text then on stderr); when the model fails mid-moot the
 * turns already spoken are written, marked incomplete.
 *
 * The model: an OpenAI-compatible endpoint when a base URL is configured
 * (ts/cli/model-config.ts: `--base-url`/GROUNDWIRE_BASE_URL, `--model`/
 * GROUNDWIRE_MODEL, `--api-key-file`/GROUNDWIRE_API_KEY/OPENAI_API_KEY,
 * `--timeout`/GROUNDWIRE_TIMEOUT), else the embedded extractive synthesizer
 * (offline, deterministic), which it says.
 */
import { loadCorpus } from "../moot/corpus-node.js";
import {
  EmptyReplyError, Moot, MootError, type MootStats, type Transcript, type Utterance,
  createHttpWorkerClient, UnknownBookError, WorkerError, type WorkerClient,
  createExtractiveSynthesizer, SynthesizerError, type OpenAICompatibleSynthesizer, type TextSynthesizer,
} from "../moot/index.js";
import { redactUrl } from "../net/redact.js";
import { CliError, echo, integerOption, numberOption, type Command, escapeMessage, escapeTerminal, parseCommandArgs } from "./common.js";
import { corpusHelp, CORPUS_OPTIONS, corpusDirs, localCorpus } from "./corpus-dir.js";
import { oneLibrary, openCliCorpus } from "./store-option.js";
import { createModelSynthesizer, MODEL_HELP, MODEL_OPTIONS, readModelConfig, withWaitNotice } from "./model-config.js";
import { checkOutputPath, jsonFlagArgs, writeOutput } from "./io.js";
import { progressHelp, PROGRESS_OPTION, progressLine } from "./progress.js";

/** Upper bounds: a moot of more turns, or more passages a turn, is a typo, not a plan. */
const MAX_TURNS = 1000;
const MAX_K = 100;

const HELP = `usage: groundwire moot <keyA> <keyB> [options]

Two books converse; every quote is checked against its own book and
snapped to the exact words or unquoted, so every quote left is verbatim.
Keys are <genre>/<book> (see: groundwire books).

  --topic T       what the moot discusses (default: none; each book introduces itself)
  --turns N       utterances in all, a positive integer (default 8)
  --k K           passages retrieved per turn (default 6)
${MODEL_HELP}
  --temperature X
                  sampling temperature, 0 to 2 (default 0.6)
${corpusHelp(18)}
  --worker URL    retrieve from a remote worker (groundwire serve) instead of a local corpus
  --store URL     retrieve from a PostgreSQL store (postgres://…, or GROUNDWIRE_STORE; groundwire corpus load)
  --json [FILE]   write the transcript (with stats) as JSON to FILE, or to stdout
                  (bare --json or --json -: JSON only on stdout, the moot's text on stderr).
                  If the model fails mid-moot, the turns already spoken are written,
                  marked "incomplete", exit 1.
  --strict-citations
                  also fail (and retry) a turn whose quote is tagged with a
                  passage that does not hold it (misattributed)
${progressHelp(18)}

With no base URL the embedded extractive synthesizer speaks (offline).
Model requests are retried on HTTP 429, 500, 502, 503 and 504 (after Retry-After), 3 attempts in all;
redirects are not followed; keys and credentials are redacted from every message.`;


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
  const misattributed = u.quotes.filter((q) => q.attribution === "misattributed");
  const wrong = misattributed.length ? ` · misattributed ${misattributed.length}` : "";
  const unchecked = g.quotesUnchecked ? ` · unchecked ${g.quotesUnchecked}` : "";
  lines.push(
    `    ${u.grounded ? "grounded" : "NOT grounded"} · quotes found ${g.quotesFound}/${g.quotesTotal}${other}${self}${wrong}${unchecked}` +
      `${g.tagsValid ? "" : " · invalid tags"}${u.attempts > 1 ? " · retried" : ""}`,
  );
  for (const q of misattributed) lines.push(`    misattributed "${q.text}" (tagged ${(q.cites ?? []).join(", ")})`);
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
  // every number says what it counts; a rate is named as one (n/a when nothing was counted)
  const rate = (x: number | null) => (x === null ? "rate n/a" : `rate ${x}`);
  return [
    "stats:",
    `  turns ${s.turns} · grounded ${s.groundedTurns} · retried ${s.retriedTurns} · tags valid ${s.tagsValidTurns} (${rate(s.tagsValidRate)}) · citing ${s.turnsCiting}`,
    `  own-book quotes found ${s.quotesFound}/${s.quotesTotal} (${rate(s.quoteFoundRate)}) · quotes per turn ${s.quotesPerTurn ?? "n/a"}`,
    `  other-book quotes valid ${s.otherQuotesFound}/${s.otherQuotesTotal} (${rate(s.otherQuoteValidRate)}) · own-turn quotes found ${s.selfQuotesFound}/${s.selfQuotesTotal}`,
    `  corrections: snapped ${s.quotesSnapped} · unquoted ${s.quotesUnquoted} · too short ${s.quotesTooShort}`,
    `  attribution: cited ${s.quotesCited} · misattributed ${s.quotesMisattributed} · uncited ${s.quotesUncited} (cited ${rate(s.quoteCitedRate)})`,
  ].join("\n");
}


const command: Command = {
  async run(rawArgs) {
    const args = jsonFlagArgs(rawArgs);
    const { values, positionals } = parseCommandArgs("moot", args, {
      topic: { type: "string" },
      turns: { type: "string" },
      k: { type: "string" },
      ...MODEL_OPTIONS,
      temperature: { type: "string" },
      ...CORPUS_OPTIONS,
      worker: { type: "string" },
      store: { type: "string" },
      json: { type: "string" },
      "strict-citations": { type: "boolean" },
      ...PROGRESS_OPTION,
    }, HELP);
    if (positionals.length !== 2) {
      throw new CliError(`moot: needs two book keys, got ${positionals.length} (see: groundwire books)`, 2);
    }
    const [keyA, keyB] = positionals as [string, string];
    const turns = integerOption("moot", "turns", values.turns, { fallback: 8, max: MAX_TURNS });
    const k = integerOption("moot", "k", values.k, { fallback: 6, max: MAX_K });
    // the chat completions range (0 to 2); decimal syntax only
    const temperature = numberOption("moot", "temperature", values.temperature, { fallback: 0.6, min: 0, max: 2 });
    if (keyA === keyB) throw new CliError(`moot: a moot needs two different books, got ${echo(keyA)} twice`, 2);
    const jsonPath = values.json !== undefined ? checkOutputPath(values.json, "moot: --json") : undefined;
    // `--json` bare or `-`: the transcript goes to stdout and everything for a human to stderr.
    const jsonToStdout = jsonPath === "-";
    const config = readModelConfig("moot", values);
    const progress = progressLine("moot", values.progress === true, values.quiet === true);
    const say = (text: string) => (jsonToStdout ? process.stderr : process.stdout).write(`${escapeTerminal(text)}\n`);

    if (values.worker !== undefined && localCorpus(values)) throw new CliError(`moot: give ${values.corpus !== undefined ? "--corpus" : "--books"} or --worker, not both`, 2);
    let corpus: WorkerClient;
    if (values.worker !== undefined) {
      if (!/^https?:\/\/[^\s]+$/.test(values.worker)) throw new CliError(`moot: --worker must be an http(s) URL, got ${echo(values.worker)}`, 2);
      // the worker says which books it holds: an unknown key fails on the first retrieval (HTTP 404)
      corpus = createHttpWorkerClient({ baseUrl: values.worker, headers: process.env.GROUNDWIRE_TOKEN ? { authorization: `Bearer ${process.env.GROUNDWIRE_TOKEN}` } : undefined });
    } else {
      oneLibrary("moot", values.corpus, values.store, values.books);
      const dirs = corpusDirs("moot", values.corpus, values.books);
      const stored = !localCorpus(values) ? await openCliCorpus("moot", values.store) : null;
      try {
        progress.step("loading the corpus…");
        const local = stored ? stored.corpus : loadCorpus(dirs);
        progress.done();
        local.resolve(keyA);
        local.resolve(keyB);
        corpus = local;
      } catch (error) {
        progress.done();
        throw new CliError(`moot: ${(error as Error).message}`, error instanceof UnknownBookError ? 2 : 1);
      }
    }

    let synth: TextSynthesizer;
    let endpoint: OpenAICompatibleSynthesizer | null = null;
    let header: string | null;
    if (config.baseUrl) {
      endpoint = createModelSynthesizer(config);
      synth = withWaitNotice(endpoint, "moot", endpoint.url);
      header = `moot: model ${config.model ?? "(endpoint default)"} at ${redactUrl(config.baseUrl)}`;
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
    // The model a transcript records: the one asked for, else the id the endpoint reported (never its URL).
    const transcriptDict = (transcript: Transcript) => {
      const dict = transcript.toDict();
      if (endpoint) dict.model = config.model ?? endpoint.reportedModel ?? "";
      return dict;
    };
    const writeTranscript = (dict: object) => {
      const text = `${JSON.stringify(dict, null, 2)}\n`;
      if (jsonPath) writeOutput(jsonPath, text);
    };

    const moot = new Moot(corpus, synth, [keyA, keyB], values.topic ?? null, turns, {
      k,
      model: config.model,
      modelName: config.baseUrl ? (config.model ?? "") : "extractive",
      temperature,
      strictCitations: values["strict-citations"] === true,
    });
    try {
      const transcript = await moot.start();
      while (!moot.done) {
        progress.step(`turn ${(moot.transcript?.utterances.length ?? 0) + 1} of ${turns}…`);
        const u = await moot.nextTurn();
        progress.done();
        showHeader();
        // A rolling summary is rebuilt before the turn that just spoke: show it where it was made.
        for (const s of transcript.summaries) if (s.beforeTurn === u.turn) say(`\nsummary before turn ${s.beforeTurn}: ${s.text}`);
        say(`\n${formatUtterance(u)}`);
      }
      showHeader();
      say(`\n${formatStats(transcript.stats())}`);
      if (jsonPath) {
        writeTranscript(transcriptDict(transcript));
        if (!jsonToStdout) say(`transcript written to ${jsonPath}`);
      }
    } catch (error) {
      progress.done();
      if (error instanceof SynthesizerError || error instanceof MootError || error instanceof WorkerError) {
        const where = error instanceof EmptyReplyError && config.baseUrl ? ` (endpoint ${redactUrl(config.baseUrl)})` : "";
        const hint = error instanceof SynthesizerError && error.failure === "timeout" ? " (wait longer with --timeout, e.g. 300s, or GROUNDWIRE_TIMEOUT)" : "";
        const message = `${error.message}${where}${hint}`;
        // The turns already spoken are kept: written marked incomplete, with the error.
        const spoken = moot.transcript?.utterances.length ?? 0;
        if (moot.transcript && spoken > 0 && jsonPath) {
          writeTranscript({ ...transcriptDict(moot.transcript), incomplete: true, error: message });
          if (!jsonToStdout) process.stderr.write(`moot: incomplete transcript (${spoken} of ${turns} turns) written to ${escapeMessage(jsonPath)}\n`);
        }
        throw new CliError(`moot: ${message}`);
      }
      throw error;
    }
    return 0;
  },
};
export default command;
