// Prints V8's x64 code for the wasm functions of build/groundwire.wasm (TurboFan, no Liftoff):
//   node --no-liftoff --print-wasm-code bench/scratch/s10-wasm-code.mjs > code.txt
import { readFileSync } from "node:fs";
const m = new WebAssembly.Module(readFileSync(new URL("../../build/groundwire.wasm", import.meta.url)));
await WebAssembly.instantiate(m, { env: { abort() {}, seed: () => 0 } }).catch((e) => console.error(String(e)));
