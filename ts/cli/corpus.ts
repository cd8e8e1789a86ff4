/**
 * `groundwire corpus load DIR | list | remove KEY --store URL`: the library in PostgreSQL.
 * `load` cuts every `<genre>__<book>.txt` of DIR exactly as the embedded corpus does and
 * writes each book in one transaction, skipping the ones whose content is unchanged; a
 * progress bar on a terminal, a summary at the end.
 */
import { CliError, echo, escapeMessage, parseCommandArgs, printLine, type Command } from "./common.js";
import { cutText } from "../errors.js";
import { openCliStore } from "./store-option.js";

const HELP = `usage: groundwire corpus load DIR --store URL
       groundwire corpus list --store URL [--json]
       groundwire corpus remove KEY --store URL

The library of a PostgreSQL store (serve, mcp, moot, books and locate read it with --store).
  load DIR     cut every <genre>__<book>.txt of DIR (and its .entries.json) as the embedded
               corpus does and write each book in one transaction; a book whose file is
               unchanged (same content hash) is skipped, a changed one replaced whole
  list         the stored books: key, title, passages, language, size
  remove KEY   remove a book and its passages
  --store URL  postgres://… (or GROUNDWIRE_STORE)
  --json       print JSON`;

const command: Command = {
  async run(args) {
    const { values, positionals } = parseCommandArgs("corpus", args, { store: { type: "string" }, json: { type: "boolean" } }, HELP);
    const [action, arg, ...rest] = positionals;
    if (!action) throw new CliError("corpus: expected load DIR, list or remove KEY", 2);
    if (rest.length) throw new CliError(`corpus: unexpected argument ${echo(rest[0]!)}`, 2);
    const wantsArg = action === "load" || action === "remove";
    if (!["load", "list", "remove"].includes(action)) throw new CliError(`corpus: unknown action ${echo(action)}; expected load, list or remove`, 2);
    if (wantsArg && arg === undefined) throw new CliError(`corpus: ${action} needs ${action === "load" ? "a folder" : "a book key"}`, 2);
    if (!wantsArg && arg !== undefined) throw new CliError(`corpus: unexpected argument ${echo(arg)}`, 2);
    const store = await openCliStore("corpus", values.store);
    if (!store) throw new CliError("corpus: name the database with --store postgres://… (or GROUNDWIRE_STORE)", 2);
    const lib = await import("../store/pg-library.js");
    try {
      if (action === "list") {
        const books = await lib.listBooks(store);
        if (values.json) {
          console.log(JSON.stringify(books, null, 2));
          return 0;
        }
        if (!books.length) printLine("the store holds no book");
        const width = Math.max(0, ...books.map((b) => b.key.length));
        for (const b of books) printLine(`${b.key.padEnd(width)}  ${b.title} (${b.passages} passages, ${b.config}, ${(b.bytes / 1e6).toFixed(2)} MB)`);
        return 0;
      }
      if (action === "remove") {
        if (!(await lib.removeBook(store, arg!))) throw new CliError(`corpus: the store holds no book ${echo(arg!)}`);
        printLine(`removed ${arg}`);
        return 0;
      }
      const { resolve } = await import("node:path");
      const tty = process.stderr.isTTY && !values.quiet;
      const summary = await lib.loadLibrary(store, resolve(arg!), (done, total, key) => {
        if (!tty) return;
        const width = 30;
        const filled = Math.round((done / total) * width);
        process.stderr.write(`\r\x1b[K[${"#".repeat(filled)}${" ".repeat(width - filled)}] ${done}/${total} ${cutText(escapeMessage(key), 60)}`);
      });
      if (tty) process.stderr.write("\r\x1b[K");
      const line =
        `loaded ${summary.loaded.length} book${summary.loaded.length === 1 ? "" : "s"} (${summary.passages} passages, ${(summary.bytes / 1e6).toFixed(1)} MB), ` +
        `${summary.unchanged.length} unchanged, in ${(summary.ms / 1000).toFixed(1)} s`;
      if (values.json) console.log(JSON.stringify(summary, null, 2));
      else printLine(line);
      return 0;
    } catch (error) {
      // the progress bar's line is cleared before the error is written under it
      if (action === "load" && process.stderr.isTTY && !values.quiet) process.stderr.write("\r\x1b[K");
      if (error instanceof CliError) throw error;
      throw new CliError(`corpus: ${(error as Error).message}`);
    } finally {
      await store.close();
    }
  },
};
export default command;
