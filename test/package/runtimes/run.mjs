// Runs workload.js on one entry of the built package and prints its result as one JSON line.
// Usage (Node, Deno or Bun): run.mjs <entry file> <input JSON file> [ready]
// "ready": await the entry's ready() first (the fast path a page takes).
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { workload } from "./workload.js";

const [entry, inputFile, mode] = process.argv.slice(2);
const gw = await import(pathToFileURL(entry).href);
if (mode === "ready") await gw.ready();
const result = workload(gw, JSON.parse(readFileSync(inputFile, "utf8")));
process.stdout.write(`${JSON.stringify(result)}\n`);
