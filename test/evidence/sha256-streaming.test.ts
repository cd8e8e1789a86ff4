// The incremental SHA-256 behind bindings/sha256.ts: the same digest as one-shot hashing of
// the concatenation, on every backend (node:crypto, hash-wasm, @noble/hashes).
import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { createSha256, hashWasmBackend, initSha256, pureJsBackend, sha256Hex, type Sha256Backend } from "../../bindings/sha256.js";
import { nodeCryptoBackend } from "../../bindings/sha256-node.js";
import { loadNoble } from "../../ts/deps/noble.js";

const encode = (s: string) => new TextEncoder().encode(s);
const README = readFileSync(new URL("../fixtures/evidence/awesome-v000.input.md", import.meta.url), "utf8");

let backends: Sha256Backend[] = [];
beforeAll(async () => {
  await initSha256(); // compiles hash-wasm; node:crypto stays the active backend (test/setup.ts)
  await loadNoble();
  backends = [nodeCryptoBackend, hashWasmBackend(), pureJsBackend];
});

describe("incremental SHA-256", () => {
  it("digests FIPS 180-4's 'abc' vector fed in pieces, on every backend", () => {
    for (const b of backends) {
      expect(b.createHasher().update("a").update(encode("b")).update("c").digestHex(), b.name).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
      expect(b.createHasher().digestHex(), b.name).toBe("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    }
  });

  it("equals the one-shot digest of a real README cut at every 97th code unit", () => {
    const want = nodeCryptoBackend.digestHex(encode(README));
    for (const b of backends) {
      const h = b.createHasher();
      for (let p = 0; p < README.length; p += 97) h.update(README.slice(p, p + 97));
      expect(h.digestHex(), b.name).toBe(want);
      expect(b.digestHexText(README), b.name).toBe(want);
    }
  });

  it("encodes text as TextEncoder does, lone surrogates as U+FFFD included", () => {
    const odd = "a\ud83d\ude00b\ud800c\udc00\0é";
    for (const b of backends) expect(b.digestHexText(odd), b.name).toBe(nodeCryptoBackend.digestHex(encode(odd)));
  });

  it("keeps two hash-wasm hashers apart on its one shared instance, one-shot digests in between", () => {
    const b = hashWasmBackend();
    const x = b.createHasher().update("The cache holds ");
    const y = b.createHasher().update("Writes go ");
    expect(b.digestHex(encode("abc"))).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    x.update("recent answers.");
    y.update("to the primary first.");
    expect(y.digestHex()).toBe(nodeCryptoBackend.digestHexText("Writes go to the primary first."));
    expect(x.digestHex()).toBe(nodeCryptoBackend.digestHexText("The cache holds recent answers."));
    expect(() => x.update("more")).toThrow(/already digested/);
  });

  it("createSha256 uses the active backend (node:crypto here)", () => {
    expect(createSha256().update("The fee is ").update("10").digestHex()).toBe(sha256Hex("The fee is 10"));
  });
});
