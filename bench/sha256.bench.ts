/**
 * SHA-256 backends (bindings/sha256.ts): why Node hashes with node:crypto and browsers with
 * hash-wasm, and what the no-WebAssembly fallback (@noble/hashes, pure JS) costs.
 * Contenders on the same bytes: node:crypto (OpenSSL, SHA-NI where the CPU has it),
 * hash-wasm (WebAssembly), @noble/hashes (pure JS), and python3 hashlib as an outside
 * reference. Small case: 1,000 messages of 64 bytes (per-call overhead, the size of a
 * fragment address); large case: one 16 MiB buffer (throughput).
 * Every contender's digests are checked against python3 hashlib's before timing.
 *
 * Run: npx tsx bench/run.ts sha256
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createSHA256 } from "hash-wasm";
import { hashWasmBackend, initSha256, pureJsBackend, type Sha256Backend } from "../bindings/sha256.js";
import { loadNoble } from "../ts/deps/noble.js";
import { nodeCryptoBackend } from "../bindings/sha256-node.js";
import type { BenchCase, BenchSuite, Contender } from "./harness.js";

/** Deterministic bytes (xorshift32), so every run hashes the same input. */
function bytes(n: number, seed: number): Uint8Array {
  const out = new Uint8Array(n);
  let x = seed >>> 0 || 1;
  for (let i = 0; i < n; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out[i] = x & 0xff;
  }
  return out;
}

const PY_HASHLIB = `
import hashlib, json, sys, time, statistics
path, size, expected, budget = sys.argv[1], int(sys.argv[2]), sys.argv[3], float(sys.argv[4]) / 1000
data = open(path, "rb").read()
msgs = [data[i:i + size] for i in range(0, len(data), size)]
def run():
    return [hashlib.sha256(m).hexdigest() for m in msgs]
got = ",".join(run())
if got != expected:
    sys.exit("python3 hashlib digests differ from the expected ones")
samples, end = [], time.perf_counter() + budget
while len(samples) < 5 or (time.perf_counter() < end and len(samples) < 500):
    t = time.perf_counter(); run(); samples.append((time.perf_counter() - t) * 1000)
print(json.dumps({"medianMs": statistics.median(samples), "samples": len(samples)}))
`;

/** python3 hashlib over the same messages: checks the digests, then times itself. Null when python3 is absent. */
function pythonDigests(data: Uint8Array, size: number): string[] | null {
  const script = `import hashlib,sys\nd=open(sys.argv[1],"rb").read()\nprint(",".join(hashlib.sha256(d[i:i+${size}]).hexdigest() for i in range(0,len(d),${size})))`;
  const dir = mkdtempSync(join(tmpdir(), "groundwire-sha-"));
  const path = join(dir, "data.bin");
  writeFileSync(path, data);
  const r = spawnSync("python3", ["-c", script, path], { encoding: "utf8", maxBuffer: 64 << 20 });
  return r.status === 0 ? r.stdout.trim().split(",") : null;
}

function pythonContender(data: Uint8Array, size: number, expected: string[]): Contender {
  return {
    name: "python3 hashlib (reference)",
    kind: "external",
    async measure(options) {
      const dir = mkdtempSync(join(tmpdir(), "groundwire-sha-"));
      const path = join(dir, "data.bin");
      writeFileSync(path, data);
      const r = spawnSync("python3", ["-c", PY_HASHLIB, path, String(size), expected.join(","), String(options?.budgetMs ?? 1500)], { encoding: "utf8", maxBuffer: 64 << 20 });
      if (r.status !== 0) throw new Error(`python3 hashlib: ${r.stderr.trim() || r.error?.message}`);
      return JSON.parse(r.stdout);
    },
  };
}

function contenders(backends: Sha256Backend[], messages: Uint8Array[], expected: string[]): Contender[] {
  return backends.map((b) => ({
    name: b.name === "@noble/hashes" ? "@noble/hashes (pure JS, the no-WASM fallback)" : b.name === "hash-wasm" ? "hash-wasm (browsers)" : "node:crypto (Node)",
    run: () => messages.map((m) => b.digestHex(m)),
    check: (out) => {
      const got = out as string[];
      const bad = got.findIndex((d, i) => d !== expected[i]);
      if (bad >= 0 || got.length !== expected.length) throw new Error(`digest ${bad} differs from python3 hashlib's`);
    },
  }));
}

const suite: BenchSuite = {
  part: "sha256",
  async cases() {
    await initSha256();
    await loadNoble(); // the pure-JS fallback is loaded on demand
    await createSHA256();
    const backends = [nodeCryptoBackend, hashWasmBackend(), pureJsBackend];
    // FIPS 180-4 example: every backend agrees before anything is timed
    for (const b of backends) {
      if (b.digestHex(new TextEncoder().encode("abc")) !== "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad") throw new Error(`${b.name} fails the FIPS 180-4 "abc" vector`);
    }
    const cases: BenchCase[] = [];
    const plan: Array<[string, BenchCase["size"], number, number]> = [
      ["1,000 messages of 64 bytes (per-call overhead)", "small", 64, 1000],
      ["one 16 MiB buffer (throughput)", "large", 16 << 20, 1],
    ];
    for (const [name, sizeClass, msgBytes, count] of plan) {
      const data = bytes(msgBytes * count, 0x9e3779b9 ^ msgBytes);
      const messages = Array.from({ length: count }, (_, i) => data.subarray(i * msgBytes, (i + 1) * msgBytes));
      const python = pythonDigests(data, msgBytes);
      const expected = python ?? messages.map((m) => nodeCryptoBackend.digestHex(m));
      if (!python) suite.skipped = "python3 not found: digests checked against node:crypto only, no python reference";
      cases.push({
        name: `SHA-256, ${name}`,
        size: sizeClass,
        units: { count: msgBytes * count, unit: "bytes" },
        contenders: [...contenders(backends, messages, expected), ...(python ? [pythonContender(data, msgBytes, expected)] : [])],
      });
    }
    return cases;
  },
};
export default suite;
