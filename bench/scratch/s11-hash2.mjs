// crypto.hash per call: flat string, cons string (kind + "\n" + slice), Uint8Array view of a scratch buffer.
import crypto from "node:crypto";
const base = "The quick brown fox jumps over the lazy dog. ".repeat(3000);
const spans = Array.from({ length: 3500 }, (_, i) => { const s = (i * 37) % 100000; return [s, s + 20 + (i % 7) * 40]; });
const flats = spans.map(([a, b]) => ["paragraph\n", base.slice(a, b)].join(""));
const buf = Buffer.from(base, "latin1");
const scratch = Buffer.alloc(1 << 16);
function t(name, f) { for (let r = 0; r < 30; r++) f(); const xs = []; for (let r = 0; r < 60; r++) { const t0 = performance.now(); f(); xs.push(performance.now() - t0); } xs.sort((a, b) => a - b); console.log(name.padEnd(30), xs[30].toFixed(3), "ms per 3500"); }
t("flat string", () => { for (const s of flats) crypto.hash("sha256", s, "hex"); });
t("cons (kind + slice)", () => { for (const [a, b] of spans) crypto.hash("sha256", "paragraph\n" + base.slice(a, b), "hex"); });
t("scratch buffer view", () => { for (const [a, b] of spans) { scratch.write("paragraph\n", 0, "latin1"); buf.copy(scratch, 10, a, b); crypto.hash("sha256", scratch.subarray(0, 10 + b - a), "hex"); } });
t("subarray of full buf (no prefix)", () => { for (const [a, b] of spans) crypto.hash("sha256", buf.subarray(a, b), "hex"); });
