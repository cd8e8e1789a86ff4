/**
 * The PostgreSQL store measured (not a timed test): `npm run bench:store` (builds first), or
 * `npx tsx bench/store.ts [--books DIR]... [--quotes N] [--scale 10,100,1000]`.
 *
 * Needs a database: GROUNDWIRE_STORE (or GROUNDWIRE_TEST_PG_URL) naming one it may fill, else a
 * throwaway cluster is started when PostgreSQL is installed (test/store/pg-cluster.ts).
 *
 * - load: `corpus load` of each books folder (the bundled data/books, and ../shared/data/books
 *   when present): time, passages, database size; a second load (nothing written).
 * - recall@6: quotes drawn from the books (an 8–20-word window of a passage, seeded), asked of
 *   both engines (embedded MiniSearch, PostgreSQL full-text search) with k = 6 on the quote's book:
 *   the share whose passage is among the hits.
 * - locate recall: quotes with 0–3 word edits (substitution, deletion, insertion); for each
 *   quote the exhaustive locate (createQuoteIndex over every book, ratio ≥ 0.8) and the store's
 *   (trigram candidates, then the exact index): the share of exhaustive spans the store also finds.
 * - scale (--scale): the books copied under distinct keys to 10/100/1,000 books: load time,
 *   database size, retrieval p50/p99, locate per quote.
 */
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { initNodeStart } from "../ts/node-start.js";
import { loadBooks } from "../ts/moot/corpus-node.js";
import { createQuoteIndex } from "../ts/match/index.js";
import { createEmbeddedCorpus, type Book } from "../ts/moot/retrieval.js";
import { words } from "../ts/match/index.js";
import { openStore, type Store } from "../ts/store/pg.js";
import { createStoreCorpus, loadLibrary, locateInStore, q } from "../ts/store/pg-library.js";
import { mulberry32 } from "../test/prng.js";
import { postgresBin, startTestCluster } from "../test/store/pg-cluster.js";
import { call, startServer } from "../test/server/serve-process.js";
import { readFileSync } from "node:fs";

/** A replica's resident set: `serve --store` or `serve --corpus` (dist/cli.js) after 300 queries spread over every book, MB. */
async function replicaRss(args: string[], keys: readonly string[]): Promise<number> {
  const server = await startServer(args);
  try {
    for (let i = 0; i < 300; i++) await call(server.url, "POST", "/query", { text: "the fire of the city and the night", corpus: keys[i % keys.length]!, k: 6 });
    return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${server.child.pid}/status`, "utf8"))![1]) / 1024;
  } finally {
    await server.stop();
  }
}

const { values } = parseArgs({
  args: process.argv.slice(2),
  options: { "scale-only": { type: "boolean" }, books: { type: "string", multiple: true }, quotes: { type: "string" }, scale: { type: "string" }, "locate-quotes": { type: "string" } },
});
const ROOT = new URL("..", import.meta.url).pathname;
const dirs = values.books?.map((d) => resolve(d)) ?? [join(ROOT, "data/books"), join(ROOT, "../shared/data/books")].filter((d) => existsSync(d));
const QUOTES = Number(values.quotes ?? 300);
const LOCATE_QUOTES = Number(values["locate-quotes"] ?? 60);
/** Quotes (10–20 words, one edit) located at each scale. */
const LOCATE_SCALE_QUOTES = 40;

/** A quote drawn from a passage: `n` consecutive words of it, as written. */
function drawQuote(book: Book, rand: () => number, min = 8, max = 20): { quote: string; node_id: string } | null {
  for (let tries = 0; tries < 20; tries++) {
    const p = book.passages[Math.floor(rand() * book.passages.length)]!;
    const ws = words(p.content);
    if (ws.length < min) continue;
    const n = Math.min(ws.length, min + Math.floor(rand() * (max - min + 1)));
    const at = Math.floor(rand() * (ws.length - n + 1));
    return { quote: p.content.slice(ws[at]!.start, ws[at + n - 1]!.end), node_id: p.node_id };
  }
  return null;
}

/** `edits` random word edits (substitute a word by another of the book, delete one, insert one). */
function editQuote(quote: string, edits: number, vocabulary: string[], rand: () => number): string {
  const ws = words(quote).map((w) => quote.slice(w.start, w.end));
  for (let e = 0; e < edits; e++) {
    const kind = Math.floor(rand() * 3);
    const at = Math.floor(rand() * ws.length);
    const other = vocabulary[Math.floor(rand() * vocabulary.length)]!;
    if (kind === 0) ws[at] = other;
    else if (kind === 1 && ws.length > 4) ws.splice(at, 1);
    else ws.splice(at, 0, other);
  }
  return ws.join(" ");
}

async function dbSize(store: Store): Promise<number> {
  return Number((await q<{ s: string }>(store, "SELECT pg_database_size(current_database()) AS s")).rows[0]!.s);
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
};

async function main() {
  await initNodeStart();
  let cluster: { url: string; stop(): void } | null = null;
  let url = process.env.GROUNDWIRE_STORE ?? process.env.GROUNDWIRE_TEST_PG_URL;
  if (!url) {
    const bin = postgresBin();
    if (!bin) {
      console.log("bench/store: skipped: no PostgreSQL (set GROUNDWIRE_STORE or install postgresql)");
      return;
    }
    cluster = await startTestCluster(bin);
    url = cluster.url;
  }
  const store = await openStore(url);
  try {
    await q(store, "DELETE FROM groundwire.books");
    const books: Book[] = [];
    for (const dir of dirs) {
      const t0 = performance.now();
      const first = await loadLibrary(store, dir);
      const second = await loadLibrary(store, dir);
      const size = await dbSize(store);
      console.log(
        `load ${dir}: ${first.loaded.length} books, ${first.passages} passages, ${(first.bytes / 1e6).toFixed(1)} MB in ${(first.ms / 1000).toFixed(2)} s; ` +
          `again: ${second.loaded.length} loaded, ${second.unchanged.length} unchanged in ${(second.ms / 1000).toFixed(2)} s; database ${(size / 1e6).toFixed(1)} MB (${((performance.now() - t0) / 1000).toFixed(1)} s)`,
      );
      for (const b of loadBooks(dir)) if (!books.some((x) => x.key === b.key)) books.push(b);
      else books[books.findIndex((x) => x.key === b.key)] = b;
    }
    const embedded = createEmbeddedCorpus(books);
    const stored = await createStoreCorpus(store);

    const vocabulary = [...new Set(books.flatMap((b) => b.passages.slice(0, 50).flatMap((p) => words(p.content).map((w) => p.content.slice(w.start, w.end)))))];
    if (!values["scale-only"]) {
    // recall@6, per book and in all
    const rand = mulberry32(31);
    const perBook = QUOTES / books.length;
    const rows: string[] = [];
    let allE = 0, allP = 0, all = 0;
    const latencies: number[] = [];
    for (const book of books) {
      let e = 0, p = 0, n = 0;
      for (let i = 0; i < perBook; i++) {
        const drawn = drawQuote(book, rand);
        if (!drawn) continue;
        n++;
        const he = await embedded.query(drawn.quote, { corpus: book.key, k: 6 });
        const t = performance.now();
        const hp = await stored.query(drawn.quote, { corpus: book.key, k: 6 });
        latencies.push(performance.now() - t);
        if (he.hits.some((h) => h.node_id === drawn.node_id)) e++;
        if (hp.hits.some((h) => h.node_id === drawn.node_id)) p++;
      }
      rows.push(`| ${book.key} | ${book.passages.length} | ${n} | ${((100 * e) / n).toFixed(1)} % | ${((100 * p) / n).toFixed(1)} % |`);
      allE += e; allP += p; all += n;
    }
    console.log("\nrecall@6 of quotes drawn from the books (8–20 words of one passage)\n");
    console.log("| book | passages | quotes | embedded (MiniSearch BM25+) | PostgreSQL (ts_rank_cd) |\n|---|---|---|---|---|");
    for (const r of rows) console.log(r);
    console.log(`| all | | ${all} | ${((100 * allE) / all).toFixed(1)} % | ${((100 * allP) / all).toFixed(1)} % |`);
    console.log(`PostgreSQL retrieval: p50 ${pct(latencies, 50).toFixed(1)} ms, p99 ${pct(latencies, 99).toFixed(1)} ms`);

    // locate recall per edit count
    const exhaustive = createQuoteIndex(books);
    console.log("\nlocate recall vs exhaustive (ratio ≥ 0.8): spans of the exhaustive search the store also finds\n");
    console.log("| edits | quotes | exhaustive spans | found by the store | recall | store ms/quote (p50) | exhaustive ms/quote (p50) |\n|---|---|---|---|---|---|---|");
    const lrand = mulberry32(3100);
    for (let edits = 0; edits <= 3; edits++) {
      let spans = 0, found = 0, quotes = 0;
      const ts: number[] = [], te: number[] = [];
      for (let i = 0; i < LOCATE_QUOTES; i++) {
        const book = books[Math.floor(lrand() * books.length)]!;
        const drawn = drawQuote(book, lrand, 10, 20);
        if (!drawn) continue;
        const quote = editQuote(drawn.quote, edits, vocabulary, lrand);
        let t = performance.now();
        const want = exhaustive.locate(quote, { minRatio: 0.8 });
        te.push(performance.now() - t);
        t = performance.now();
        const got = await locateInStore(store, quote, { minRatio: 0.8 });
        ts.push(performance.now() - t);
        quotes++;
        for (const w of want) {
          spans++;
          if (got.some((g) => g.source === w.source && g.start === w.start && g.end === w.end)) found++;
        }
      }
      console.log(`| ${edits} | ${quotes} | ${spans} | ${found} | ${spans ? ((100 * found) / spans).toFixed(1) : "-"} % | ${pct(ts, 50).toFixed(0)} | ${pct(te, 50).toFixed(0)} |`);
    }
    }
    stored.close();

    // scale-up: the same books under distinct keys
    if (values.scale) {
      console.log("\nscale: the books above copied under distinct keys (symlinks named <genre>__<book>-cN.txt)\n");
      console.log("| books | engine | load s | database MB | retrieval p50 ms | p99 ms | locate ms/quote p50 / p90 / worst | replica RSS MB |\n|---|---|---|---|---|---|---|---|");
      // one file per book name (a later folder's copy wins)
      const byName = new Map<string, string>();
      for (const d of dirs) for (const f of readdirSync(d).filter((f) => f.endsWith(".txt") && f.includes("__"))) byName.set(f, join(d, f));
      const files = [...byName.values()];
      for (const n of values.scale.split(",").map(Number)) {
        await q(store, "DELETE FROM groundwire.books");
        // the database's size is then the library's, not the dead rows of the runs before
        await q(store, "VACUUM FULL groundwire.books, groundwire.passages, groundwire.passage_windows");
        const tmp = mkdtempSync(join(tmpdir(), "gw-scale-"));
        const keys: string[] = [];
        const t0 = performance.now();
        for (let i = 0; i < n; i++) {
          const src = files[i % files.length]!;
          const base = src.replace(/^.*\//, "").replace(/\.txt$/, "");
          const name = `${base}-c${Math.floor(i / files.length)}`;
          symlinkSync(src, join(tmp, `${name}.txt`));
          if (existsSync(src.replace(/\.txt$/, ".entries.json"))) symlinkSync(src.replace(/\.txt$/, ".entries.json"), join(tmp, `${name}.entries.json`));
          keys.push(name.replace("__", "/"));
        }
        const load = await loadLibrary(store, tmp, (done, total) => {
          if (done % 50 === 0 || done === total) console.error(`scale ${n}: ${done}/${total} books loaded in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
        });
        const size = await dbSize(store);
        const corpus = await createStoreCorpus(store);
        const r = mulberry32(n);
        const asked: Array<{ key: string; quote: string }> = [];
        for (let i = 0; i < 200; i++) {
          const key = keys[Math.floor(r() * keys.length)]!;
          const book = books.find((b) => key.startsWith(`${b.key}-c`));
          if (book) asked.push({ key, quote: drawQuote(book, r)!.quote });
        }
        const located: string[] = [];
        for (let i = 0; i < LOCATE_SCALE_QUOTES; i++) {
          const book = books[Math.floor(r() * books.length)]!;
          located.push(editQuote(drawQuote(book, r, 10, 20)!.quote, 1, vocabulary, r));
        }
        const lat: number[] = [];
        for (const a of asked) {
          const t = performance.now();
          await corpus.query(a.quote, { corpus: a.key, k: 6 });
          lat.push(performance.now() - t);
        }
        const loc: number[] = [];
        for (const quote of located) {
          const t = performance.now();
          await locateInStore(store, quote, { minRatio: 0.8, limit: 10 });
          loc.push(performance.now() - t);
        }
        corpus.close();
        const withDist = existsSync(new URL("../dist/cli.js", import.meta.url));
        const rss = withDist ? (await replicaRss(["--store", url], keys)).toFixed(0) : "- (no dist/)";
        const ms = (xs: number[]) => `${pct(xs, 50).toFixed(0)} / ${pct(xs, 90).toFixed(0)} / ${Math.max(...xs).toFixed(0)}`;
        console.log(`| ${n} | PostgreSQL | ${(load.ms / 1000).toFixed(1)} | ${(size / 1e6).toFixed(0)} | ${pct(lat, 50).toFixed(1)} | ${pct(lat, 99).toFixed(1)} | ${ms(loc)} | ${rss} |`);
        // the embedded engine on the same books, while they fit its cap: built in this process, its RSS a `serve --corpus` replica's
        const bytes = readdirSync(tmp).filter((f) => f.endsWith(".txt")).reduce((sum, f) => sum + statSync(join(tmp, f)).size, 0);
        if (bytes <= 64 * 2 ** 20) {
          const copies = keys.map((key) => ({ ...books.find((b) => key.startsWith(`${b.key}-c`))!, key }));
          let t = performance.now();
          const embeddedScale = createEmbeddedCorpus(copies);
          const index = createQuoteIndex(copies);
          const built = performance.now() - t;
          const elat: number[] = [];
          for (const a of asked) {
            t = performance.now();
            await embeddedScale.query(a.quote, { corpus: a.key, k: 6 });
            elat.push(performance.now() - t);
          }
          const eloc: number[] = [];
          for (const quote of located) {
            t = performance.now();
            index.locate(quote, { minRatio: 0.8, limit: 10 });
            eloc.push(performance.now() - t);
          }
          const erss = withDist ? (await replicaRss(["--corpus", tmp], keys)).toFixed(0) : "- (no dist/)";
          console.log(`| ${n} | embedded | ${(built / 1000).toFixed(1)} (index build) | - | ${pct(elat, 50).toFixed(1)} | ${pct(elat, 99).toFixed(1)} | ${ms(eloc)} | ${erss} |`);
        } else console.log(`| ${n} | embedded | - | - | - | - | - | - (${(bytes / 1e6).toFixed(0)} MB of text, over the 64 MiB cap) |`);
        rmSync(tmp, { recursive: true, force: true });
      }
    }
  } finally {
    await store.close();
    cluster?.stop();
  }
}

await main();
