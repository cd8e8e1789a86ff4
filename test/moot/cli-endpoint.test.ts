// moot and prove against a model endpoint, run as the built CLI (node dist/cli.js) against
// real servers on 127.0.0.1: option checks, timeouts, 200-with-error, the partial transcript,
// `--json -`, the model id from the reply, and a 429 in the middle of a moot.
// npm test runs one bad --base-url of moot (not http), one variable of the environment checked
// and prove's own refusals; npm run test:deep (test/depth.ts) also a --base-url without a scheme,
// GROUNDWIRE_TIMEOUT, and prove's --base-url check (the one moot's shares).
import { spawn } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { createExtractiveSynthesizer, type ChatMessage } from "../../ts/moot/index.js";
import { readModelConfig, withWaitNotice } from "../../ts/cli/model-config.js";
import { createOpenAICompatibleSynthesizer } from "../../ts/moot/index.js";
import { DEEP, spread } from "../depth.js";

const CLI = fileURLToPath(new URL("../../dist/cli.js", import.meta.url));
const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const KG = fileURLToPath(new URL("../fixtures/kernel/olympics.ttl", import.meta.url));
const BOOKS = ["novel/frankenstein", "diary/pepys-1660"];

/** Run the CLI with no model configured in the environment, plus `env`. */
function run(args: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  const e = { ...process.env };
  for (const k of ["GROUNDWIRE_BASE_URL", "GROUNDWIRE_MODEL", "GROUNDWIRE_API_KEY", "OPENAI_API_KEY", "GROUNDWIRE_TIMEOUT"]) delete e[k];
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd: ROOT, env: { ...e, ...env } });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c) => (stdout += c));
    child.stderr.on("data", (c) => (stderr += c));
    child.on("close", (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((c) => c()));
});

/**
 * A chat endpoint on 127.0.0.1 whose `answer(messages, i)` handles request `i`: it writes the
 * response itself, or returns a reply text to send as a chat completion from `model`.
 */
async function endpoint(
  answer: (messages: ChatMessage[], i: number, res: ServerResponse) => Promise<string | null> | string | null,
  model = "stub-reported-7b",
): Promise<{ baseUrl: string; count: () => number }> {
  let n = 0;
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", async () => {
      const i = n++;
      const text = await answer((JSON.parse(body) as { messages: ChatMessage[] }).messages, i, res);
      if (text !== null) res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ model, choices: [{ message: { role: "assistant", content: text } }] }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  closers.push(() => new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  }));
  return { baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, count: () => n };
}

/** The embedded extractive synthesizer served over HTTP: grounded, deterministic replies. */
const extractive = createExtractiveSynthesizer();
const speak = (messages: ChatMessage[]) => extractive.complete(messages);

describe.skipIf(!existsSync(CLI))("moot and prove against a model endpoint (dist/cli.js; run `npm run build` first)", () => {
  const out = mkdtempSync(join(tmpdir(), "gw-endpoint-"));

  // npm test: three of the four (every flag keeps one); npm run test:deep (test/depth.ts): all four
  it.each(spread<[string, string[], RegExp]>([
    ["--base-url that is not http(s)", ["--base-url", "ftp://models.example/v1"], /^groundwire moot: --base-url must be an http\(s\) URL, got "ftp:\/\/models\.example\/v1"\n$/],
    ["--base-url without a scheme", ["--base-url", "localhost:8080/v1"], /^groundwire moot: --base-url must be an http\(s\) URL, got "localhost:8080\/v1"\n$/],
    ["--turns -3", ["--turns", "-3"], /^groundwire moot: --turns must be a positive integer, got "-3"\n$/],
    ["--timeout 0", ["--timeout", "0"], /^groundwire moot: --timeout must be a number of seconds above 0 and at most 3600, got "0"\n$/],
  ], 3))("%s: a usage error naming the flag, exit 2", async (_, extra, message) => {
    const r = await run(["moot", ...BOOKS, ...extra]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stdout).toBe("");
  });

  it("the environment is checked the same way, naming the variable; a key in the URL is not shown", async () => {
    const r1 = await run(["moot", ...BOOKS], { GROUNDWIRE_BASE_URL: "file:///etc/passwd" });
    expect(r1.code).toBe(2);
    expect(r1.stderr).toBe('groundwire moot: GROUNDWIRE_BASE_URL must be an http(s) URL, got "file:///etc/passwd"\n');
    // npm run test:deep (test/depth.ts): a second variable
    if (DEEP) {
      const r2 = await run(["moot", ...BOOKS], { GROUNDWIRE_TIMEOUT: "soon" });
      expect(r2.stderr).toBe('groundwire moot: GROUNDWIRE_TIMEOUT must be a number of seconds above 0 and at most 3600, got "soon"\n');
    }
    const r3 = await run(["moot", ...BOOKS, "--base-url", "gopher://me:hunter2@h/v1?key=sk-abcdefgh123"]);
    expect(r3.stderr).toBe('groundwire moot: --base-url must be an http(s) URL, got "gopher://h/v1?key=***"\n');
  });

  it("--timeout sets the model request timeout, and the error names it as a timeout", async () => {
    const slow = await endpoint(() => new Promise<string>((resolve) => setTimeout(() => resolve("late"), 3000)));
    const r = await run(["moot", ...BOOKS, "--base-url", slow.baseUrl, "--timeout", "0.5"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      `groundwire moot: timed out: the model endpoint ${slow.baseUrl}/chat/completions did not answer within 0.5 s (wait longer with --timeout, e.g. 300s, or GROUNDWIRE_TIMEOUT)\n`,
    );
  });

  it("HTTP 200 with {error: …} is reported in the server's words", async () => {
    const ep = await endpoint((_, __, res) => {
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ error: { message: "model \"m\" not found, try pulling it first" } }));
      return null;
    });
    const r = await run(["moot", ...BOOKS, "--base-url", ep.baseUrl, "--model", "m"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(`groundwire moot: the model endpoint ${ep.baseUrl}/chat/completions reported an error: model "m" not found, try pulling it first\n`);
  });

  it("an endpoint failing mid-moot: --json FILE keeps the turns already spoken, marked incomplete, exit 1", async () => {
    const ep = await endpoint(async (messages, i, res) => {
      if (i < 2) return speak(messages);
      res.writeHead(500, { "content-type": "application/json" }).end(JSON.stringify({ error: { message: "CUDA out of memory" } }));
      return null;
    });
    const json = join(out, "partial.json");
    const r = await run(["moot", ...BOOKS, "--topic", "fire", "--turns", "4", "--base-url", ep.baseUrl, "--json", json]);
    expect(r.code).toBe(1);
    // a 500 is retried (a model server briefly down): three attempts, then the error says so
    const message = `the model endpoint ${ep.baseUrl}/chat/completions answered HTTP 500 Internal Server Error after 3 attempts: CUDA out of memory`;
    expect(r.stderr).toBe(`moot: incomplete transcript (2 of 4 turns) written to ${json}\ngroundwire moot: ${message}\n`);
    const d = JSON.parse(readFileSync(json, "utf8"));
    expect(d.incomplete).toBe(true);
    expect(d.error).toBe(message);
    expect(d.utterances.map((u: { turn: number }) => u.turn)).toEqual([1, 2]);
    expect(d.stats.turns).toBe(2);
    expect(d.model).toBe("stub-reported-7b"); // from the reply, never the URL
  });

  it("--json - writes the transcript to stdout and the human text to stderr", async () => {
    const r = await run(["moot", ...BOOKS, "--topic", "fire", "--turns", "2", "--json", "-"]);
    expect(r.code).toBe(0);
    const d = JSON.parse(r.stdout);
    expect(d.utterances).toHaveLength(2);
    expect(d.model).toBe("extractive");
    expect(r.stderr).toContain("moot: no model configured");
    expect(r.stderr).toContain(`[1] ${d.utterances[0].title}`);
    expect(r.stderr).toContain("stats:");
    expect(existsSync(join(ROOT, "-"))).toBe(false);
  });

  it("a 429 in the middle of a moot neither loses a turn nor repeats one (issue 12 item 4)", async () => {
    // The served replies are the extractive synthesizer's, so the moot must equal the offline one.
    const ep = await endpoint(async (messages, i, res) => {
      if (i === 2) {
        res.writeHead(429, { "content-type": "application/json", "retry-after": "0" }).end(JSON.stringify({ error: { message: "rate limited" } }));
        return null;
      }
      return speak(messages);
    });
    const remoteJson = join(out, "with-429.json");
    const localJson = join(out, "offline.json");
    const args = ["moot", ...BOOKS, "--topic", "fire and ruin", "--turns", "5"];
    const [remote, local] = [await run([...args, "--base-url", ep.baseUrl, "--json", remoteJson]), await run([...args, "--json", localJson])];
    expect(remote.stderr).toBe("");
    expect(remote.code).toBe(0);
    expect(local.code).toBe(0);
    const [a, b] = [JSON.parse(readFileSync(remoteJson, "utf8")), JSON.parse(readFileSync(localJson, "utf8"))];
    expect(a.utterances.map((u: { turn: number }) => u.turn)).toEqual([1, 2, 3, 4, 5]);
    expect(a.utterances.map((u: { text: string }) => u.text)).toEqual(b.utterances.map((u: { text: string }) => u.text));
    expect(a.summaries).toEqual(b.summaries);
    // Every call of the offline moot, plus the one refused request.
    expect(ep.count()).toBe(a.utterances.reduce((n: number, u: { attempts: number }) => n + u.attempts, 0) + a.summaries.length + 1);
    expect(a.model).toBe("stub-reported-7b");
  });

  it("prove reads GROUNDWIRE_BASE_URL like moot, and --api-key is refused in favour of the environment or a file", async () => {
    const ep = await endpoint((_, __, res) => {
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ error: "no such model" }));
      return null;
    });
    const r1 = await run(["prove", "How many Olympic Games did Tokyo host?", "--kg", KG], { GROUNDWIRE_BASE_URL: ep.baseUrl, GROUNDWIRE_API_KEY: "sk-envkey-12345678" });
    expect(r1.code).toBe(1);
    expect(r1.stderr).toBe(`groundwire prove: the model endpoint ${ep.baseUrl}/chat/completions reported an error: no such model\n`);
    expect(ep.count()).toBe(1);
    const r2 = await run(["prove", "q", "--kg", KG, "--api-key", "sk-shown-to-ps"]);
    expect(r2.code).toBe(2);
    expect(r2.stderr).toBe("groundwire prove: --api-key is gone (ps shows it to every user): set GROUNDWIRE_API_KEY or give --api-key-file FILE\n");
    // npm run test:deep (test/depth.ts): prove's --base-url check, the one moot's above shares
    if (DEEP) {
      const r3 = await run(["prove", "q", "--kg", KG, "--base-url", "ftp://x/v1"]);
      expect(r3.stderr).toBe('groundwire prove: --base-url must be an http(s) URL, got "ftp://x/v1"\n');
    }
  });
});

describe("the shared model configuration", () => {
  it("flags over environment; the key from a file (first line) or the environment, never a flag", () => {
    const dir = mkdtempSync(join(tmpdir(), "gw-key-"));
    const keyFile = join(dir, "key");
    writeFileSync(keyFile, "sk-from-file-0001\nignored\n");
    chmodSync(keyFile, 0o600);
    const env = { GROUNDWIRE_BASE_URL: "http://env.example/v1", GROUNDWIRE_MODEL: "env-model", GROUNDWIRE_API_KEY: "sk-env", GROUNDWIRE_TIMEOUT: "30" };
    expect(readModelConfig("moot", {}, env)).toEqual({ baseUrl: "http://env.example/v1", model: "env-model", apiKey: "sk-env", timeoutMs: 30_000 });
    expect(readModelConfig("moot", { "base-url": "https://flag.example/v1", model: "flag-model", "api-key-file": keyFile, timeout: "2.5" }, env)).toEqual({
      baseUrl: "https://flag.example/v1",
      model: "flag-model",
      apiKey: "sk-from-file-0001",
      timeoutMs: 2500,
    });
    expect(readModelConfig("prove", {}, { OPENAI_API_KEY: "sk-openai" })).toEqual({ baseUrl: null, model: undefined, apiKey: "sk-openai", timeoutMs: 120_000 });
    expect(() => readModelConfig("moot", { "api-key-file": join(dir, "none") }, {})).toThrow(`moot: --api-key-file ${join(dir, "none")}: no such file`);
    expect(() => readModelConfig("moot", { "api-key-file": dir }, {})).toThrow(`moot: --api-key-file ${dir}: is a directory, not a file`);
  });

  it("on a terminal, a slow request shows that the model is being waited for, then erases it", async () => {
    const ep = await endpoint(() => new Promise<string>((resolve) => setTimeout(() => resolve("done"), 600)));
    const written: string[] = [];
    const tty = { isTTY: true, write: (t: string) => written.push(t) };
    const synth = createOpenAICompatibleSynthesizer({ baseUrl: ep.baseUrl });
    const waited = withWaitNotice(synth, "moot", synth.url, tty, 100);
    expect(await waited.complete([{ role: "user", content: "x" }])).toBe("done");
    expect(written[0]).toBe(`\r\x1b[Kmoot: waiting for the model at ${ep.baseUrl}/chat/completions… 0 s`);
    expect(written.at(-1)).toBe("\r\x1b[K");
    expect(waited.name).toBe("stub-reported-7b");
    // Off a terminal: nothing.
    const quiet: string[] = [];
    await withWaitNotice(synth, "moot", synth.url, { isTTY: false, write: (t: string) => quiet.push(t) }, 100).complete([{ role: "user", content: "x" }]);
    expect(quiet).toEqual([]);
  });
});
