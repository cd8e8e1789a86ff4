/**
 * `groundwire books [--corpus DIR] [--json]`: list the corpus keys with their
 * titles, authors and passage counts.
 */
import { loadCorpus } from "../moot/corpus-node.js";
import { CliError, parseCommandArgs, type Command } from "./common.js";
import { corpusDir } from "./corpus-dir.js";

const HELP = `usage: groundwire books [--corpus DIR] [--json]

Lists the books a moot can use: key (<genre>/<book>), title, author, passages.
  --corpus DIR  folder of <genre>__<book>.txt files (default: the bundled data/books)
  --json        print JSON instead of a table`;

const command: Command = {
  async run(args) {
    const { values, positionals } = parseCommandArgs("books", args, {
      corpus: { type: "string" },
      json: { type: "boolean" },
    }, HELP);
    if (positionals.length) throw new CliError(`books: unexpected argument ${JSON.stringify(positionals[0])}`, 2);
    let books;
    try {
      books = loadCorpus(corpusDir(values.corpus)).books();
    } catch (error) {
      throw new CliError(`books: ${(error as Error).message}`);
    }
    if (values.json) {
      console.log(JSON.stringify(books, null, 2));
      return 0;
    }
    const width = Math.max(...books.map((b) => b.key.length));
    for (const b of books) {
      console.log(`${b.key.padEnd(width)}  ${b.title}${b.author ? ` — ${b.author}` : ""} (${b.passages} passages)`);
    }
    return 0;
  },
};
export default command;
