// Builds dist/ from ts/ (run by `npm run build` after the WASM is compiled and inlined).
//
//   dist/index.js (+ dist/<part>/*.js, dist/bindings/*.js, dist/deps/*.js)
//                     the browser-safe entry (exports "browser"/"default"), one file per source
//                     module (preserveModules) and deps external, so a consumer's bundler
//                     resolves and dedupes them and drops every module a page does not use
//                     (package.json "sideEffects" names the only files with side effects)
//   dist/vendor/markdown.js   the markdown parser stack (micromark + mdast, MIT) bundled with
//                     the DOM-free entity decoder: under a bundler's "browser" condition
//                     decode-named-character-reference resolves to a build that reads
//                     `document` at load, which fails in a Web Worker; this file is the one
//                     place dist/index.js carries third-party code (licences in
//                     dist/vendor/THIRD-PARTY-LICENSES.txt)
//   dist/node.js      the Node entry (exports "node"): ONE file with every module of ours it
//                     reaches statically (see entryChunk); dist/cli.js, the `groundwire`
//                     command (bin), with no static import at all; the command modules in
//                     dist/chunks/*; ts/deps/<name>.node.ts swapped in, so N3.js, Traqula,
//                     SHACL, the markdown parser, MiniSearch, fastest-levenshtein, zod and
//                     hash-wasm load at first use
//   dist/check-worker.js  the worker thread of serve's and mcp's check pool (piscina loads it
//                     by path: ts/server/pool.ts), importing from dist/node.js and the chunks
//   dist/index.d.ts   the bundled type declarations of the whole API, Node-only functions
//                     included (rollup-plugin-dts), for every resolution mode
//   dist/browser/groundwire.js        ONE self-contained ES module with every dependency
//                     bundled (browser conditions), for a plain <script type="module"> with no
//                     bundler and no import map; test/browser/ loads exactly this file. Built
//                     from ts/browser.ts: the browser-safe entry, giving at import the parts
//                     that entry defers (the WASM bytes, bestSpan's pre-pass), which one file
//                     carries anyway
//   build/modules.json  which source modules each output file holds (not packed): the
//                     no-inlined-node_modules check (test/package/dist.test.ts) reads it
//
// No source maps: the TypeScript sources are not packed, and a map of minified third-party
// code (the browser bundle's was 4.6 MB) helps no user debug.
//
// ESM only, no CommonJS build. The entries have no top-level await (workerd refuses it): the
// WASM core compiles at the first call (bindings/wasm.ts). CommonJS code can
// `await import("groundwire")` (Node >= 20.19 also `require`s it).
//
// The .wasm modules need no asset plugin: each is inlined as hex in bindings/wasm-<name>.generated.ts.
import { chmodSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { builtinModules, createRequire } from "node:module";
import { dirname, join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import esbuild from "rollup-plugin-esbuild";
import { nodeResolve } from "@rollup/plugin-node-resolve";
import commonjs from "@rollup/plugin-commonjs";
import dts from "rollup-plugin-dts";

const ROOT = dirname(fileURLToPath(import.meta.url));
const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"));
// the optional peers (the HTTP/MCP stack, pg) are imported, never bundled, like the dependencies
const deps = [...Object.keys(pkg.dependencies ?? {}), ...Object.keys(pkg.peerDependencies ?? {})];
const isBuiltin = (id) => id.startsWith("node:") || builtinModules.includes(id);
const isDep = (id) => deps.some((d) => id === d || id.startsWith(`${d}/`));
const external = (id) => isBuiltin(id) || isDep(id);
const DEPS_DIR = join(ROOT, "ts", "deps");
const VENDOR_MARKDOWN = join(ROOT, "dist", "vendor", "markdown.js");
const require = createRequire(import.meta.url);
/** decode-named-character-reference's DOM-free build (its "default" export condition). */
const DOM_FREE_DECODER = require.resolve("decode-named-character-reference"); // "default" condition: index.js

/**
 * dist/ holds only what this build writes: an earlier build's files (old chunks, old maps)
 * must never be packed. Runs once, before the first output is written.
 */
const cleanDist = {
  name: "groundwire-clean-dist",
  buildStart() {
    rmSync(join(ROOT, "dist"), { recursive: true, force: true });
  },
};

/**
 * The bin gets its executable bit as npm's install would give it, so `npx groundwire` in a
 * clone runs the fresh build (rollup writes files 0644).
 */
const executable = {
  name: "groundwire-executable-bin",
  writeBundle(options) {
    chmodSync(join(ROOT, options.file), 0o755);
  },
};

/** Records which source modules each output file holds, in build/modules.json (see the header). */
const manifest = new Map();
function recordModules(label) {
  return {
    name: "groundwire-record-modules",
    writeBundle(options, bundle) {
      const dir = options.dir ?? dirname(options.file);
      for (const [fileName, out] of Object.entries(bundle)) {
        if (out.type !== "chunk") continue;
        const file = relative(ROOT, join(dir, fileName)).split(sep).join("/");
        manifest.set(file, { build: label, modules: Object.keys(out.modules).map((m) => relative(ROOT, m.replace(/^\0/, "")).split(sep).join("/")).sort() });
      }
      mkdirSync(join(ROOT, "build"), { recursive: true });
      writeFileSync(join(ROOT, "build", "modules.json"), `${JSON.stringify(Object.fromEntries([...manifest].sort()), null, 1)}\n`);
    },
  };
}

/** The Node build takes ts/deps/<name>.node.ts (lazy `require`) instead of ts/deps/<name>.ts. */
const nodeDeps = {
  name: "groundwire-node-deps",
  async resolveId(source, importer, options) {
    // zod for the input schemas: required at first use (the schemas are built lazily)
    if (source === "zod/mini" && importer && !importer.endsWith("zod-mini.node.ts")) return this.resolve(join(DEPS_DIR, "zod-mini.node.ts"), importer, { ...options, skipSelf: true });
    if (!importer || !source.startsWith(".")) return null;
    const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
    if (!resolved || resolved.external || dirname(resolved.id) !== DEPS_DIR || resolved.id.endsWith(".node.ts")) return resolved;
    return this.resolve(resolved.id.replace(/\.ts$/, ".node.ts"), importer, { ...options, skipSelf: true });
  },
};

/** The browser-safe entry imports the markdown stack from dist/vendor/markdown.js (see the header). */
const vendorMarkdown = {
  name: "groundwire-vendor-markdown",
  async resolveId(source, importer, options) {
    if (!importer || !source.startsWith(".")) return null;
    const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
    if (!resolved || resolved.id !== join(DEPS_DIR, "markdown.ts")) return resolved;
    // emitted as written: the path from the importer's output file (dist/<same path>.js)
    const from = dirname(join(ROOT, "dist", sourceFileName({ facadeModuleId: importer })));
    return { id: `./${relative(from, VENDOR_MARKDOWN).split(sep).join("/")}`.replace(/^\.\/\.\.\//, "../"), external: "absolute" };
  },
};

/** Wherever the markdown stack is bundled, its entity decoder is the DOM-free build. */
const domFreeDecoder = {
  name: "groundwire-dom-free-decoder",
  resolveId(source) {
    return source === "decode-named-character-reference" ? DOM_FREE_DECODER : null;
  },
};

/** Licence texts of the third-party packages bundled into dist/vendor/ and dist/browser/. */
function thirdPartyLicenses(fileName) {
  return {
    name: "groundwire-third-party-licenses",
    generateBundle(_options, bundle) {
      const packages = new Map();
      for (const out of Object.values(bundle)) {
        if (out.type !== "chunk") continue;
        for (const id of Object.keys(out.modules)) {
          const m = /^(.*[\\/]node_modules[\\/](@[^\\/]+[\\/])?[^\\/]+)[\\/]/.exec(id.replace(/^\0/, ""));
          if (m && !packages.has(m[1])) packages.set(m[1], JSON.parse(readFileSync(join(m[1], "package.json"), "utf8")));
        }
      }
      const sections = [...packages].sort((a, b) => a[1].name.localeCompare(b[1].name)).map(([dir, p]) => {
        const file = ["LICENSE", "LICENSE.md", "license", "license.md", "LICENSE.txt", "LICENCE"].map((f) => join(dir, f)).find((f) => {
          try {
            readFileSync(f);
            return true;
          } catch {
            return false;
          }
        });
        const text = file ? readFileSync(file, "utf8").trim() : `(no licence file in the package; package.json says ${p.license})`;
        return `${p.name}@${p.version} (${p.license})\n\n${text}\n`;
      });
      this.emitFile({ type: "asset", fileName, source: `Third-party code bundled into this directory's JavaScript (generated by rollup.config.mjs)\n\n${sections.join(`\n${"-".repeat(72)}\n\n`)}` });
    },
  };
}

/** dist/browser/groundwire.d.ts: the self-contained bundle has the same API as the entry. */
const browserTypes = {
  name: "groundwire-browser-types",
  generateBundle() {
    this.emitFile({
      type: "asset",
      fileName: "groundwire.d.ts",
      source: '// generated by rollup.config.mjs, do not edit: the bundle exports the browser entry\nexport * from "../index.js";\n',
    });
  },
};

/**
 * Honour package.json "browser" file maps that @rollup/plugin-node-resolve misses for
 * CommonJS `require("./x")` without an extension: rdf-canonize maps lib/MessageDigest.js
 * (node:crypto) and lib/platform.js to WebCrypto versions.
 */
const browserFileMaps = {
  name: "groundwire-browser-file-maps",
  async resolveId(source, importer, options) {
    if (!importer || !source.startsWith(".") || !/[\\/]rdf-canonize[\\/]lib[\\/]/.test(importer)) return null;
    const mapped = { "./MessageDigest": "./MessageDigest-webcrypto.js", "./MessageDigest.js": "./MessageDigest-webcrypto.js", "./platform": "./platform-browser.js", "./platform.js": "./platform-browser.js" }[source];
    return mapped ? this.resolve(mapped, importer, { ...options, skipSelf: true }) : null;
  },
};

const tsPlugins = () => [nodeResolve({ extensions: [".ts", ".js"] }), esbuild({ target: "es2022", tsconfig: "tsconfig.json" })];

/** Warnings that are expected and harmless in the bundles that carry third-party code. */
function onwarnBundled(warning, warn) {
  // An import left unresolved would be shipped as a bare specifier the browser cannot load
  // (a node: builtin reaching the browser entry, or a missing dependency): fail the build.
  if (warning.code === "UNRESOLVED_IMPORT") throw new Error(`bundle: ${warning.message}`);
  // Dependencies (readable-stream, micromark…) have circular imports and `this` at top level in UMD glue.
  if (warning.code === "CIRCULAR_DEPENDENCY" || warning.code === "THIS_IS_UNDEFINED") return;
  warn(warning);
}

/** The browser-safe entry's files are named after their source (dist/match/best-span.js …). */
function sourceFileName(chunk) {
  const id = chunk.facadeModuleId ?? "";
  const rel = relative(join(ROOT, "ts"), id).split(sep).join("/");
  const path = rel.startsWith("../") ? relative(ROOT, id).split(sep).join("/") : rel;
  return path.replace(/\.ts$/, ".js");
}

/**
 * dist/node.js is ONE file holding every module of ours that ts/node.ts reaches by static
 * imports: `import("groundwire")` in Node then reads, resolves and links one file of ours
 * instead of ~27 chunks (measured: ≈ 30 ms less CPU per cold start on the 2-core machine,
 * docs/package.md). Likewise dist/cli.js holds exactly the modules ts/cli/index.ts reaches
 * statically, so `groundwire --help` reads one file. The command modules import what they
 * share with these two from them; what only commands use (the server, the bench, the
 * command modules) stays in dist/chunks/. No node_modules code is merged: dependencies
 * stay external.
 */
const ENTRY_CHUNKS = [
  ["node", join(ROOT, "ts", "node.ts")],
  ["cli", join(ROOT, "ts", "cli", "index.ts")],
];
function entryChunk(id, { getModuleInfo }) {
  const reached = (entry) => {
    const seen = new Set();
    const visit = (m) => {
      const info = seen.has(m) ? null : getModuleInfo(m);
      if (!info || info.isExternal) return;
      seen.add(m);
      for (const dep of info.importedIds) visit(dep);
    };
    visit(entry);
    return seen;
  };
  // the module graph is complete when rollup first asks: computed once per build
  entryChunk.graphs ??= new Map();
  for (const [name, entry] of ENTRY_CHUNKS) {
    if (!entryChunk.graphs.has(entry)) entryChunk.graphs.set(entry, reached(entry));
    if (entryChunk.graphs.get(entry).has(id)) return name;
  }
  return undefined;
}

export default [
  {
    // the markdown stack for the browser-safe entry, first: the entry imports it
    input: join(DEPS_DIR, "markdown.ts"),
    output: { file: VENDOR_MARKDOWN, format: "es" },
    plugins: [
      cleanDist,
      domFreeDecoder,
      nodeResolve({ extensions: [".ts", ".js"], exportConditions: ["import", "default"] }),
      commonjs(),
      esbuild({ target: "es2022", tsconfig: "tsconfig.json", minify: true, define: { "process.env.NODE_ENV": '"production"' } }),
      thirdPartyLicenses("THIRD-PARTY-LICENSES.txt"),
      recordModules("vendor"),
    ],
    onwarn: onwarnBundled,
  },
  {
    input: { index: "ts/index.ts" },
    output: { dir: "dist", format: "es", preserveModules: true, entryFileNames: sourceFileName },
    external,
    plugins: [vendorMarkdown, ...tsPlugins(), recordModules("browser-safe entry")],
  },
  {
    // check-worker: the worker thread of the checks' pool (ts/server/pool.ts loads it by path)
    input: { node: "ts/node.ts", cli: "ts/cli/index.ts", "check-worker": "ts/server/check-worker.ts" },
    output: { dir: "dist", format: "es", chunkFileNames: "chunks/[name]-[hash].js", manualChunks: entryChunk },
    // dist/node.js may export more than ts/node.ts (what the command chunks import from it),
    // rather than becoming a facade over one more chunk file
    preserveEntrySignatures: "allow-extension",
    // "zod/mini" is resolved by nodeDeps to ts/deps/zod-mini.node.ts (required at first use)
    external: (id) => id !== "zod/mini" && external(id),
    plugins: [nodeDeps, ...tsPlugins(), recordModules("node entry and cli")],
  },
  {
    // the package's bin: CommonJS, so `groundwire --help` / `--version` do not start the ES
    // module loader; it imports dist/cli.js for everything else (ts/cli/launcher.ts)
    input: "ts/cli/launcher.ts",
    output: { file: "dist/cli.cjs", format: "cjs" },
    external: isBuiltin,
    plugins: [...tsPlugins(), recordModules("cli launcher"), executable],
  },
  {
    // one declaration file for every condition and resolution mode: the whole API,
    // the Node-only functions included (their docstrings say "Node only")
    input: { index: "ts/node.ts" },
    output: { dir: "dist", format: "es", chunkFileNames: "chunks/[name]-[hash].d.ts" },
    external,
    plugins: [dts({ tsconfig: "tsconfig.json" })],
  },
  {
    input: "ts/browser.ts",
    output: { file: "dist/browser/groundwire.js", format: "es", inlineDynamicImports: true },
    // Nothing external: a node: import here is a bug (the browser entry must stay browser-safe),
    // and rollup fails the build on an unresolvable import rather than shipping it.
    plugins: [
      browserFileMaps,
      domFreeDecoder,
      nodeResolve({ extensions: [".ts", ".js"], browser: true, preferBuiltins: false, exportConditions: ["browser", "import", "default"] }),
      commonjs({ transformMixedEsModules: true }),
      esbuild({ target: "es2022", tsconfig: "tsconfig.json", minify: true, keepNames: true, define: { "process.env.NODE_ENV": '"production"' } }),
      browserTypes,
      thirdPartyLicenses("THIRD-PARTY-LICENSES.txt"),
      recordModules("self-contained browser bundle"),
    ],
    onwarn: onwarnBundled,
  },
];
