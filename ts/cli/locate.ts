/**
 * `groundwire locate "<quote>" [--book KEY] [--min-ratio R] [--limit N] [--timeout T] [--corpus DIR] [--json]`:
 * where a quote is from across the corpus — book, passage label(s), the span,
 * its ratio (difflib, as the grounding check computes it) and a word diff of
 * quote vs span. Built on createQuoteIndex (ts/match/quote-index/).
 */
import { loadBooks } from "../moot/corpus-node.js";
import { cacheDir, cachedQuoteIndex } from "./quote-index-cache.js";
import { progressHelp, PROGRESS_OPTION, progressLine } from "./progress.js";
import { closeKeys } from "../moot/index.js";
import { ArgumentError } from "../errors.js";
import { createQuoteIndex, LOCATE_MIN_RATIO, matchingBlocks, MAX_QUOTE_CHARS, MAX_QUOTE_WORDS, QuoteSearchTimeoutError, QuoteTooLongError, words, type LocatedSpan } from "../match/index.js";
import { CliError, echo, printLine, integerOption, numberOption, parseCommandArgs, type Command } from "./common.js";
import { durationOption } from "./units.js";
import { corpusHelp, CORPUS_OPTIONS, corpusDirs, localCorpus } from "./corpus-dir.js";
import { oneLibrary, openCliStore } from "./store-option.js";
import type { Store } from "../store/pg.js";

/** Default `--timeout` of `groundwire locate`, seconds: the search's time budget (the index build is not counted). */
export const LOCATE_TIMEOUT_SECONDS = 10;
/** Longest accepted `--timeout`, seconds (one hour). */
const MAX_LOCATE_TIMEOUT_SECONDS = 3600;

const HELP = `usage: groundwire locate "<quote>" [--book KEY] [--min-ratio R] [--limit N] [--timeout T] [--corpus DIR] [--books DIR]… [--cache-dir DIR | --no-cache] [--json | --jsonl]

Finds every span of the corpus whose words match the quote with a difflib ratio ≥ R
(the grounding check's measure), best first, overlapping spans left out. A quote has at
most ${MAX_QUOTE_WORDS} words and ${MAX_QUOTE_CHARS} characters.
  --book KEY       only this book (<genre>/<book>, see groundwire books)
  --min-ratio R    threshold in (0, 1] (default ${LOCATE_MIN_RATIO}); low ones cost much more
  --limit N        at most N spans (default 10)
  --timeout T      give up after T seconds (or 500ms, 2m) of searching, exit 1 (default ${LOCATE_TIMEOUT_SECONDS}; at most ${MAX_LOCATE_TIMEOUT_SECONDS})
${corpusHelp(19)}
  --cache-dir DIR  keep the corpus's quote index in DIR (default: $XDG_CACHE_HOME/groundwire, else
                   ~/.cache/groundwire), named by a hash of the books' bytes and the code: an unchanged
                   corpus answers without rebuilding it, a changed book builds and keeps a new one
  --no-cache       build the index in memory only, read and write no cache
${progressHelp(19)}
  --store URL      search the library of a PostgreSQL store (postgres://…, or GROUNDWIRE_STORE): candidate
                   passages from its trigram index, then this exact search on those only (not provably
                   complete: see docs/store.md, PostgreSQL store)
  --json           print JSON: [{source, passages, start, end, ratio, text, diff}]; start and end are
                   UTF-16 offsets into the book's .txt file as given (as books --passages --json gives)
  --jsonl          the same objects, one per line (nothing when no span is found)`;

/** A word diff of quote vs span over word keys (difflib matching blocks): `[-quote words-]{+span words+}`. */
export function wordDiff(quote: string, span: string): string {
  const qa = words(quote).map((w) => w.key);
  const sb = words(span).map((w) => w.key);
  const ids = new Map<string, number>();
  const id = (k: string) => ids.get(k) ?? (ids.set(k, ids.size), ids.size - 1);
  const a = qa.map(id);
  const b = sb.map(id);
  const out: string[] = [];
  let i = 0, j = 0;
  for (const [bi, bj, size] of matchingBlocks(a, b)) {
    if (i < bi) out.push(`[-${qa.slice(i, bi).join(" ")}-]`);
    if (j < bj) out.push(`{+${sb.slice(j, bj).join(" ")}+}`);
    if (size) out.push(qa.slice(bi, bi + size).join(" "));
    i = bi + size;
    j = bj + size;
  }
  return out.join(" ");
}

/** The most spans `--limit` may ask for. */
const MAX_LIMIT = 1_000_000;

const command: Command = {
  async run(args) {
    const { values, positionals } = parseCommandArgs("locate", args, {
      book: { type: "string" },
      "min-ratio": { type: "string" },
      limit: { type: "string" },
      timeout: { type: "string" },
      ...CORPUS_OPTIONS,
      store: { type: "string" },
      json: { type: "boolean" },
      jsonl: { type: "boolean" },
      "cache-dir": { type: "string" },
      "no-cache": { type: "boolean" },
      ...PROGRESS_OPTION,
    }, HELP);
    if (values.json && values.jsonl) throw new CliError("locate: --json and --jsonl are two output forms; give one", 2);
    if (positionals.length !== 1) throw new CliError(`locate: expected one quoted argument, got ${positionals.length}`, 2);
    const quote = positionals[0]!;
    if (!words(quote).length) throw new CliError("locate: the quote has no word to look for", 2);
    // any decimal number syntax (0.8, .8, 8e-1); not hex, Infinity or an empty string
    const minRatio = numberOption("locate", "min-ratio", values["min-ratio"], { fallback: LOCATE_MIN_RATIO, min: 0, max: 1, minExclusive: true });
    const limit = integerOption("locate", "limit", values.limit, { fallback: 10, max: MAX_LIMIT });
    const timeoutMs = durationOption("locate", "--timeout", values.timeout, { fallbackMs: LOCATE_TIMEOUT_SECONDS * 1000, bareUnit: "s", maxMs: MAX_LOCATE_TIMEOUT_SECONDS * 1000 });
    oneLibrary("locate", values.corpus, values.store, values.books);
    const dirs = corpusDirs("locate", values.corpus, values.books);
    const store = !localCorpus(values) ? await openCliStore("locate", values.store) : null;
    if (store) return locateStored(store, quote, { minRatio, limit, timeoutMs, book: values.book, json: values.json === true, jsonl: values.jsonl === true });
    if (values["cache-dir"] !== undefined && values["no-cache"]) throw new CliError("locate: give --cache-dir or --no-cache, not both", 2);
    const progress = progressLine("locate", values.progress === true, values.quiet === true);
    let index;
    try {
      index = cachedQuoteIndex(dirs, cacheDir(values["cache-dir"], values["no-cache"] === true), () => {
        progress.step(`loading the corpus (${dirs.length} folder${dirs.length === 1 ? "" : "s"})…`);
        const books = loadBooks(dirs);
        progress.step(`building the quote index of ${books.length} books (kept for the next call)…`);
        return createQuoteIndex(books);
      }).index;
    } catch (error) {
      throw new CliError(`locate: ${(error as Error).message}`);
    } finally {
      progress.done();
    }
    const keys = index.keys;
    if (values.book !== undefined && !keys.includes(values.book)) {
      // a usage error, as moot's unknown key: exit 2, with the nearest keys when any is close
      const close = closeKeys(values.book, keys);
      const hint = close.length ? `did you mean ${close.map((k) => JSON.stringify(k)).join(" or ")}?` : `books: ${keys.join(", ")}`;
      throw new CliError(`locate: no book ${echo(values.book)}; ${hint}`, 2);
    }
    let spans: LocatedSpan[];
    try {
      spans = index.locate(quote, { minRatio, limit, timeoutMs, source: values.book });
    } catch (error) {
      if (error instanceof QuoteSearchTimeoutError) {
        // a failure (exit 1), one line, nothing printed on stdout: no partial list looks complete
        const done = error.unit === "words" && error.total ? `${Math.floor((100 * error.searched) / error.total)} % of the ${error.total} words searched` : "still seeding";
        throw new CliError(
          `locate: gave up after ${(error.elapsedMs / 1000).toFixed(1)} s (--timeout ${timeoutMs / 1000}), ${done} at ratio ≥ ${+error.threshold.toFixed(3)}; ` +
          `no spans printed. Try a higher --min-ratio (now ${minRatio}), a lower --limit (now ${limit}) or a longer --timeout`,
        );
      }
      // a quote over the bound is a usage error (exit 2), as an argument out of range is
      throw new CliError(`locate: ${(error as Error).message}`, error instanceof QuoteTooLongError || error instanceof ArgumentError ? 2 : 1);
    }
    return printSpans(quote, spans, { json: values.json === true, jsonl: values.jsonl === true, minRatio, where: values.book ?? `${keys.length} books` });
  },
};
export default command;

/** `locate --store`: the store's candidates, then the exact search on them. */
async function locateStored(store: Store, quote: string, o: { minRatio: number; limit: number; timeoutMs: number; book?: string; json: boolean; jsonl: boolean }): Promise<number> {
  const { listBooks, locateInStore } = await import("../store/pg-library.js");
  try {
    const keys = (await listBooks(store)).map((b) => b.key);
    if (o.book !== undefined && !keys.includes(o.book)) {
      const close = closeKeys(o.book, keys);
      const hint = close.length ? `did you mean ${close.map((k) => JSON.stringify(k)).join(" or ")}?` : keys.length <= 10 ? `books: ${keys.join(", ")}` : `${keys.length} books (groundwire corpus list)`;
      throw new CliError(`locate: no book ${echo(o.book)}; ${hint}`, 2);
    }
    let spans: LocatedSpan[];
    try {
      spans = await locateInStore(store, quote, { minRatio: o.minRatio, limit: o.limit, book: o.book, timeoutMs: o.timeoutMs });
    } catch (error) {
      if (error instanceof QuoteSearchTimeoutError) throw new CliError(`locate: gave up after ${(error.elapsedMs / 1000).toFixed(1)} s (--timeout ${o.timeoutMs / 1000}); no spans printed`);
      throw error;
    }
    return printSpans(quote, spans, { json: o.json, jsonl: o.jsonl, minRatio: o.minRatio, where: o.book ?? `${keys.length} books` });
  } catch (error) {
    if (error instanceof CliError) throw error;
    throw new CliError(`locate: ${(error as Error).message}`, error instanceof ArgumentError ? 2 : 1);
  } finally {
    await store.close();
  }
}

/** Print the spans (text or JSON); exit 1 when there is none. */
function printSpans(quote: string, spans: LocatedSpan[], o: { json: boolean; jsonl: boolean; minRatio: number; where: string }): number {
  const minRatio = o.minRatio;
  {
    if (o.json || o.jsonl) {
      const rows = spans.map((s) => ({ source: s.source, passages: s.passages, start: s.start, end: s.end, ratio: s.ratio, text: s.text, diff: wordDiff(quote, s.text) }));
      if (o.jsonl) for (const row of rows) process.stdout.write(`${JSON.stringify(row)}\n`);
      else console.log(JSON.stringify(rows, null, 2));
      return spans.length ? 0 : 1;
    }
    if (!spans.length) {
      printLine(`no span with ratio ≥ ${minRatio} in ${o.where}`);
      return 1;
    }
    for (const s of spans) {
      printLine(`${s.source}  ${s.passages.join(", ") || "-"}  [${s.start}, ${s.end})  ratio ${s.ratio.toFixed(3)}`);
      printLine(`  “${s.text.replace(/\s+/g, " ")}”`);
      if (s.ratio < 1) printLine(`  diff: ${wordDiff(quote, s.text)}`);
    }
    return 0;
  }
}
