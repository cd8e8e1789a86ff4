// The shared endpoint wrapper and the three clients on it, against real servers on 127.0.0.1
// (node:http, started here): retries with Retry-After, bounded attempts, timeouts named,
// redirects refused, bodies capped, secrets redacted.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { EndpointError, postToEndpoint, retryAfterMs, serverMessage } from "../../ts/net/http.js";
import { redact, redactUrl } from "../../ts/net/redact.js";
import { createOpenAICompatibleSynthesizer, createHttpWorkerClient, SynthesizerError, WorkerError } from "../../ts/moot/index.js";
import { createSparqlEndpointStore, SparqlStoreError } from "../../ts/kernel/index.js";

interface Seen {
  url: string;
  headers: IncomingMessage["headers"];
  body: string;
  at: number;
}

const servers: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((close) => close()));
});

/** A server on 127.0.0.1 whose `handle` answers the `i`-th request; it records every request. */
async function serve(handle: (res: ServerResponse, i: number, seen: Seen) => void): Promise<{ base: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      const s = { url: req.url ?? "", headers: req.headers, body, at: Date.now() };
      seen.push(s);
      handle(res, seen.length - 1, s);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  servers.push(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return { base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) =>
  res.writeHead(status, { "content-type": "application/json", ...headers }).end(JSON.stringify(body));
const completion = (content: string, model = "served-model") => ({ model, choices: [{ index: 0, message: { role: "assistant", content } }] });
const post = (url: string, extra: Partial<Parameters<typeof postToEndpoint>[0]> = {}) =>
  postToEndpoint({ what: "the test endpoint", url, body: "{}", timeoutMs: 5000, retryDelayMs: 10, ...extra });

describe("retries", () => {
  it("a 503 is retried (it used to get exactly one request) and the second answer is read", async () => {
    const { base, seen } = await serve((res, i) => (i === 0 ? json(res, 503, { error: "busy" }) : json(res, 200, { ok: true })));
    const reply = await post(`${base}/x`);
    expect(seen).toHaveLength(2);
    expect(reply).toEqual({ status: 200, text: '{"ok":true}', attempts: 2 });
  });

  it("a 429 with Retry-After: 1 waits the second the server asked for", async () => {
    const { base, seen } = await serve((res, i) => (i === 0 ? json(res, 429, {}, { "retry-after": "1" }) : json(res, 200, {})));
    await post(`${base}/x`);
    expect(seen).toHaveLength(2);
    expect(seen[1]!.at - seen[0]!.at).toBeGreaterThanOrEqual(900);
  });

  it("a Retry-After longer than allowed fails at once, saying what was asked", async () => {
    const { base, seen } = await serve((res) => json(res, 429, { error: { message: "slow down" } }, { "retry-after": "3600" }));
    const e = await post(`${base}/x`).catch((x) => x);
    expect(seen).toHaveLength(1);
    expect(e).toBeInstanceOf(EndpointError);
    expect(e.message).toBe(`the test endpoint ${base}/x answered HTTP 429 Too Many Requests (it asked to retry after 3600 s, longer than the 60 s allowed): slow down`);
  });

  it("attempts are bounded: a server that stays at 503 gets 3 requests, and the error says so", async () => {
    const { base, seen } = await serve((res) => json(res, 503, { error: { message: "model loading" } }));
    const e = await post(`${base}/x`).catch((x) => x);
    expect(seen).toHaveLength(3);
    expect(e.message).toBe(`the test endpoint ${base}/x answered HTTP 503 Service Unavailable after 3 attempts: model loading`);
    expect(e.upstreamStatus).toBe(503);
    expect(e).toMatchObject({ status: 502, code: "upstream" });
    const one = await serve((res) => json(res, 503, {}));
    await post(`${one.base}/x`, { attempts: 1 }).catch(() => null);
    expect(one.seen).toHaveLength(1);
  });

  it("other statuses are not retried (a POST is not repeated blindly)", async () => {
    for (const status of [400, 401, 404, 501]) {
      const { base, seen } = await serve((res) => json(res, status, { error: { message: "boom" } }));
      const e = await post(`${base}/x`).catch((x) => x);
      expect(seen, `HTTP ${status}`).toHaveLength(1);
      expect(e.failure).toBe("status");
      expect(e.upstreamStatus).toBe(status);
    }
  });

  it("500, 502, 503, 504 and 429 are each retried once answered, with Retry-After honoured", async () => {
    for (const status of [500, 502, 503, 504, 429]) {
      const { base, seen } = await serve((res, i) => (i === 0 ? json(res, status, { error: "down a moment" }, { "retry-after": "0" }) : json(res, 200, { ok: status })));
      const reply = await post(`${base}/x`);
      expect(seen, `HTTP ${status}`).toHaveLength(2);
      expect(reply).toEqual({ status: 200, text: `{"ok":${status}}`, attempts: 2 });
    }
    // a Retry-After on a 502 is waited for as on a 429
    const { base, seen } = await serve((res, i) => (i === 0 ? json(res, 502, {}, { "retry-after": "1" }) : json(res, 200, {})));
    await post(`${base}/x`);
    expect(seen).toHaveLength(2);
    expect(seen[1]!.at - seen[0]!.at).toBeGreaterThanOrEqual(900);
  });

  it("Retry-After is read as seconds or an HTTP date", () => {
    expect(retryAfterMs("7")).toBe(7000);
    expect(retryAfterMs(null)).toBeNull();
    expect(retryAfterMs("soon")).toBeNull();
    const inTen = retryAfterMs(new Date(Date.now() + 10_000).toUTCString())!;
    expect(inTen).toBeGreaterThan(8000);
    expect(inTen).toBeLessThanOrEqual(10_000);
  });
});

describe("failures are named", () => {
  it("a server that never answers is a timeout, named as one", async () => {
    const { base } = await serve(() => undefined);
    const e = await post(`${base}/x`, { timeoutMs: 300 }).catch((x) => x);
    expect(e.failure).toBe("timeout");
    expect(e.message).toBe(`timed out: the test endpoint ${base}/x did not answer within 0.3 s`);
  });

  it("a body that stalls half-way is a timeout too", async () => {
    const { base } = await serve((res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.write('{"choices":');
    });
    const e = await post(`${base}/x`, { timeoutMs: 300 }).catch((x) => x);
    expect(e.failure).toBe("timeout");
    expect(e.message).toBe(`timed out: the test endpoint ${base}/x did not finish its answer within 0.3 s`);
  });

  it("a 307 to another host is not followed: the other host gets nothing, the error names the target", async () => {
    const other = await serve((res) => json(res, 200, completion("stolen prompt")));
    const { base, seen } = await serve((res) => res.writeHead(307, { location: `${other.base}/v1/chat/completions?key=abc` }).end());
    const synth = createOpenAICompatibleSynthesizer({ baseUrl: `${base}/v1`, model: "m" });
    const e = await synth.complete([{ role: "user", content: "secret prompt" }]).catch((x) => x);
    expect(seen).toHaveLength(1);
    expect(other.seen).toHaveLength(0);
    expect(e).toBeInstanceOf(SynthesizerError);
    expect(e.failure).toBe("redirect");
    expect(e.message).toBe(
      `the model endpoint ${base}/v1/chat/completions answered HTTP 307 redirecting to ${other.base}/v1/chat/completions?key=***; ` +
        "redirects are not followed for a POST (it would resend the request there): use the final URL",
    );
  });

  it("a body over the cap stops the read, with or without a content-length", async () => {
    const big = "x".repeat(300_000);
    const declared = await serve((res) => res.writeHead(200, { "content-length": String(big.length) }).end(big));
    const e1 = await post(`${declared.base}/x`, { maxResponseBytes: 100_000 }).catch((x) => x);
    expect(e1.failure).toBe("too-large");
    expect(e1.message).toBe(`the test endpoint ${declared.base}/x sent a body over 100,000 bytes; stopped reading`);
    const chunked = await serve((res) => {
      res.writeHead(200);
      for (let i = 0; i < 30; i++) res.write("y".repeat(10_000));
      res.end();
    });
    const e2 = await post(`${chunked.base}/x`, { maxResponseBytes: 100_000 }).catch((x) => x);
    expect(e2.failure).toBe("too-large");
    expect((await post(`${chunked.base}/x`, { maxResponseBytes: 300_000 })).text).toHaveLength(300_000);
  });

  it("a body that is not UTF-8 is refused, not decoded to U+FFFD", async () => {
    const { base } = await serve((res) => res.writeHead(200).end(Buffer.from([0x7b, 0xe9, 0x7d])));
    const e = await post(`${base}/x`).catch((x) => x);
    expect(e.failure).toBe("encoding");
  });
});

describe("secrets stay out of messages", () => {
  it("credentials and a query in the base URL: sent (Basic auth, query kept after the joined path), never printed", async () => {
    const { base, seen } = await serve((res) => json(res, 401, { error: { message: "invalid key: Bearer sk-live-abcdef123456 for user hunter2" } }));
    const withCreds = base.replace("http://", "http://alice:hunter2@");
    const synth = createOpenAICompatibleSynthesizer({ baseUrl: `${withCreds}/v1?key=topsecret`, model: "m" });
    const e = await synth.complete([{ role: "user", content: "x" }]).catch((x) => x);
    expect(seen[0]!.url).toBe("/v1/chat/completions?key=topsecret");
    expect(seen[0]!.headers.authorization).toBe(`Basic ${Buffer.from("alice:hunter2").toString("base64")}`);
    expect(e.message).toBe(`the model endpoint ${base}/v1/chat/completions?key=*** answered HTTP 401 Unauthorized: invalid key: Bearer *** for user ***`);
    for (const secret of ["hunter2", "topsecret", "sk-live", "alice"]) expect(e.message).not.toContain(secret);
  });

  it("the API key is sent as a bearer token and redacted from an echoing error body", async () => {
    const { base, seen } = await serve((res, _i, s) => json(res, 403, { message: `denied for ${s.headers.authorization} (key MYKEY-0042)` }));
    const synth = createOpenAICompatibleSynthesizer({ baseUrl: `${base}/v1`, apiKey: "MYKEY-0042" });
    const e = await synth.complete([{ role: "user", content: "x" }]).catch((x) => x);
    expect(seen[0]!.headers.authorization).toBe("Bearer MYKEY-0042");
    expect(e.message).toBe(`the model endpoint ${base}/v1/chat/completions answered HTTP 403 Forbidden: denied for Bearer *** (key ***)`);
  });

  it("redact and redactUrl", () => {
    expect(redactUrl("https://u:p@h.example/v1/x?key=1&model=a#f")).toBe("https://h.example/v1/x?key=***&model=***#***");
    expect(redact("Authorization: Bearer abc.def-123 and sk-proj-XYZ123456 at http://me:pw@h/ with api_key=zzz")).toBe(
      "Authorization: Bearer *** and sk-*** at http://***@h/ with api_key=***",
    );
    expect(redact('{"api_key": "s3cr3t"}')).toBe('{"api_key": "***"}');
    expect(redact("the key is K-12345", ["K-12345"])).toBe("the key is ***");
  });

  it("serverMessage takes the server's own words, capped", () => {
    expect(serverMessage('{"error":{"message":"context length exceeded","type":"invalid_request_error"}}')).toBe("context length exceeded");
    expect(serverMessage('{"error":"model not found"}')).toBe("model not found");
    expect(serverMessage("<html>\n  <body>Bad Gateway</body>")).toBe("<html> <body>Bad Gateway</body>");
    expect(serverMessage("z".repeat(500))).toBe(`${"z".repeat(200)}…`);
  });
});

describe("the model client", () => {
  it("HTTP 200 with {error: …} is reported in the server's words, not as an empty reply", async () => {
    const { base } = await serve((res) => json(res, 200, { error: { message: "model 'llama9' not found, try pulling it first", type: "not_found" } }));
    const synth = createOpenAICompatibleSynthesizer({ baseUrl: `${base}/v1`, model: "llama9" });
    const e = await synth.complete([{ role: "user", content: "x" }]).catch((x) => x);
    expect(e).toBeInstanceOf(SynthesizerError);
    expect(e.message).toBe(`the model endpoint ${base}/v1/chat/completions reported an error (not_found): model 'llama9' not found, try pulling it first`);
  });

  it("the model the endpoint reports names the synthesizer when none was configured; never the URL", async () => {
    const { base } = await serve((res) => json(res, 200, completion("hi", "qwen2.5-7b-instruct")));
    const synth = createOpenAICompatibleSynthesizer({ baseUrl: `${base}/v1` });
    expect(synth.name).toBe("openai-compatible");
    expect(synth.reportedModel).toBeNull();
    await synth.complete([{ role: "user", content: "x" }]);
    expect(synth.reportedModel).toBe("qwen2.5-7b-instruct");
    expect(synth.name).toBe("qwen2.5-7b-instruct");
    expect(createOpenAICompatibleSynthesizer({ baseUrl: `${base}/v1`, model: "mine" }).name).toBe("mine");
  });

  it("a base URL that is not http(s) is refused at once", () => {
    expect(() => createOpenAICompatibleSynthesizer({ baseUrl: "ftp://h/v1" })).toThrow('createOpenAICompatibleSynthesizer: options.baseUrl must be an http(s) URL, got "ftp://h/v1"');
    expect(() => createOpenAICompatibleSynthesizer({ baseUrl: "localhost:8080" })).toThrow(/^createOpenAICompatibleSynthesizer: options.baseUrl must be an http\(s\) URL/);
  });
});

describe("the SPARQL endpoint and worker clients share the wrapper", () => {
  it("a SPARQL endpoint at 503 once is retried; its redirect is refused", async () => {
    const { base, seen } = await serve((res, i) =>
      i === 0 ? json(res, 503, {}) : json(res, 200, { head: {}, boolean: true }),
    );
    expect(await createSparqlEndpointStore(`${base}/sparql`, { retryDelayMs: 10 }).query("ASK {}")).toEqual({ kind: "boolean", boolean: true });
    expect(seen).toHaveLength(2);
    expect(seen[1]!.body).toBe("query=ASK+%7B%7D");
    const moved = await serve((res) => res.writeHead(308, { location: "http://elsewhere.example/sparql" }).end());
    const e = await createSparqlEndpointStore(`${moved.base}/sparql`).query("ASK {}").catch((x) => x);
    expect(e).toBeInstanceOf(SparqlStoreError);
    expect(e.message).toMatch(/answered HTTP 308 redirecting to http:\/\/elsewhere\.example\/sparql; redirects are not followed/);
  });

  it("a worker at 429 with Retry-After: 0 is retried", async () => {
    const { base, seen } = await serve((res, i) => (i === 0 ? json(res, 429, {}, { "retry-after": "0" }) : json(res, 200, { hits: [] })));
    expect(await createHttpWorkerClient({ baseUrl: base }).query("x", { corpus: "a/b", k: 1 })).toEqual({ hits: [] });
    expect(seen).toHaveLength(2);
    const never = await serve(() => undefined);
    const e = await createHttpWorkerClient({ baseUrl: never.base, timeoutMs: 200 }).query("x", { corpus: "a/b", k: 1 }).catch((x) => x);
    expect(e).toBeInstanceOf(WorkerError);
    expect(e.message).toBe(`timed out: the worker ${never.base}/query did not answer within 0.2 s`);
  });
});
