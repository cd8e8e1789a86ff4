import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { backendInfo, initWasm, setBackend, wasmFor } from "../bindings/wasm.js";
import { sha256Backend, sha256Hex } from "../bindings/sha256.js";

describe("the house", () => {
  it("loads the inlined WASM module and reports the active backend", async () => {
    const exports = await initWasm();
    expect(exports).not.toBeNull();
    expect(exports!.memory).toBeInstanceOf(WebAssembly.Memory);
    expect(backendInfo()).toEqual({ requested: "auto", active: "wasm", reason: null });
    setBackend("ts");
    expect(backendInfo().active).toBe("ts");
    expect(wasmFor()).toBeNull();
    setBackend("auto");
    expect(() => setBackend("gpu" as never)).toThrow(/unknown backend "gpu"/);
    expect(() => wasmFor("gpu" as never)).toThrow(/unknown backend "gpu"/);
  });

  it("hashes with node:crypto in Node, the FIPS 180-4 digest of 'abc'", () => {
    expect(sha256Backend()).toBe("node:crypto");
    expect(sha256Hex("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  });
});

describe("CLI argument errors", () => {
  it("are one line naming the command, exit 2, even when node:util's message spans lines", async () => {
    const { parseCommandArgs, CliError } = await import("../ts/cli/common.js");
    let error: unknown;
    try {
      parseCommandArgs("moot", ["--turns", "-x"], { turns: { type: "string" } }, "usage: groundwire moot …");
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(CliError);
    expect((error as InstanceType<typeof CliError>).exitCode).toBe(2);
    expect((error as Error).message).toMatch(/^moot: Option '--turns' argument is ambiguous\..*'--turns=-XYZ'\.$/);
    expect((error as Error).message).not.toContain("\n");
    // a negative number is the option's value, for the command's own check to name
    expect(parseCommandArgs("moot", ["--turns", "-3"], { turns: { type: "string" } }, "usage").values.turns).toBe("-3");
  });
});

describe("--help", () => {
  it("every command prints its usage on stdout and exits 0 with nothing on stderr", () => {
    const cli = new URL("../dist/cli.js", import.meta.url).pathname;
    for (const command of ["moot", "books", "index", "critique", "check", "prove", "render", "fragments", "cite", "bench", "serve", "mcp"]) {
      for (const flag of ["--help", "-h"]) {
        const r = spawnSync(process.execPath, [cli, command, flag], { encoding: "utf8" });
        expect(r.status, `${command} ${flag}: ${r.stderr}`).toBe(0);
        expect(r.stderr).toBe("");
        expect(r.stdout, `${command} ${flag}`).toMatch(new RegExp(`usage: groundwire ${command}\\b`));
      }
    }
  });
});

describe("a reader that stops early", () => {
  it("ends the command quietly (exit 0), not with an EPIPE stack", () => {
    const cli = new URL("../dist/cli.js", import.meta.url).pathname;
    // 5,000 triples list as ~400 KB, far more than a pipe buffers, so the writer meets EPIPE.
    const graph = join(mkdtempSync(join(tmpdir(), "gw-epipe-")), "big.nt");
    writeFileSync(graph, Array.from({ length: 5000 }, (_, i) => `<urn:s:${i}> <urn:p:label> "subject number ${i}" .\n`).join(""));
    const r = spawnSync("bash", ["-c", `"${process.execPath}" "${cli}" index "${graph}" | head -c 1 >/dev/null; echo "\${PIPESTATUS[0]}"`], { encoding: "utf8" });
    expect(r.stderr).toBe("");
    expect(r.stdout.trim()).toBe("0");
  });
});
