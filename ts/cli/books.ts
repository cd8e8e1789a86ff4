/**
 * `groundwire books [--corpus DIR] [--passages KEY] [--json | --jsonl]`: list the corpus
 * keys with their titles, authors, structure and passage counts; with
 * `--passages KEY`, how that book was cut: each passage's label and first words.
 */
import { loadCorpus } from "../moot/corpus-node.js";
import { UnknownBookError } from "../moot/index.js";
import { CliError, echo, printLine, parseCommandArgs, type Command } from "./common.js";
import { corpusHelp, CORPUS_OPTIONS, corpusDirs, localCorpus } from "./corpus-dir.js";
import { oneLibrary, openCliCorpus } from "./store-option.js";
import { progressHelp, PROGRESS_OPTION, progressLine } from "./progress.js";

const HELP = `usage: groundwire books [--corpus DIR] [--books DIR]… [--passages KEY] [--json | --jsonl]

Lists the books a moot can use: key (<genre>/<book>), title, author, how the
book was cut (diary entries, verses, dictionary headwords, chapters, or plain
paragraph chunks) and its passage count.
${corpusHelp(18)}
  --store URL     the books of a PostgreSQL store instead (postgres://…, or GROUNDWIRE_STORE)
  --passages KEY  list one book's passages instead: label and first words, in order
  --json          print JSON instead of text
  --jsonl         one JSON object per line: {"type":"book",...} for each book (as --json's items);
                  with --passages, that book's line then {"type":"passage",...} each
${progressHelp(18)}`;

/** The first `n` words of a passage, with an ellipsis when there are more. */
function firstWords(text: string, n = 10): string {
  const ws = text.replace(/\s+/g, " ").trim().split(" ");
  return ws.length > n ? `${ws.slice(0, n).join(" ")} …` : ws.join(" ");
}

const command: Command = {
  async run(args) {
    const { values, positionals } = parseCommandArgs("books", args, {
      ...CORPUS_OPTIONS,
      store: { type: "string" },
      passages: { type: "string" },
      json: { type: "boolean" },
      jsonl: { type: "boolean" },
      ...PROGRESS_OPTION,
    }, HELP);
    if (values.json && values.jsonl) throw new CliError("books: --json and --jsonl are two output forms; give one", 2);
    if (positionals.length) throw new CliError(`books: unexpected argument ${echo(positionals[0])}`, 2);
    oneLibrary("books", values.corpus, values.store, values.books);
    const dirs = corpusDirs("books", values.corpus, values.books);
    const stored = !localCorpus(values) ? await openCliCorpus("books", values.store) : null;
    let corpus;
    const progress = progressLine("books", values.progress === true, values.quiet === true);
    try {
      progress.step("loading the corpus…");
      corpus = stored ? stored.corpus : loadCorpus(dirs);
    } catch (error) {
      throw new CliError(`books: ${(error as Error).message}`);
    } finally {
      progress.done();
    }
    if (values.passages !== undefined) {
      let book;
      try {
        const key = corpus.resolve(values.passages);
        book = stored ? (await stored.corpus.loadBook(key))! : corpus.book(key)!;
      } catch (error) {
        // an unknown key is a usage error, exit 2, as in moot
        throw new CliError(`books: ${(error as Error).message}`, error instanceof UnknownBookError ? 2 : 1);
      }
      if (values.json || values.jsonl) {
        const passages = book.passages.map((p) => ({
          name: p.name,
          label: p.label,
          ...(p.timestamp ? { timestamp: p.timestamp } : {}),
          ...(p.gregorianDate ? { gregorianDate: p.gregorianDate } : {}),
          start: p.start,
          end: p.end,
          firstWords: firstWords(p.content),
        }));
        if (values.jsonl) {
          // the book's line is the one `books --jsonl` prints for it: a "book" line has one shape
          const entry = corpus.books().find((b) => b.key === book.key) ?? { key: book.key, title: book.title, structure: book.structure };
          const lines = [{ type: "book", ...entry }, ...passages.map((p) => ({ type: "passage", ...p }))];
          process.stdout.write(lines.map((line) => `${JSON.stringify(line)}\n`).join(""));
        } else console.log(JSON.stringify({ key: book.key, title: book.title, structure: book.structure, passages }, null, 2));
        return 0;
      }
      printLine(`${book.key}: ${book.title} — ${book.passages.length} passages, cut by ${book.structure}`);
      const width = Math.min(40, Math.max(...book.passages.map((p) => p.label.length)));
      for (const p of book.passages) printLine(`${p.label.padEnd(width)}  ${firstWords(p.content)}`);
      return 0;
    }
    const books = corpus.books();
    if (values.jsonl) {
      // typed as every --jsonl line of index, fragments and books --passages is
      process.stdout.write(books.map((b) => `${JSON.stringify({ type: "book", ...b })}\n`).join(""));
      return 0;
    }
    if (values.json) {
      console.log(JSON.stringify(books, null, 2));
      return 0;
    }
    const width = Math.max(...books.map((b) => b.key.length));
    for (const b of books) {
      printLine(`${b.key.padEnd(width)}  ${b.title}${b.author ? ` — ${b.author}` : ""} (${b.passages} passages, ${b.structure})`);
    }
    return 0;
  },
};
export default command;
