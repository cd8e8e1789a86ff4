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
import { existsSync, statSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { loadCorpus } from "../moot/corpus-node.js";
import { EmptyReplyError, MootError, runMoot, type MootStats, type Utterance } from "../moot/moot.js";
import { createHttpWorkerClient, UnknownBookError, WorkerError, type WorkerClient } from "../moot/retrieval.js";
import {
  createExtractiveSynthesizer,
  createOpenAICompatibleSynthesizer,
  SynthesizerError,
  type TextSynthesizer,
} from "../moot/synth.js";
import { CliError, parseCommandArgs, type Command } from "./common.js";
import { corpusDir } from "./corpus-dir.js";

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
  --worker URL    retrieve from a remote worker (groundwire serve) instead of a local corpus
  --json FILE     write the transcript (with stats) as JSON

With no base URL the embedded extractive synthesizer speaks (offline).`;

function positiveInt(name: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined) return fallback;
  if (!/^\s*\d+\s*$/.test(raw) || Number(raw) < 1) {
    throw new CliError(`moot: --${name} must be a whole number of at least 1, got ${JSON.stringify(raw)}`, 2);
  }
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
    const { values, positionals } = parseCommandArgs("moot", args, {
      topic: { type: "string" },
      turns: { type: "string" },
      k: { type: "string" },
      model: { type: "string" },
      "base-url": { type: "string" },
      temperature: { type: "string" },
      corpus: { type: "string" },
      worker: { type: "string" },
      json: { type: "string" },
    }, HELP);
    if (positionals.length !== 2) {
      throw new CliError(`moot: needs two book keys, got ${positionals.length} (see: groundwire books)`, 2);
    }
    const [keyA, keyB] = positionals as [string, string];
    const turns = positiveInt("turns", values.turns, 8);
    const k = positiveInt("k", values.k, 6);
    const temperature = values.temperature === undefined ? 0.6 : Number(values.temperature);
    if (!Number.isFinite(temperature) || temperature < 0) {
      throw new CliError(`moot: --temperature must be a number of at least 0, got ${JSON.stringify(values.temperature)}`, 2);
    }
    if (keyA === keyB) throw new CliError(`moot: a moot needs two different books, got ${JSON.stringify(keyA)} twice`, 2);
    const jsonPath = values.json ? resolve(values.json) : undefined;
    if (jsonPath && !(existsSync(dirname(jsonPath)) && statSync(dirname(jsonPath)).isDirectory())) {
      throw new CliError(`moot: cannot write ${jsonPath}: folder ${dirname(jsonPath)} does not exist`, 2);
    }
    const baseUrl = values["base-url"] ?? process.env.GROUNDWIRE_BASE_URL;
    const model = values.model ?? process.env.GROUNDWIRE_MODEL;
    if (values.model && !baseUrl) {
      throw new CliError("moot: --model needs a model endpoint: give --base-url URL (or set GROUNDWIRE_BASE_URL)", 2);
    }

    if (values.worker !== undefined && values.corpus !== undefined) throw new CliError("moot: give --corpus or --worker, not both", 2);
    let corpus: WorkerClient;
    if (values.worker !== undefined) {
      if (!/^https?:\/\/[^\s]+$/.test(values.worker)) throw new CliError(`moot: --worker must be an http(s) URL, got ${JSON.stringify(values.worker)}`, 2);
      // the worker says which books it holds: an unknown key fails on the first retrieval (HTTP 404)
      corpus = createHttpWorkerClient({ baseUrl: values.worker, headers: process.env.GROUNDWIRE_TOKEN ? { authorization: `Bearer ${process.env.GROUNDWIRE_TOKEN}` } : undefined });
    } else {
      try {
        const local = loadCorpus(corpusDir(values.corpus));
        local.resolve(keyA);
        local.resolve(keyB);
        corpus = local;
      } catch (error) {
        throw new CliError(`moot: ${(error as Error).message}`, error instanceof UnknownBookError ? 2 : 1);
      }
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
      header = "moot: no model configured (--base-url / GROUNDWIRE_BASE_URL); the embedded extractive synthesizer speaks, offline";
    }
    // The header heads the transcript: printed with the first utterance, so a moot that
    // fails before anyone speaks (an unreachable endpoint) leaves stdout empty.
    const showHeader = () => {
      if (header !== null) console.log(header);
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
          console.log(`\n${formatUtterance(u)}`);
        },
      });
      showHeader();
      console.log(`\n${formatStats(transcript.stats())}`);
      if (jsonPath) {
        writeFileSync(jsonPath, `${JSON.stringify(transcript.toDict(), null, 2)}\n`);
        console.log(`transcript written to ${jsonPath}`);
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
