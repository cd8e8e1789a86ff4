// The OpenAI-compatible client against a stub server on 127.0.0.1, and the empty-reply typed error.
import { afterEach, describe, expect, it } from "vitest";
import {
  createExtractiveSynthesizer,
  createOpenAICompatibleSynthesizer,
  EmptyReplyError,
  runMoot,
  SynthesizerError,
} from "../../ts/moot/index.js";
import { loadCorpus } from "../../ts/moot/corpus-node.js";
import { closedPort, startStub } from "./stub-server.js";

const corpus = loadCorpus(new URL("../../data/books/", import.meta.url));
let close: (() => Promise<void>) | null = null;
afterEach(async () => {
  await close?.();
  close = null;
});

describe("createOpenAICompatibleSynthesizer", () => {
  it("posts model, messages, max_tokens, temperature and the bearer key to /chat/completions", async () => {
    const stub = await startStub(() => ({ content: "Hello from the stub." }));
    close = stub.close;
    const synth = createOpenAICompatibleSynthesizer({ baseUrl: `${stub.baseUrl}/`, model: "tiny", apiKey: "sk-test" });
    const reply = await synth.complete([{ role: "user", content: "hi" }], { maxTokens: 50, temperature: 0.2 });
    expect(reply).toBe("Hello from the stub.");
    expect(stub.requests).toHaveLength(1);
    const [req] = stub.requests;
    expect(req!.url).toBe("/v1/chat/completions");
    expect(req!.headers.authorization).toBe("Bearer sk-test");
    expect(req!.body).toEqual({ model: "tiny", messages: [{ role: "user", content: "hi" }], max_tokens: 50, temperature: 0.2 });
    // a per-call model overrides the default
    await synth.complete([{ role: "user", content: "hi" }], { model: "other" });
    expect(stub.requests[1]!.body.model).toBe("other");
  });

  it("null content is an empty reply, not an error", async () => {
    const stub = await startStub(() => ({ content: null }));
    close = stub.close;
    expect(await createOpenAICompatibleSynthesizer({ baseUrl: stub.baseUrl }).complete([{ role: "user", content: "x" }])).toBe("");
    expect(stub.requests[0]!.body.model).toBeUndefined();
  });

  it("an unreachable endpoint is a SynthesizerError naming the URL", async () => {
    const url = `http://127.0.0.1:${await closedPort()}/v1`;
    const synth = createOpenAICompatibleSynthesizer({ baseUrl: url, model: "m" });
    const error = await synth.complete([{ role: "user", content: "x" }]).catch((e) => e);
    expect(error).toBeInstanceOf(SynthesizerError);
    expect(error.message).toContain(`${url}/chat/completions`);
    expect(error.message).toMatch(/cannot reach/);
  });

  it("an HTTP error and a non-JSON body are SynthesizerErrors with the status and URL", async () => {
    const stub = await startStub((_, i) => (i === 0 ? { status: 500, raw: "model crashed" } : { raw: "<html>" }));
    close = stub.close;
    const synth = createOpenAICompatibleSynthesizer({ baseUrl: stub.baseUrl, model: "m", attempts: 1 });
    const e1 = await synth.complete([{ role: "user", content: "x" }]).catch((e) => e);
    expect(e1).toBeInstanceOf(SynthesizerError);
    expect(e1).toMatchObject({ upstreamStatus: 500, status: 502, code: "upstream" });
    expect(e1.message).toContain("HTTP 500 Internal Server Error: model crashed");
    const e2 = await synth.complete([{ role: "user", content: "x" }]).catch((e) => e);
    expect(e2.message).toContain("not JSON");
  });

  it("a moot over a server that returns empty content twice stops with EmptyReplyError", async () => {
    const stub = await startStub(() => ({ content: "" }));
    close = stub.close;
    const synth = createOpenAICompatibleSynthesizer({ baseUrl: stub.baseUrl, model: "m" });
    const error = await runMoot(corpus, synth, ["novel/frankenstein", "diary/pepys-1660"], "fire", 4).catch((e) => e);
    expect(error).toBeInstanceOf(EmptyReplyError);
    expect(error.message).toBe("the model returned no text twice for Frankenstein, or The Modern Prometheus");
    expect(stub.requests).toHaveLength(2); // the first try and the one retry, then stop
    expect(stub.requests[1]!.body.messages.at(-1)!.content).toMatch(/did not pass the citation check/);
  });

  it("a moot through the stub server records the model's words, grounded when it quotes its passages", async () => {
    // Each turn goes over HTTP to the stub; the words kept are the extractive synthesizer's on the same messages.
    const extractive = createExtractiveSynthesizer();
    const live = await startStub(() => ({ content: "placeholder" }));
    close = live.close;
    const synth = createOpenAICompatibleSynthesizer({ baseUrl: live.baseUrl, model: "m" });
    const replies: string[] = [];
    const proxy = {
      name: "proxy",
      async complete(messages: Parameters<typeof synth.complete>[0], options?: Parameters<typeof synth.complete>[1]) {
        await synth.complete(messages, options); // goes over HTTP
        const r = await extractive.complete(messages);
        replies.push(r);
        return r;
      },
    };
    const t = await runMoot(corpus, proxy, ["novel/frankenstein", "diary/pepys-1660"], "fire", 2, { model: "m" });
    expect(live.requests).toHaveLength(2);
    expect(t.utterances.map((u) => u.rawText)).toEqual(replies);
    expect(t.stats().groundedTurns).toBe(2);
  });
});
