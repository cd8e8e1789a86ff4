import crypto from "node:crypto";
import { createSHA256 } from "hash-wasm";
import { sha256 } from "@noble/hashes/sha2.js";
const strs = Array.from({length: 3500}, (_, i) => "bench\u0000section:intro/list:" + i + "/item:" + (i*7) + " some text content here that is a paragraph ".repeat(i % 4));
function t(name, f) { for (let r = 0; r < 50; r++) f(); const t0 = performance.now(); for (let r = 0; r < 200; r++) f(); console.log(name, ((performance.now() - t0) / 200).toFixed(3), "ms per 3500"); }
t("crypto.hash hex", () => { for (const s of strs) crypto.hash("sha256", s, "hex"); });
t("crypto.hash buffer", () => { for (const s of strs) crypto.hash("sha256", s, "buffer"); });
const h = await createSHA256();
t("hash-wasm reuse", () => { for (const s of strs) { h.init(); h.update(s); h.digest("hex"); } });
const enc = new TextEncoder();
t("noble", () => { for (const s of strs) sha256(enc.encode(s)); });
