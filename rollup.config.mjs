// Bundles ts/ into dist/: the browser-safe entry (index.js), the Node entry
// (node.js), the CLI (cli.js), and bundled type declarations. Dependencies stay
// external (the consumer's bundler resolves them); the .wasm is already inlined
// as base64 in bindings/wasm-bytes.generated.ts, so no asset plugin is needed.
import { readFileSync } from "node:fs";
import { builtinModules } from "node:module";
import esbuild from "rollup-plugin-esbuild";
import { nodeResolve } from "@rollup/plugin-node-resolve";
import dts from "rollup-plugin-dts";

const pkg = JSON.parse(readFileSync(new URL("./package.json", import.meta.url), "utf8"));
const deps = Object.keys(pkg.dependencies ?? {});
const external = (id) =>
  id.startsWith("node:") ||
  builtinModules.includes(id) ||
  deps.some((d) => id === d || id.startsWith(`${d}/`));

const plugins = [nodeResolve({ extensions: [".ts", ".js"] }), esbuild({ target: "es2022", tsconfig: "tsconfig.json" })];

export default [
  {
    input: { index: "ts/index.ts", node: "ts/node.ts", cli: "ts/cli/index.ts" },
    output: { dir: "dist", format: "es", sourcemap: true, chunkFileNames: "chunks/[name]-[hash].js" },
    external,
    plugins,
  },
  {
    input: { index: "ts/index.ts", node: "ts/node.ts" },
    output: { dir: "dist", format: "es", chunkFileNames: "chunks/[name]-[hash].d.ts" },
    external,
    plugins: [dts({ tsconfig: "tsconfig.json" })],
  },
];
