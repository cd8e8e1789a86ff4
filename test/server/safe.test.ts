// `groundwire serve` safe by default, on real processes and sockets: the token (made, saved
// 0600 under --data and reused, printed without --data, required), the Host and Origin checks
// on every route (/health and /mcp included), --allowed-host, --cors, --no-auth, the refusals
// at start (blank GROUNDWIRE_TOKEN, --no-auth off loopback, bad PORT/HOST), PORT/HOST from
// the environment with the flags winning, the request id and the request log.
// npm test runs each refusal at start on a sample of its values (every flag and variable keeps
// one: --no-auth off loopback by flag and by HOST, a bad PORT and a bad HOST, a bad --allowed-host
// and a bad --cors, two blank and two malformed tokens); npm run test:deep (test/depth.ts) all of them.
import { request } from "node:http";
import { connect, createServer, type AddressInfo } from "node:net";
import { existsSync, mkdtempSync, readFileSync, statSync } from "node:fs";
import { networkInterfaces, tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, CLI, serveRefuses, startServer, TEST_TOKEN, type RunningServer } from "./serve-process.js";
import { freePort } from "../free-port.js";
import { spread, spreadEach } from "../depth.js";

/** One request with exactly these headers (Host included) over node:http: status, headers, JSON body. */
function raw(url: string, method: string, path: string, headers: Record<string, string>, body?: string): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; json: any }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request({ host: hostname, port, method, path, headers: { ...headers, ...(body ? { "content-type": "application/json", "content-length": String(Buffer.byteLength(body)) } : {}) }, agent: false }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (c) => (text += c));
      res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, json: text ? JSON.parse(text) : null }));
    });
    req.on("error", reject);
    req.end(body);
  });
}

/** Bytes written to a raw socket, and everything answered until the server closes. */
function socketExchange(url: string, bytes: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.end(bytes));
    let answer = "";
    socket.setEncoding("utf8");
    socket.on("data", (c) => (answer += c));
    socket.on("end", () => resolve(answer));
    socket.on("error", reject);
  });
}

const TOOLS_LIST = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} });
const MCP_HEADERS = { accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-06-18" };


/** Wait until the server's stderr holds `text` (stderr and stdout are separate pipes). */
async function stderrHas(server: RunningServer, text: string | RegExp): Promise<string> {
  for (let i = 0; i < 100; i++) {
    const err = server.stderr();
    if (typeof text === "string" ? err.includes(text) : text.test(err)) return err;
    await new Promise((r) => setTimeout(r, 20));
  }
  return server.stderr();
}

describe.skipIf(!existsSync(CLI))("serve: a token made at start, saved under --data", () => {
  let server: RunningServer;
  const data = mkdtempSync(join(tmpdir(), "gw-safe-"));
  const tokenFile = join(data, "token");
  let token: string;
  let port: string;
  beforeAll(async () => {
    server = await startServer(["--data", data], {}, { autoToken: false });
    token = readFileSync(tokenFile, "utf8").trim();
    port = new URL(server.url).port;
  }, 60_000);
  afterAll(async () => server?.stop());

  it("saves a random base64url token in <data>/token, mode 0600, says where, and requires it (401 without)", async () => {
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(statSync(tokenFile).mode & 0o777).toBe(0o600);
    expect(await stderrHas(server, "saved it in")).toContain(`made a token and saved it in ${tokenFile} (mode 0600)`);
    const none = await call(server.url, "GET", "/books");
    expect(none.status).toBe(401);
    expect(none.json.error.code).toBe("unauthorized");
    expect(none.headers.get("www-authenticate")).toBe('Bearer realm="groundwire"');
    expect((await call(server.url, "GET", "/books", undefined, { authorization: "Bearer not-the-token" })).status).toBe(401);
    expect((await call(server.url, "GET", "/books", undefined, { authorization: `Bearer ${token}x` })).status).toBe(401);
    expect((await call(server.url, "GET", "/books", undefined, { authorization: `Bearer ${token}` })).status).toBe(200);
    expect((await call(server.url, "GET", "/books", undefined, { authorization: `bearer ${token}` })).status).toBe(200);
    // /health and /openapi.json stay open
    expect((await call(server.url, "GET", "/health")).status).toBe(200);
    expect((await call(server.url, "GET", "/openapi.json")).status).toBe(200);
  });

  it("refuses the issue's curl (Host evil.example, Origin evil) with 403 on /books, /health and POST /mcp", async () => {
    const evil = { host: "evil.example:8787", origin: "http://evil.example:8787", authorization: `Bearer ${token}` };
    for (const [method, path, body] of [["GET", "/books"], ["GET", "/health"], ["POST", "/mcp", TOOLS_LIST]] as const) {
      const r = await raw(server.url, method, path, { ...evil, ...(path === "/mcp" ? MCP_HEADERS : {}) }, body);
      expect(r.status).toBe(403);
      expect(r.json.error).toMatchObject({ code: "forbidden_host", message: "the Host header 'evil.example:8787' is not allowed (allow it with --allowed-host)" });
    }
    // a good Host with the evil Origin: the Origin is named
    for (const [method, path, body] of [["GET", "/books"], ["GET", "/health"], ["POST", "/mcp", TOOLS_LIST]] as const) {
      const r = await raw(server.url, method, path, { ...evil, host: `127.0.0.1:${port}`, ...(path === "/mcp" ? MCP_HEADERS : {}) }, body);
      expect(r.status).toBe(403);
      expect(r.json.error).toMatchObject({ code: "forbidden_origin", message: "the Origin header 'http://evil.example:8787' is not allowed (allow it with --cors)" });
    }
    // the same /mcp call from a client that sends no Origin lists the tools
    const ok = await raw(server.url, "POST", "/mcp", { host: `127.0.0.1:${port}`, authorization: `Bearer ${token}`, ...MCP_HEADERS }, TOOLS_LIST);
    expect(ok.status).toBe(200);
    expect(ok.json.result.tools.length).toBe(10);
  });

  it("allows the loopback names in any letter case and with any port; refuses look-alikes; 400 for a malformed or missing Host", async () => {
    const auth = { authorization: `Bearer ${token}` };
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `LOCALHOST:${port}`, `[::1]:${port}`, "localhost:1", "127.0.0.1"]) {
      expect({ host, status: (await raw(server.url, "GET", "/books", { ...auth, host })).status }).toEqual({ host, status: 200 });
    }
    for (const host of ["127.0.0.1.evil.example", `localhost.:${port}`, "127.1", "2130706433", "[::2]", "evil.example", "localhost.evil.example"]) {
      const r = await raw(server.url, "GET", "/health", { host });
      expect({ host, status: r.status, code: r.json.error.code }).toEqual({ host, status: 403, code: "forbidden_host" });
    }
    // userinfo, and an IPv6 literal not in its canonical form (refused by the HTTP adapter before any route)
    for (const host of ["a@127.0.0.1", `user:pw@localhost:${port}`, "[0:0:0:0:0:0:0:1]"]) {
      const r = await raw(server.url, "GET", "/health", { host });
      expect({ host, status: r.status, body: r.json }).toEqual({ host, status: 400, body: { error: { code: "bad_request", message: "the Host header is malformed" } } });
    }
    // an echoed value is cut to 100 characters
    const long = await raw(server.url, "GET", "/health", { host: `${"a".repeat(300)}.example` });
    expect(long.status).toBe(403);
    expect(long.json.error.message).toBe(`the Host header '${"a".repeat(100)}…' is not allowed (allow it with --allowed-host)`);
    // HTTP/1.0 without Host (HTTP/1.1 requires one; Node refuses those itself)
    const http10 = await socketExchange(server.url, "GET /health HTTP/1.0\r\n\r\n");
    expect(http10).toMatch(/^HTTP\/1\.1 400 /);
    expect(http10).toContain('{"error":{"code":"bad_request","message":"the request has no Host header (HTTP/1.1 requires one)"}}');
    expect(await socketExchange(server.url, "GET /health HTTP/1.1\r\nConnection: close\r\n\r\n")).toMatch(/^HTTP\/1\.1 400 /);
    expect(await socketExchange(server.url, `GET /health HTTP/1.0\r\nHost: 127.0.0.1:${port}\r\n\r\n`)).toMatch(/^HTTP\/1\.1 200 /);
  });

  it("allows the server's own origins and refuses null, another port, another scheme and a path", async () => {
    const auth = { authorization: `Bearer ${token}`, host: `127.0.0.1:${port}` };
    for (const origin of [`http://127.0.0.1:${port}`, `http://localhost:${port}`, `http://[::1]:${port}`]) {
      const r = await raw(server.url, "GET", "/books", { ...auth, origin });
      expect({ origin, status: r.status }).toEqual({ origin, status: 200 });
      expect(r.headers["access-control-allow-origin"]).toBeUndefined();
    }
    for (const origin of ["null", "http://127.0.0.1:1", `https://localhost:${port}`, `http://localhost:${port}/`, `http://LOCALHOST:${port}`, "http://evil.example", `http://127.0.0.1.evil.example:${port}`, "file://"]) {
      const r = await raw(server.url, "GET", "/health", { ...auth, origin });
      expect({ origin, status: r.status, code: r.json.error.code }).toEqual({ origin, status: 403, code: "forbidden_origin" });
    }
    // no --cors: no CORS answer at all
    const preflight = await raw(server.url, "OPTIONS", "/books", { host: auth.host, origin: `http://localhost:${port}`, "access-control-request-method": "POST" });
    expect(preflight.headers["access-control-allow-origin"]).toBeUndefined();
  });

  it("gives every answer a request id (the client's when it is plain) and logs one line per request, without query, body or token", async () => {
    const mine = await call(server.url, "GET", "/moots/00000000-0000-4000-8000-000000000000?key=sekrit-query", undefined, { authorization: `Bearer ${token}`, "x-request-id": "abc.DEF_1-2" });
    expect(mine.status).toBe(404);
    expect(mine.headers.get("x-request-id")).toBe("abc.DEF_1-2");
    for (const bad of ["has space", "x".repeat(65), "a/b", "a%0Ab", "\u00e9t\u00e9", "{\"json\":1}"]) {
      const r = await raw(server.url, "GET", "/health", { host: `127.0.0.1:${port}`, "x-request-id": bad });
      expect(r.headers["x-request-id"]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    }
    const refused = await raw(server.url, "GET", "/books", { host: "evil.example", "x-request-id": "refused-1" });
    expect(refused.headers["x-request-id"]).toBe("refused-1");
    await call(server.url, "POST", "/quotes/verify", { reply: "sekrit-body", passages: ["x"] }, { authorization: `Bearer ${token}`, "x-request-id": "post-1" });
    const err = await stderrHas(server, '"requestId":"post-1"');
    const lines = err.split("\n").filter((l) => l.startsWith("{")).map((l) => JSON.parse(l));
    expect(lines.find((l) => l.requestId === "abc.DEF_1-2")).toMatchObject({ msg: "request", method: "GET", route: "/moots/:id", status: 404, ms: expect.any(Number) });
    expect(lines.find((l) => l.requestId === "refused-1")).toMatchObject({ method: "GET", route: "/books", status: 403 });
    expect(lines.find((l) => l.requestId === "post-1")).toMatchObject({ method: "POST", route: "/quotes/verify", status: 200 });
    expect(err).not.toContain("sekrit");
    expect(err).not.toContain(token);
    expect(err).not.toContain("00000000-0000-4000-8000-000000000000");
  });

  it("reuses the saved token on the next start", async () => {
    const again = await startServer(["--data", data], {}, { autoToken: false });
    try {
      expect(readFileSync(tokenFile, "utf8").trim()).toBe(token);
      expect(await stderrHas(again, "requests need")).toContain(`requests need Authorization: Bearer <the token saved in ${tokenFile}>`);
      expect((await call(again.url, "GET", "/books", undefined, { authorization: `Bearer ${token}` })).status).toBe(200);
      expect(again.stderr()).not.toContain(token);
    } finally {
      await again.stop();
    }
  }, 60_000);
});

describe.skipIf(!existsSync(CLI))("serve: other token sources, --no-auth, --allowed-host, --cors, refusals at start", () => {
  it("prints a made token once on stderr when there is no --data, and requires it", async () => {
    const server = await startServer(["--quiet"], {}, { autoToken: false });
    try {
      const m = /made a token for this run \(not saved: no --data; [^)]*\); requests need Authorization: Bearer ([A-Za-z0-9_-]{43})\n/.exec(await stderrHas(server, /Bearer [A-Za-z0-9_-]{43}\n/));
      expect(m).not.toBeNull();
      expect((await call(server.url, "GET", "/books", undefined, { authorization: "" })).status).toBe(401);
      expect((await call(server.url, "GET", "/books", undefined, { authorization: `Bearer ${m![1]}` })).status).toBe(200);
      // --quiet: no request log
      expect(server.stderr().split(m![1]!).length).toBe(2);
      expect(server.stderr()).not.toContain('"msg":"request"');
    } finally {
      await server.stop();
    }
  }, 60_000);

  it("--allowed-host admits that name; --cors answers the preflight of exactly its origins and still refuses others", async () => {
    const server = await startServer(["--allowed-host", "groundwire.test", "--allowed-host", "[fd00::7]", "--cors", "http://app.example:3000", "--cors", "https://ui.example"]);
    try {
      const auth = { authorization: `Bearer ${TEST_TOKEN}` };
      expect((await raw(server.url, "GET", "/books", { ...auth, host: "groundwire.test:8787" })).status).toBe(200);
      expect((await raw(server.url, "GET", "/books", { ...auth, host: "GROUNDWIRE.TEST" })).status).toBe(200);
      expect((await raw(server.url, "GET", "/books", { ...auth, host: "[fd00::7]:80" })).status).toBe(200);
      expect((await raw(server.url, "GET", "/books", { ...auth, host: "other.test" })).json.error.code).toBe("forbidden_host");
      expect((await raw(server.url, "GET", "/books", { ...auth, host: "sub.groundwire.test" })).status).toBe(403);
      const host = new URL(server.url).host;
      const preflight = await raw(server.url, "OPTIONS", "/query", {
        host,
        origin: "http://app.example:3000",
        "access-control-request-method": "POST",
        "access-control-request-headers": "authorization,content-type",
      });
      expect(preflight.status).toBe(204);
      expect(preflight.headers["access-control-allow-origin"]).toBe("http://app.example:3000");
      expect(String(preflight.headers["access-control-allow-headers"]).toLowerCase()).toContain("authorization");
      expect(String(preflight.headers["access-control-allow-headers"]).toLowerCase()).toContain("content-type");
      const real = await raw(server.url, "POST", "/query", { ...auth, host, origin: "https://ui.example" }, JSON.stringify({ text: "fire", corpus: "diary/pepys-1660", k: 1 }));
      expect(real.status).toBe(200);
      expect(real.headers["access-control-allow-origin"]).toBe("https://ui.example");
      for (const origin of ["http://evil.example", "http://app.example:3001", "https://app.example:3000", "null"]) {
        const r = await raw(server.url, "OPTIONS", "/query", { host, origin, "access-control-request-method": "POST" });
        expect({ origin, status: r.status, code: r.json.error.code }).toEqual({ origin, status: 403, code: "forbidden_origin" });
        expect(r.headers["access-control-allow-origin"]).toBeUndefined();
      }
    } finally {
      await server.stop();
    }
  }, 60_000);

  it("a wildcard bind admits the machine's interface addresses and localhost, nothing else", async () => {
    const server = await startServer(["--host", "0.0.0.0", "--port", "0"], {}, { bare: true });
    try {
      const auth = { authorization: `Bearer ${TEST_TOKEN}` };
      const url = server.url.replace("0.0.0.0", "127.0.0.1");
      const external = Object.values(networkInterfaces()).flat().find((i) => i && !i.internal && i.family === "IPv4")?.address;
      for (const host of ["127.0.0.1", "localhost", "[::1]", ...(external ? [`${external}:8787`] : [])]) {
        expect({ host, status: (await raw(url, "GET", "/books", { ...auth, host })).status }).toEqual({ host, status: 200 });
      }
      expect((await raw(url, "GET", "/health", { host: "evil.example" })).status).toBe(403);
      expect((await raw(url, "GET", "/health", { host: "0.0.0.0" })).status).toBe(403);
    } finally {
      await server.stop();
    }
  }, 60_000);

  it("--no-auth serves loopback without a token, with a warning; refused with any other host", async () => {
    const server = await startServer(["--no-auth"]);
    try {
      expect((await call(server.url, "GET", "/books")).status).toBe(200);
      expect(await stderrHas(server, "--no-auth")).toContain("--no-auth: no token is required");
      expect((await raw(server.url, "GET", "/books", { host: "evil.example" })).status).toBe(403);
    } finally {
      await server.stop();
    }
    // npm test: 0.0.0.0 by flag and an address by HOST; npm run test:deep (test/depth.ts): :: too
    for (const [args, env] of spread([
      [["--no-auth", "--host", "0.0.0.0", "--port", "0"], {}],
      [["--no-auth", "--host", "::", "--port", "0"], {}],
      [["--no-auth", "--port", "0"], { HOST: "192.0.2.2" }],
    ] as const, 2)) {
      const r = await serveRefuses([...args], env);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/--no-auth serves loopback addresses only \(127\.0\.0\.1, ::1, localhost\), got host "(0\.0\.0\.0|::|192\.0\.2\.2)"; drop --no-auth/);
    }
    const both = await serveRefuses(["--no-auth", "--port", "0"], { GROUNDWIRE_TOKEN: "abc" });
    expect(both.code).toBe(2);
    expect(both.stderr).toContain("--no-auth and GROUNDWIRE_TOKEN contradict each other");
  }, 60_000);

  it("refuses an empty, blank or malformed GROUNDWIRE_TOKEN or token file at start (exit 2, the variable named, never the value)", async () => {
    // npm test: empty and tab; npm run test:deep (test/depth.ts): spaces too
    for (const value of spread(["", "   ", "\t"], 2)) {
      const r = await serveRefuses(["--port", "0"], { GROUNDWIRE_TOKEN: value });
      expect(r.code).toBe(2);
      expect(r.stderr).toBe("groundwire serve: GROUNDWIRE_TOKEN is empty or blank; unset it to have a token made, or set it to a token\n");
    }
    // npm test: a space and a non-ASCII letter; npm run test:deep (test/depth.ts): ; and a leading = too
    for (const value of spread(["has space", "semi;colon", "=abc", "tok\u00e9n"], 2)) {
      const r = await serveRefuses(["--port", "0"], { GROUNDWIRE_TOKEN: value });
      expect(r.code).toBe(2);
      expect(r.stderr).toContain("GROUNDWIRE_TOKEN holds characters a bearer token cannot (RFC 6750");
      expect(r.stderr).not.toContain(value);
    }
    const dir = mkdtempSync(join(tmpdir(), "gw-safe-file-"));
    const file = join(dir, "token");
    (await import("node:fs")).writeFileSync(file, "two words\n");
    const r = await serveRefuses(["--port", "0", "--token-file", file]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`the first line of --token-file ${file} holds characters a bearer token cannot`);
  }, 60_000);

  it("honours PORT and HOST from the environment, the flags winning; refuses bad values naming the variable", async () => {
    const port = await freePort();
    const byEnv = await startServer([], { PORT: String(port), HOST: "127.0.0.2" }, { bare: true });
    try {
      expect(byEnv.url).toBe(`http://127.0.0.2:${port}`);
      expect((await call(byEnv.url, "GET", "/books")).status).toBe(200);
    } finally {
      await byEnv.stop();
    }
    const byFlags = await startServer(["--host", "127.0.0.1", "--port", "0"], { PORT: String(port), HOST: "127.0.0.2" }, { bare: true });
    try {
      expect(byFlags.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(byFlags.url).not.toBe(`http://127.0.0.1:${port}`);
    } finally {
      await byFlags.stop();
    }
    // npm test: one bad PORT and one bad HOST; npm run test:deep (test/depth.ts): all five
    const badEnv = [
      [{ PORT: "80a" }, 'the environment variable PORT must be a port number 0-65535, got "80a"'],
      [{ PORT: "70000" }, 'the environment variable PORT must be a port number 0-65535, got "70000"'],
      [{ PORT: "" }, 'the environment variable PORT must be a port number 0-65535, got ""'],
      [{ HOST: "bad host" }, 'the environment variable HOST must be an IP address or a host name, got "bad host"'],
      [{ HOST: "http://x" }, 'the environment variable HOST must be an IP address or a host name, got "http://x"'],
    ] as const;
    for (const [env, message] of spreadEach(badEnv, ([env]) => Object.keys(env)[0]!, 1)) {
      const r = await serveRefuses([], env);
      expect(r.code).toBe(2);
      expect(r.stderr).toBe(`groundwire serve: ${message}\n`);
    }
    // npm test: one bad --allowed-host and one bad --cors; npm run test:deep (test/depth.ts): all three
    const badFlags = [
      [["--allowed-host", "http://x.example"], '--allowed-host must be a host name or an IP address (no scheme, port or path), got "http://x.example"'],
      [["--cors", "http://app.example/path"], '--cors must be an origin scheme://host[:port] (http or https, no path), got "http://app.example/path"'],
      [["--cors", "*"], '--cors must be an origin scheme://host[:port] (http or https, no path), got "*"'],
    ] as const;
    for (const [args, message] of spreadEach(badFlags, ([args]) => args[0], 1)) {
      const r = await serveRefuses([...args, "--port", "0"]);
      expect(r.code).toBe(2);
      expect(r.stderr).toBe(`groundwire serve: ${message}\n`);
    }
  }, 120_000);
});
