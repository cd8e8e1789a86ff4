// Secrets out of messages (issue 30, item 7): the whole text is redacted before it is cut,
// and a key is redacted under every spelling an endpoint may echo it in: as given,
// URL-encoded, JSON-escaped, base64 and base64url (alone, inside `Basic base64(user:key)` and
// inside a longer base64 text at each of the three byte alignments), and URL fragments.
// Each spelling is placed across the 200-character cut of the quoted server message, through
// a real server on 127.0.0.1 (node:http) and the real endpoint wrapper.
import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { postToEndpoint, serverMessage } from "../../ts/net/http.js";
import { redact, redactAndCut, redactUrl, secretSpellings } from "../../ts/net/redact.js";
import { createOpenAICompatibleSynthesizer } from "../../ts/moot/index.js";

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

/** A server on 127.0.0.1 answering every request with `answer(request)`. */
async function serve(answer: (req: IncomingMessage, res: ServerResponse) => void): Promise<string> {
  const server = createServer((req, res) => {
    req.resume();
    req.on("end", () => answer(req, res));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  closers.push(() => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** A key with characters every encoding changes (/, +, =, &, ", \, é, space), random so no text holds it by chance. */
const KEY = `gw/K+y=&"\\é ${randomBytes(12).toString("hex")}`;
const b64 = (bytes: Buffer) => bytes.toString("base64");
const b64url = (bytes: Buffer) => bytes.toString("base64url");

/**
 * The key inside a longer base64 text: `pre` bytes before it, 5 after. `secret` is the run of
 * base64 characters that depends on the key's bytes alone (computed here with Buffer, not
 * with the code under test).
 */
function embedded(pre: Buffer, url: boolean, post: Buffer = randomBytes(5)): { text: string; secret: string } {
  const key = Buffer.from(KEY);
  const bytes = Buffer.concat([pre, key, post]);
  const text = url ? b64url(bytes) : b64(bytes);
  const from = Math.ceil((8 * pre.length) / 6);
  const to = Math.floor((8 * (pre.length + key.length)) / 6);
  return { text, secret: text.slice(from, to) };
}

/** Every spelling: the text the server sends and the part of it that must never be printed. */
const SPELLINGS: Array<{ name: string; text: string; secret: string }> = [
  { name: "as given", text: KEY, secret: KEY },
  { name: "URL-encoded", text: encodeURIComponent(KEY), secret: encodeURIComponent(KEY) },
  { name: "URL-encoded, lower-case hex", text: encodeURIComponent(KEY).replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase()), secret: encodeURIComponent(KEY).toLowerCase() },
  { name: "form-encoded", text: new URLSearchParams({ k: KEY }).toString().slice(2), secret: new URLSearchParams({ k: KEY }).toString().slice(2) },
  { name: "JSON-escaped", text: JSON.stringify(KEY).slice(1, -1), secret: JSON.stringify(KEY).slice(1, -1) },
  { name: "base64", text: b64(Buffer.from(KEY)), secret: b64(Buffer.from(KEY)) },
  { name: "base64url", text: b64url(Buffer.from(KEY)), secret: b64url(Buffer.from(KEY)) },
  { name: "Basic base64(user:key)", text: `Basic ${b64(Buffer.from(`operator:${KEY}`))}`, secret: embedded(Buffer.from("operator:"), false, Buffer.alloc(0)).secret },
  { name: "base64(user:key) without its Basic", ...embedded(Buffer.from("ops:"), false, Buffer.alloc(0)) },
  ...[0, 1, 2].flatMap((pre) => [
    { name: `inside a longer base64 text, ${pre} bytes before it modulo 3`, ...embedded(randomBytes(pre + 3), false) },
    { name: `inside a longer base64url text, ${pre} bytes before it modulo 3`, ...embedded(randomBytes(pre + 3), true) },
  ]),
];

describe("every spelling of the key, across the 200-character cut of the server's message", () => {
  for (const spelling of SPELLINGS) {
    it(`${spelling.name}: not printed, not even its first half`, async () => {
      // the spelling starts 10 characters before the cut: the old order (cut, then redact) printed those 10
      const filler = "x".repeat(190);
      const base = await serve((_req, res) => res.writeHead(401, { "content-type": "text/plain" }).end(`${filler}${spelling.text} and more`));
      const e = await postToEndpoint({ what: "the model endpoint", url: `${base}/v1`, body: "{}", timeoutMs: 5000, secrets: [KEY] }).catch((x) => x);
      expect(e.message).toContain(`answered HTTP 401 Unauthorized: ${filler}`);
      for (const n of [6, 10, Math.ceil(spelling.secret.length / 2)]) expect(e.message).not.toContain(spelling.secret.slice(0, n));
      expect(e.message).not.toContain(KEY.slice(0, 6));
    });
  }

  it("the key sent as the synthesizer's apiKey, echoed URL-encoded and base64 in a JSON error, is redacted", async () => {
    const base = await serve((req, res) => {
      const sent = (req.headers.authorization ?? "").replace(/^Bearer /, "");
      res.writeHead(403, { "content-type": "application/json" }).end(JSON.stringify({ error: { message: `${"y".repeat(195)} key=${encodeURIComponent(sent)} b64=${b64(Buffer.from(sent))}` } }));
    });
    const synth = createOpenAICompatibleSynthesizer({ baseUrl: `${base}/v1`, apiKey: KEY, attempts: 1 });
    const e = await synth.complete([{ role: "user", content: "x" }]).catch((x) => x);
    expect(e.message).toContain("answered HTTP 403 Forbidden");
    for (const s of SPELLINGS.slice(0, 7)) expect(e.message).not.toContain(s.secret.slice(0, 6));
  });

  it("a key cut by the 64 KiB read (white space before it collapses to one space) is not half printed", async () => {
    const base = await serve((_req, res) => res.writeHead(500, { "content-type": "text/plain" }).end(`${" ".repeat(64 * 1024 - 8)}${KEY}`));
    const e = await postToEndpoint({ what: "the model endpoint", url: `${base}/v1`, body: "{}", timeoutMs: 5000, attempts: 1, secrets: [KEY] }).catch((x) => x);
    expect(e.message).toMatch(/answered HTTP 500 Internal Server Error: \*\*\*$/);
    expect(e.message).not.toContain(KEY.slice(0, 4));
  });

  it("a 200 answer with {error} quoting the key past the cut is redacted before it is cut", async () => {
    const base = await serve((_req, res) => res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ error: { message: `${"z".repeat(190)}${KEY}` } })));
    const synth = createOpenAICompatibleSynthesizer({ baseUrl: `${base}/v1`, apiKey: KEY });
    const e = await synth.complete([{ role: "user", content: "x" }]).catch((x) => x);
    expect(e.message).toMatch(/reported an error: z{190}\*\*\*$/);
  });
});

describe("URL fragments", () => {
  it("redactUrl and redact drop a fragment: an OAuth token handed over in #access_token=…", () => {
    expect(redactUrl("https://h.example/cb#access_token=tok123&state=x")).toBe("https://h.example/cb#***");
    expect(redact("redirected to https://h.example/cb#access_token=tok123 (see docs#intro)")).toBe("redirected to https://h.example/cb#*** (see docs#intro)");
    expect(redact('"https://a.example/x#frag" and <http://b.example/#t=1>')).toBe('"https://a.example/x#***" and <http://b.example/#***>');
  });

  it("a redirect whose target carries a fragment names the target without it", async () => {
    const base = await serve((_req, res) => res.writeHead(307, { location: "https://other.example/v1#token=abc987" }).end());
    const e = await postToEndpoint({ what: "the model endpoint", url: `${base}/v1`, body: "{}", timeoutMs: 5000 }).catch((x) => x);
    expect(e.message).toContain("redirecting to https://other.example/v1#***;");
    expect(e.message).not.toContain("abc987");
  });

  it("an error body quoting a URL with a fragment", () => {
    expect(serverMessage('{"error":"callback https://me.example/done#id_token=eyJhbGciOi failed"}')).toBe("callback https://me.example/done#*** failed");
  });
});

describe("redact itself", () => {
  it("each spelling in the middle of a text", () => {
    for (const s of SPELLINGS) {
      const out = redact(`before ${s.text} after`, [KEY]);
      expect(out, s.name).not.toContain(s.secret.slice(0, 6));
      expect(out, s.name).toMatch(/^before .*\*\*\*.* after$/);
    }
  });

  it("secretSpellings: the forms, longest first; short pieces of base64 are not among them", () => {
    const forms = secretSpellings("abcd");
    expect(forms).toContain("abcd");
    expect(forms).toContain("YWJjZA==");
    expect(forms).toContain("YWJjZA");
    expect(forms.every((f) => f.length >= 4)).toBe(true);
    expect(forms.map((f) => f.length)).toEqual([...forms.map((f) => f.length)].sort((a, b) => b - a));
    // a 4-character key's base64 at offsets 1 and 2 holds fewer than 6 characters of its own: not redacted (would hit words)
    expect(redact("the word ZWJj stays", ["abcd"])).toBe("the word ZWJj stays");
  });

  it("redactAndCut: redact the whole text, then cut", () => {
    expect(redactAndCut(`${"a".repeat(197)}SECRET-123456`, ["SECRET-123456"])).toBe(`${"a".repeat(197)}***`);
    expect(redactAndCut(`${"a".repeat(250)}`, [], 200)).toBe(`${"a".repeat(200)}…`);
  });

  it("is linear in a long run of scheme-like characters (the scheme is bounded)", () => {
    const hostile = `${"a.".repeat(32_000)}`;
    expect(redact(hostile)).toBe(hostile);
  });
});
