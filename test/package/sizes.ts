/**
 * What a page pays for each part (issue 16 item 4, issue 36). Each page is a one-line app that
 * imports a few names from "groundwire" (the built package, resolved through its own exports map
 * with the "browser" condition) and calls them; esbuild bundles it for the browser, minified,
 * with code splitting. A page's size is its first load: its entry file plus every file it
 * imports statically, each gzipped (level 9) on its own — what a browser downloads before the
 * page runs. What the page may download later, behind a dynamic `import()` reachable from that
 * code (the WASM modules' bytes and bestSpan's pre-pass at their first use: bindings/deferred.ts;
 * rdf-canonize, the @noble/hashes fallback), is measured apart, the same way. The WASM modules
 * are inlined (hex), one per kernel family (scripts/build-wasm.mjs), each in a chunk of its own:
 * a page reaches those of the kernels it calls ({@link WASM_MODULES}), no other, and carries none
 * in its first load.
 *
 * The figures and budgets are the table in docs/package.md (between the size-table
 * markers): each page's first load must stay within its budget, the table must show the measured
 * sizes (to within 1 KB: small edits need no table update), and the pages of bestSpan and the
 * fingerprint must not contain the SPARQL parser, the SHACL stack, oxigraph or the
 * markdown parser (nor, for bestSpan, N3.js; nor, for the store-free fingerprint
 * (`parseQuads` + `fingerprintQuads`), N3.js's Store and the stream polyfills it brings).
 * The table's last column names the WASM modules each page reaches, as measured.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { build, type Metafile } from "esbuild";
import { ROOT, requireBuild } from "./support.js";

/** The pages: name → the app's code. Keep in step with the table in docs/package.md. */
export const PAGES: Record<string, string> = {
  "bestSpan only": `import { bestSpan } from "groundwire"; console.log(bestSpan("the old mill", ["old mill stood by the river"]));`,
  "fingerprint only": `import { parseQuads, fingerprintQuads } from "groundwire"; console.log(fingerprintQuads(parseQuads("<urn:a> <urn:b> <urn:c> .")));`,
  "graph + fingerprint": `import { parseGraph, fingerprintGraph } from "groundwire"; console.log(fingerprintGraph(parseGraph("<urn:a> <urn:b> <urn:c> .")));`,
  "triple index + critique": `import { parseGraph, buildTripleIndex, renderListing, applyCritique } from "groundwire"; const g = parseGraph("<urn:a> <urn:b> <urn:c> ."); const i = buildTripleIndex(g); console.log(renderListing(i), applyCritique(g, i, [{ op: "remove", tripleIds: [1] }]));`,
  "kernel (SPARQL check)": `import { parseGraph, Schema, createKernel } from "groundwire"; const k = createKernel(Schema.fromGraph(parseGraph(""))); console.log(k.check("SELECT * WHERE { ?s ?p ?o }"));`,
  "MemDSL render": `import { parseGraph, assembleNeighborhood, renderNeighborhood, serializeEnvelope } from "groundwire"; console.log(assembleNeighborhood, renderNeighborhood, serializeEnvelope, parseGraph);`,
  "evidence (markdown fragments)": `import { fragmentMarkdown, citationStatus } from "groundwire"; console.log(fragmentMarkdown("a", "# x"), citationStatus);`,
  "moot (in-browser)": `import { runMoot, createEmbeddedCorpus, createExtractiveSynthesizer, parseBook } from "groundwire"; console.log(runMoot, createEmbeddedCorpus, createExtractiveSynthesizer, parseBook);`,
  "everything": `import * as groundwire from "groundwire"; console.log(groundwire);`,
};

/**
 * The WASM modules each page reaches (bindings/wasm-<name>.generated.js among the files its code
 * may load): bestSpan calls the match module only, the fingerprint none (its listing is TS there),
 * a graph's fingerprint and the triple index the listing module, the SPARQL check the closure
 * module, citationStatus the suggest module (its suggestions' LCS bound), the moot bestSpan's.
 */
export const WASM_MODULES: Record<string, string[]> = {
  "bestSpan only": ["match"],
  "fingerprint only": [],
  "graph + fingerprint": ["listing"],
  "triple index + critique": ["listing"],
  "kernel (SPARQL check)": ["closure"],
  "MemDSL render": [],
  "evidence (markdown fragments)": ["suggest"],
  "moot (in-browser)": ["match"],
  "everything": ["closure", "listing", "match", "suggest"],
};

/** The WASM modules among a page's inputs, sorted by name. */
export function wasmModulesOf(inputs: readonly string[]): string[] {
  return inputs.flatMap((i) => /dist\/bindings\/wasm-(\w+)\.generated\.js$/.exec(i)?.[1] ?? []).sort();
}

/** Packages a page may not carry, by page. */
export const MUST_NOT_CARRY: Record<string, RegExp[]> = {
  "bestSpan only": [/node_modules\/@traqula\//, /node_modules\/rdf-validate-shacl\//, /node_modules\/oxigraph\//, /dist\/vendor\/markdown\.js/, /node_modules\/n3\//, /node_modules\/minisearch\//],
  "fingerprint only": [/node_modules\/@traqula\//, /node_modules\/rdf-validate-shacl\//, /node_modules\/oxigraph\//, /dist\/vendor\/markdown\.js/, /node_modules\/minisearch\//, /node_modules\/n3\/src\/N3Store\.js/, /node_modules\/readable-stream\//, /node_modules\/buffer\//, /node_modules\/zod\//],
  "graph + fingerprint": [/node_modules\/@traqula\//, /node_modules\/rdf-validate-shacl\//, /node_modules\/oxigraph\//, /dist\/vendor\/markdown\.js/, /node_modules\/minisearch\//],
};

export interface PageSize {
  /** The first load (entry and its static imports): minified and gzipped. */
  minKB: number;
  gzipKB: number;
  /** The source files in the first load. */
  inputs: string[];
  /** What the page's code may load later, behind a dynamic import(): gzipped, and its source files. */
  laterGzipKB: number;
  laterInputs: string[];
}

/** Bundle one page and measure it (see the module comment). */
export async function measurePage(code: string): Promise<PageSize> {
  const r = await build({
    stdin: { contents: code, resolveDir: ROOT, loader: "js", sourcefile: "page.js" },
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "browser",
    minify: true,
    write: false,
    outdir: join(ROOT, "build", "size-pages"),
    metafile: true,
    logLevel: "silent",
  });
  const meta: Metafile = r.metafile;
  // the page's own file (esbuild makes every import() it meets an entry point too, reached or not)
  const entry = Object.keys(meta.outputs).find((o) => meta.outputs[o].entryPoint === "page.js")!;
  /** The outputs reachable from `roots` by static imports (and dynamic ones too when `dynamic`). */
  const reach = (roots: readonly string[], dynamic: boolean) => {
    const seen = new Set<string>();
    const visit = (o: string) => {
      if (seen.has(o)) return;
      seen.add(o);
      for (const i of meta.outputs[o].imports) if (i.kind === "import-statement" || (dynamic && i.kind === "dynamic-import")) visit(i.path);
    };
    for (const o of roots) visit(o);
    return seen;
  };
  const first = reach([entry], false);
  const later = new Set([...reach([entry], true)].filter((o) => !first.has(o)));
  const measure = (files: Set<string>) => {
    let min = 0, gz = 0;
    const inputs = new Set<string>();
    for (const f of r.outputFiles) {
      const rel = f.path.slice(ROOT.length);
      if (!files.has(rel)) continue;
      min += f.contents.length;
      gz += gzipSync(f.contents, { level: 9 }).length;
      for (const [input, v] of Object.entries(meta.outputs[rel].inputs)) if (v.bytesInOutput > 0) inputs.add(input);
    }
    return { minKB: min / 1024, gzipKB: gz / 1024, inputs: [...inputs] };
  };
  const now = measure(first);
  const after = measure(later);
  return { minKB: now.minKB, gzipKB: now.gzipKB, inputs: now.inputs, laterGzipKB: after.gzipKB, laterInputs: after.inputs };
}

/** One row of the size table: first load (minified, gzip), its budget, what may load later (gzip), the WASM modules reached. */
export interface SizeRow {
  minKB: number;
  gzipKB: number;
  budgetKB: number;
  laterGzipKB: number;
  wasm: string[];
}

/** The size table of docs/package.md, page → its row. */
export function sizeTable(): Map<string, SizeRow> {
  const doc = readFileSync(join(ROOT, "docs/package.md"), "utf8");
  const a = doc.indexOf("<!-- size-table -->");
  const b = doc.indexOf("<!-- /size-table -->");
  if (a < 0 || b < a) throw new Error("docs/package.md has no <!-- size-table --> … <!-- /size-table --> block");
  const rows = new Map<string, SizeRow>();
  for (const line of doc.slice(a, b).split("\n")) {
    const cells = line.split("|").map((c) => c.trim());
    if (cells.length < 8 || !/^[\d.]+ KB$/.test(cells[3] ?? "")) continue;
    const wasm = cells[7] === "none" ? [] : cells[7].split(",").map((c) => c.trim()).sort();
    rows.set(cells[1], {
      minKB: Number.parseFloat(cells[2]), gzipKB: Number.parseFloat(cells[3]), budgetKB: Number.parseFloat(cells[4]),
      laterGzipKB: Number.parseFloat(cells[5]), wasm,
    });
  }
  return rows;
}

/** The self-contained browser file `dist/browser/groundwire.js`: its size in MB (MiB) and gzipped (level 9) in KB. */
export function browserFileSize(): { mb: number; gzipKB: number } {
  const bytes = readFileSync(join(ROOT, "dist/browser/groundwire.js"));
  return { mb: bytes.length / 1024 / 1024, gzipKB: gzipSync(bytes, { level: 9 }).length / 1024 };
}

/** What docs/package.md says of `dist/browser/groundwire.js`: "…, 1.48 MB, 455 KB gzipped". */
export function browserFileClaim(): { mb: number; gzipKB: number } {
  const doc = readFileSync(join(ROOT, "docs/package.md"), "utf8");
  const m = /`dist\/browser\/groundwire\.js` \| one self-contained ES module \(deps bundled with browser conditions, ([\d.]+) MB, ([\d.]+) KB gzipped/.exec(doc);
  if (!m) throw new Error("docs/package.md: the row of dist/browser/groundwire.js no longer states its size as \"…, N MB, N KB gzipped\"");
  return { mb: Number(m[1]), gzipKB: Number(m[2]) };
}

/** `npm run size:table`: print the rows of the docs/package.md table from a fresh measurement. */
if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split("/").pop()!)) {
  // Budgets are the table's own (docs/package.md): edit them there.
  const budgets = sizeTable();
  console.log("| page | minified | gzip | budget (gzip) | later, behind import() (gzip) | imports | WASM (reached) |\n|---|---|---|---|---|---|---|");
  for (const [name, code] of Object.entries(PAGES)) {
    const m = await measurePage(code);
    const imports = /import (\{[^}]*\}|\* as \w+)/.exec(code)![1].replace(/\s+/g, " ");
    const wasm = wasmModulesOf([...m.inputs, ...m.laterInputs]).join(", ") || "none";
    console.log(`| ${name} | ${m.minKB.toFixed(1)} KB | ${m.gzipKB.toFixed(1)} KB | ${budgets.get(name)?.budgetKB ?? "?"} KB | ${m.laterGzipKB.toFixed(1)} KB | \`${imports}\` | ${wasm} |`);
  }
  const file = browserFileSize();
  console.log(`\ndist/browser/groundwire.js (the row above the table): ${file.mb.toFixed(2)} MB, ${file.gzipKB.toFixed(0)} KB gzipped`);
}
